package statefile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A document of Files is a private file named after it, whose errors name
// the document.
func TestFilesDoc(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	d := Files(dir).Doc("tokens")
	if want := filepath.Join(dir, "tokens.json"); d.Where() != want {
		t.Fatalf("Where = %q, want %q", d.Where(), want)
	}
	err := UpdateDoc(t.Context(), d, parseCounter, func(c counter) (counter, bool, error) { c.N = 1; return c, true, nil })
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(d.Where()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file: %v %v", fi, err)
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Doc(%q) did not panic", bad)
				}
			}()
			Files(dir).Doc(bad)
		}()
	}
}

// Import copies a document only into one that does not exist yet.
func TestImport(t *testing.T) {
	from, to := Files(t.TempDir()), Files(t.TempDir())
	ctx := context.Background()
	if ok, err := Import(ctx, to.Doc("a"), from.Doc("a")); ok || err != nil {
		t.Fatalf("a missing source: %v %v", ok, err)
	}
	if _, err := os.Stat(to.Doc("a").Where()); !os.IsNotExist(err) {
		t.Fatal("a missing source made the document")
	}
	put := func(d Doc, s string) {
		if err := d.Update(ctx, func([]byte) ([]byte, bool, error) { return []byte(s), true, nil }); err != nil {
			t.Fatal(err)
		}
	}
	put(from.Doc("a"), "one")
	if ok, err := Import(ctx, to.Doc("a"), from.Doc("a")); !ok || err != nil {
		t.Fatalf("Import: %v %v", ok, err)
	}
	put(from.Doc("a"), "two")
	if ok, err := Import(ctx, to.Doc("a"), from.Doc("a")); ok || err != nil {
		t.Fatalf("Import over an existing document: %v %v", ok, err)
	}
	if data, _ := os.ReadFile(to.Doc("a").Where()); string(data) != "one" {
		t.Fatalf("imported %q, want the first copy kept", data)
	}
}
