package loader

import (
	"testing"
)

func TestValidateReportsLeafProblemsWithFilePointers(t *testing.T) {
	cs := mustCompile(t, `{
		"type": "object",
		"properties": {
			"maxElements": {"type": "integer"},
			"mode": {"enum": ["fast", "safe"]},
			"max size": {"type": "integer"}
		}
	}`)
	probs := validate(cs, map[string]any{"maxElements": "ten", "mode": "slow", "max size": true}, "e1", "/plugins/2/config")
	got := map[string]string{}
	for _, p := range probs {
		if p.EntryID != "e1" {
			t.Errorf("entry id = %q", p.EntryID)
		}
		got[p.Pointer] = p.Message
	}
	for _, ptr := range []string{"/plugins/2/config/maxElements", "/plugins/2/config/mode", "/plugins/2/config/max size"} {
		if got[ptr] == "" {
			t.Errorf("no problem at %s; got %v", ptr, got)
		}
	}
}

func TestValidateAcceptsValidValue(t *testing.T) {
	cs := mustCompile(t, `{"type": "object", "properties": {"n": {"type": "integer"}}}`)
	if probs := validate(cs, map[string]any{"n": int64(3)}, "", "/host"); probs != nil {
		t.Fatalf("got %v", probs)
	}
}

func TestValidateRootTypeMismatch(t *testing.T) {
	cs := mustCompile(t, `{"type": "object"}`)
	probs := validate(cs, []any{}, "", "/host")
	if len(probs) != 1 || probs[0].Pointer != "/host" {
		t.Fatalf("got %v", probs)
	}
}

func TestValidateNonJSONValue(t *testing.T) {
	cs := mustCompile(t, `{"type": "object"}`)
	probs := validate(cs, struct{}{}, "x", "/plugins/0/config")
	if len(probs) != 1 || probs[0].Pointer != "/plugins/0/config" {
		t.Fatalf("got %v", probs)
	}
}
