package scene

import (
	"encoding/json"
	"testing"
)

func TestNumberRanges(t *testing.T) {
	cases := []struct {
		typ, field string
		v          any
		code       string
		sev        Severity // "" = no diagnostic
	}{
		{"rectangle", "x", num(1e7), "", ""},
		{"rectangle", "x", num(-1e7 - 1), CodeOutOfBounds, SeverityError},
		{"rectangle", "height", num(2e7), CodeOutOfBounds, SeverityError},
		{"rectangle", "height", num(-1), CodeOutOfBounds, SeverityWarning},
		{"rectangle", "opacity", num(0), "", ""},
		{"rectangle", "opacity", num(-1), CodeOutOfBounds, SeverityError},
		{"rectangle", "strokeWidth", num(-0.5), CodeOutOfBounds, SeverityError},
		{"rectangle", "angle", json.Number("1e400"), CodeOutOfBounds, SeverityError},
		{"rectangle", "seed", "1", CodeInvalidField, SeverityError},
		{"text", "fontSize", num(-3), CodeOutOfBounds, SeverityError},
		{"text", "lineHeight", num(0), CodeOutOfBounds, SeverityWarning},
		{"text", "lineHeight", num(-1), CodeOutOfBounds, SeverityError},
		{"text", "fontFamily", num(4), "", ""},
		{"text", "fontFamily", num(1.5), CodeInvalidField, SeverityWarning},
	}
	for _, c := range cases {
		e := rect("e")
		if c.typ == "text" {
			e = textEl("e", "")
		}
		e.Set(c.field, c.v)
		rep := Validate(docOf(e), Limits{})
		if c.sev == "" {
			only(t, rep)
			continue
		}
		if len(rep.Diagnostics) != 1 || rep.Diagnostics[0].Code != c.code || rep.Diagnostics[0].Severity != c.sev {
			t.Errorf("%s.%s = %v: %s", c.typ, c.field, c.v, dump(rep.Diagnostics))
		}
	}
}

func TestPoints(t *testing.T) {
	pt := func(xs ...any) []any { return xs }
	cases := []struct {
		name   string
		typ    string
		points any
		want   []string
	}{
		{"legacy third coordinate", "freedraw", []any{pt(num(0), num(0), num(0.5)), pt(num(1), num(1), num(0.5))}, []string{CodeInvalidField}},
		{"single point line", "line", []any{pt(num(0), num(0))}, []string{CodeInvalidField}},
		{"single point stroke is fine", "freedraw", []any{pt(num(0), num(0))}, nil},
		{"not an array", "arrow", "x", []string{CodeInvalidField}},
		{"string coordinate", "arrow", []any{pt(num(0), "1"), pt(num(1), num(1))}, []string{CodeInvalidField}},
		{"overflow", "arrow", []any{pt(num(0), json.Number("-1e999")), pt(num(1), num(1))}, []string{CodeOutOfBounds}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := freedrawEl("e")
			if c.typ != "freedraw" {
				e = linear("e", c.typ, "", "")
			}
			e.Set("points", c.points)
			only(t, Validate(docOf(e), Limits{}), c.want...)
		})
	}
}
