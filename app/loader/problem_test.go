package loader

import (
	"slices"
	"testing"
)

func TestProblemString(t *testing.T) {
	cases := []struct {
		p    Problem
		want string
	}{
		{Problem{Message: "boom"}, "boom"},
		{Problem{Line: 3, Message: "bad"}, "(line 3): bad"},
		{Problem{EntryID: "db", Message: "bad"}, `entry "db": bad`},
		{Problem{Pointer: "/host/port", Line: 2, Message: "bad"}, "at /host/port (line 2): bad"},
		{Problem{EntryID: "db", Pointer: "/plugins/0/config/port", Line: 7, Message: "bad"}, `entry "db" at /plugins/0/config/port (line 7): bad`},
	}
	for _, c := range cases {
		if got := c.p.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestErrorListsEveryProblem(t *testing.T) {
	e := &Error{Path: "dsh.yaml", Problems: []Problem{
		{EntryID: "a", Pointer: "/plugins/0/config/x", Message: "m1"},
		{EntryID: "b", Pointer: "/plugins/1/name", Message: "m2"},
	}}
	want := `config dsh.yaml: 2 problems: entry "a" at /plugins/0/config/x: m1; entry "b" at /plugins/1/name: m2`
	if got := e.Error(); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestErrorSingleAndEmpty(t *testing.T) {
	one := &Error{Path: "f.yaml", Problems: []Problem{{Message: "m"}}}
	if got := one.Error(); got != "config f.yaml: m" {
		t.Fatalf("got %q", got)
	}
	if got := (&Error{}).Error(); got != "config: invalid" {
		t.Fatalf("got %q", got)
	}
}

func TestErrorEntryIDsAndPointersAreDistinct(t *testing.T) {
	e := &Error{Problems: []Problem{
		{EntryID: "a", Pointer: "/p/1"},
		{EntryID: "a", Pointer: "/p/2"},
		{Pointer: "/p/1"},
		{EntryID: "b"},
	}}
	if got := e.EntryIDs(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("EntryIDs = %v", got)
	}
	if got := e.Pointers(); !slices.Equal(got, []string{"/p/1", "/p/2"}) {
		t.Fatalf("Pointers = %v", got)
	}
}
