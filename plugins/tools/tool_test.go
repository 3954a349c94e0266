package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	good := []string{"a", "fs.read", "A_b-c.9", strings.Repeat("x", 64)}
	bad := []string{"", "has space", "slash/x", "ünï", strings.Repeat("x", 65), "semi;colon"}
	for _, n := range good {
		if !ValidName(n) {
			t.Errorf("ValidName(%q) = false", n)
		}
	}
	for _, n := range bad {
		if ValidName(n) {
			t.Errorf("ValidName(%q) = true", n)
		}
	}
}

func TestCheckTool(t *testing.T) {
	h := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	cases := []struct {
		name string
		tool Tool
		want error
	}{
		{"ok", Tool{Name: "t", Description: "d", Handler: h}, nil},
		{"bad name", Tool{Name: "t t", Description: "d", Handler: h}, ErrInvalidName},
		{"blank description", Tool{Name: "t", Description: "  ", Handler: h}, ErrNoDescription},
		{"nil handler", Tool{Name: "t", Description: "d"}, ErrNoHandler},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := checkTool(tc.tool); !errors.Is(err, tc.want) {
				t.Fatalf("checkTool = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestDescriptorCloneIsDeep(t *testing.T) {
	d := Descriptor{Name: "n", InputSchema: json.RawMessage(`{"a":1}`)}
	c := d.clone()
	c.InputSchema[2] = 'X'
	if string(d.InputSchema) != `{"a":1}` {
		t.Fatalf("clone shares memory: %s", d.InputSchema)
	}
}
