package scene

import "testing"

func TestIndicesIncludeTombstones(t *testing.T) {
	a, b, c := rect("a"), rect("b"), rect("c")
	a.Set("index", "a1")
	b.Set("index", "a0").Set("isDeleted", true) // a tombstone out of order still counts
	c.Set("index", "a2")
	r := Validate(docOf(a, b, c), Limits{})
	only(t, r, CodeIndexOrder)
	if d := r.Diagnostics[0]; d.ElementID != "b" || d.Severity != SeverityWarning {
		t.Errorf("%s", d)
	}
}

func TestIndicesCompareWithLastValid(t *testing.T) {
	a, b, c, d := rect("a"), rect("b"), rect("c"), rect("d")
	a.Set("index", "a5")
	b.Set("index", "zz!") // invalid: skipped, not used as a bound
	c.Set("index", "a6")
	d.Set("index", "a6") // equal is out of order
	r := Validate(docOf(a, b, c, d), Limits{})
	only(t, r, CodeInvalidIndex, CodeIndexOrder)
}

func TestIndicesMissingAreFieldWarnings(t *testing.T) {
	a, b := rect("a"), rect("b")
	a.Set("index", "a1")
	b.Delete("index")
	r := Validate(docOf(a, b), Limits{})
	only(t, r, CodeMissingField)
}
