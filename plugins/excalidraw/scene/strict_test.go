package scene

import (
	"errors"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestParseStrict(t *testing.T) {
	if _, err := ParseStrict(mustMarshal(t, validScene()), Limits{}); err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	cases := []struct {
		name string
		edit func(d *Document)
		code sceneerr.Code
	}{
		{"unsupported type", func(d *Document) { el(d, "d1").Set("type", "table") }, sceneerr.UnsupportedElement},
		{"legacy type", func(d *Document) { el(d, "l1").Set("type", "draw") }, sceneerr.UnsupportedElement},
		{"duplicate id", func(d *Document) { el(d, "d1").Set("id", "e1") }, sceneerr.DuplicateID},
		{"dangling binding", func(d *Document) { el(d, "a1").Set("startBinding", binding("gone")) }, sceneerr.InvalidReference},
		{"missing file", func(d *Document) { d.Files().Delete("file1") }, sceneerr.InvalidReference},
		{"bad field", func(d *Document) { el(d, "r1").Set("x", "1") }, sceneerr.InvalidScene},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := validScene()
			c.edit(d)
			data := mustMarshal(t, d)
			if _, err := Parse(data, Limits{}); err != nil {
				t.Fatalf("lenient Parse must accept it: %v", err)
			}
			_, err := ParseStrict(data, Limits{})
			var se *sceneerr.Error
			if !errors.As(err, &se) || se.Code != c.code {
				t.Fatalf("ParseStrict error %v, want code %s", err, c.code)
			}
			if se.Details["pointer"] == "" {
				t.Errorf("no pointer in %v", se.Details)
			}
		})
	}
}

func TestParseStrictAcceptsWarnings(t *testing.T) {
	d := validScene()
	el(d, "r1").Delete("updated")
	el(d, "r2").Set("index", "a0") // out of order: restore re-indexes
	if _, err := ParseStrict(mustMarshal(t, d), Limits{}); err != nil {
		t.Fatal(err)
	}
	d.SetElements(append(d.Elements(), (*ojson.Object)(nil)))
	if _, err := ParseStrict(mustMarshal(t, d), Limits{}); err == nil {
		t.Fatal("null element accepted")
	}
}
