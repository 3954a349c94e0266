package store

import (
	"strings"
	"testing"
)

// A listing that lands while a create is between its renames (the file in
// place, its sidecar not yet) leaves the new scene out: it is not
// committed, and its commit's event lists it. Before, it listed as
// revision 0 with no author, which the editor's live list showed for a
// moment (make stress caught the page reading it).
func TestListLeavesOutACreateInProgress(t *testing.T) {
	s, ffs := faultStore(t)
	var during []Summary
	ffs.set(func(op, path string) error {
		if op == "rename" && strings.HasSuffix(path, sidecarFile("b")) && during == nil {
			rows, err := s.List(bg)
			if err != nil {
				t.Errorf("List during the create: %v", err)
			}
			during = append(rows, Summary{}) // non-nil: listed once
		}
		return nil
	})
	mustCreate(t, s, "b", 1, "new")
	ffs.set(nil)
	if during == nil {
		t.Fatal("the create never renamed b's sidecar into place")
	}
	for _, r := range during[:len(during)-1] {
		if r.Name == "b" {
			t.Fatalf("a create in progress was listed: %+v", r)
		}
	}
	rows, err := s.List(bg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Name)
		if r.Name == "b" && (r.Revision != 1 || !r.Valid) {
			t.Fatalf("b after its create: %+v", r)
		}
	}
	if strings.Join(got, ",") != "a,b" {
		t.Fatalf("listed %v after the create, want a,b", got)
	}
}
