package scene

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestBoundElementsShape(t *testing.T) {
	entry := func(id, kind any) *ojson.Object { return ojson.New().Set("id", id).Set("type", kind) }
	cases := []struct {
		name string
		v    any
		want []string
		sev  Severity
	}{
		{"null", nil, nil, ""},
		{"empty", []any{}, nil, ""},
		{"not an array", ojson.New(), []string{CodeInvalidField}, SeverityError},
		{"entry not an object", []any{"a"}, []string{CodeInvalidField}, SeverityError},
		{"id a number", []any{entry(num(1), "arrow")}, []string{CodeInvalidField}, SeverityError},
		{"unknown kind", []any{entry("a", "line")}, []string{CodeInvalidField}, SeverityWarning},
		{"listed twice", []any{entry("a", "arrow"), entry("a", "arrow")}, []string{CodeInvalidField}, SeverityWarning},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rect("r").Set("boundElements", c.v)
			a := arrow("a", "r", "")
			if c.name == "unknown kind" || c.name == "listed twice" {
				only(t, Validate(docOf(r, a), Limits{}), c.want...)
				return
			}
			a.Set("startBinding", nil)
			rep := Validate(docOf(r, a), Limits{})
			only(t, rep, c.want...)
			if len(c.want) > 0 && rep.Diagnostics[0].Severity != c.sev {
				t.Errorf("severity %s", rep.Diagnostics[0].Severity)
			}
		})
	}
}

func TestBindingShape(t *testing.T) {
	for _, v := range []any{"r", ojson.New().Set("elementId", ""), ojson.New().Set("elementId", num(1)), []any{}} {
		a := arrow("a", "", "").Set("endBinding", v)
		rep := Validate(docOf(a), Limits{})
		if got := find(rep, CodeInvalidField); len(got) != 1 || got[0].Severity != SeverityError {
			t.Errorf("%v: %s", v, dump(rep.Diagnostics))
		}
	}
}
