package scene

import "testing"

func TestIDs(t *testing.T) {
	cases := []struct {
		name string
		id   any
		del  bool
		want string
	}{
		{"number", num(7), false, CodeInvalidField},
		{"null", nil, false, CodeMissingField},
		{"empty", "", false, CodeInvalidField},
	}
	for _, c := range cases {
		r := rect("r").Set("id", c.id)
		rep := Validate(docOf(r), Limits{})
		only(t, rep, c.want)
		if rep.Valid {
			t.Errorf("%s: ids are errors", c.name)
		}
	}
}

func TestDuplicateIDsEvenAmongTombstones(t *testing.T) {
	rep := Validate(docOf(rect("r").Set("isDeleted", true), rect("r")), Limits{})
	only(t, rep, CodeDuplicateID)
	if d := rep.Diagnostics[0]; d.Pointer != "/elements/1/id" || d.ElementID != "r" {
		t.Error(d)
	}
}
