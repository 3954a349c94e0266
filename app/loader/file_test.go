package loader

import "testing"

func TestFileEntry(t *testing.T) {
	f := &File{Plugins: []Entry{{ID: "a", Name: "x"}, {ID: "b", Name: "y"}}}
	e, ok := f.Entry("b")
	if !ok || e.Name != "y" {
		t.Fatalf("got %+v %v", e, ok)
	}
	if _, ok := f.Entry("c"); ok {
		t.Fatal("found a missing entry")
	}
	var nilFile *File
	if _, ok := nilFile.Entry("a"); ok {
		t.Fatal("nil file has no entries")
	}
}
