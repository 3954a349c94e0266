package store

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The contract's rule, as a regexp, to check the hand-written ValidName.
var nameRule = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9._-]{0,63})$`)

func TestValidName(t *testing.T) {
	for _, name := range []string{"a", "architecture", "0", "a.b", "a-b_c.d", "v1.2", "a.", strings.Repeat("x", 64)} {
		if err := ValidName(name); err != nil {
			t.Errorf("%q rejected: %v", name, err)
		}
	}
	for _, name := range []string{"", ".", "..", "a..b", "a/b", "A", "aB", "a b", "-a", ".a", "_a", "a\x00",
		"é", "名前", strings.Repeat("x", 65), "a\\b", "a:b", "a*"} {
		err := ValidName(name)
		if CodeOf(err) != CodeInvalidName {
			t.Errorf("%q accepted: %v", name, err)
		}
	}
}

func TestParseBackup(t *testing.T) {
	for _, c := range []struct {
		name, entry string
		rev         int64
		valid, ok   bool
	}{
		{"a", "a.5.excalidraw", 5, true, true},
		{"a", "a.12.corrupt", 12, false, true},
		{"a", "a.5.3.excalidraw", 0, false, false}, // scene "a.5", revision 3
		{"a.5", "a.5.3.excalidraw", 3, true, true},
		{"a", "a.x.excalidraw", 0, false, false},
		{"a", "a..excalidraw", 0, false, false},
		{"a", "ab.5.excalidraw", 0, false, false},
		{"a", "a.99999999999999999999.excalidraw", 0, false, false},
	} {
		rev, valid, ok := parseBackup(c.name, c.entry)
		if rev != c.rev || valid != c.valid || ok != c.ok {
			t.Errorf("parseBackup(%q, %q) = %d %v %v", c.name, c.entry, rev, valid, ok)
		}
	}
	if rev, valid, ok := parseBackup("a", backupFile("a", 42, true)); rev != 42 || !valid || !ok {
		t.Fatal("backupFile/parseBackup disagree")
	}
}

// FuzzValidName: never panics, agrees with the contract's regexp (plus the
// ".." rule), and every accepted name lands directly inside the directory.
func FuzzValidName(f *testing.F) {
	for _, seed := range []string{"a", "..", "a/b", "A", "", "x\x00", "é", "a..b", ".a", strings.Repeat("z", 65)} {
		f.Add(seed)
	}
	dir := "/srv/drawings"
	f.Fuzz(func(t *testing.T, name string) {
		err := ValidName(name)
		want := nameRule.MatchString(name) && !strings.Contains(name, "..")
		if (err == nil) != want {
			t.Fatalf("ValidName(%q) = %v, rule says %v", name, err, want)
		}
		p, perr := ScenePath(dir, name)
		if err != nil {
			if perr == nil {
				t.Fatal("ScenePath accepted an invalid name")
			}
			return
		}
		if filepath.Dir(p) != dir || filepath.Base(p) != name+sceneExt || !filepath.IsLocal(name+sceneExt) {
			t.Fatalf("%q maps to %q", name, p)
		}
	})
}
