package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListSortsAndFilters(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "zeta", 1, "z")
	mustCreate(t, s, "alpha", 2, "a")
	mustSave(t, s, "alpha", 1, doc(3, "a2"))
	for _, junk := range []string{"notes.txt", ".hidden.excalidraw", "Upper.excalidraw", "-x.excalidraw",
		".alpha.excalidraw.tmp-0123456789abcdef", "alpha.excalidraw.tmp-0123456789abcdef"} {
		writeFile(t, filepath.Join(s.dir, junk), doc(1, "junk"))
	}
	os.Mkdir(filepath.Join(s.dir, "folder"), 0o700)
	writeFile(t, scenePathOf(s, "broken"), []byte("{"))

	list, err := s.List(bg)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sum := range list {
		names = append(names, sum.Name)
	}
	if strings.Join(names, ",") != "alpha,broken,zeta" {
		t.Fatalf("names %v", names)
	}
	if a := list[0]; !a.Valid || a.Revision != 2 || a.ElementCount != 3 || a.Problem != "" || a.UpdatedBy != ActorAgent {
		t.Fatalf("alpha %+v", a)
	}
	if b := list[1]; b.Valid || !strings.Contains(b.Problem, CodeCorruptScene) || b.Revision != 0 {
		t.Fatalf("broken %+v", b)
	}
	// Listing repairs nothing.
	if _, err := os.Stat(sidecarPathOf(s, "broken")); !os.IsNotExist(err) {
		t.Fatal("List wrote a sidecar")
	}
}

func TestListEmptyAndWithoutMetaDir(t *testing.T) {
	s := testStore(t)
	list, err := s.List(bg)
	if err != nil || len(list) != 0 {
		t.Fatalf("%v %v", list, err)
	}
	writeFile(t, scenePathOf(s, "a"), doc(1, "x"))
	os.RemoveAll(filepath.Join(s.dir, metaDir))
	list, err = s.List(bg)
	if err != nil || len(list) != 1 || !list[0].Valid || list[0].Revision != 0 {
		t.Fatalf("%+v %v", list, err)
	}
	// The metadata directory comes back at the next operation.
	if sc, err := s.Read(bg, "a"); err != nil || sc.Revision != 1 {
		t.Fatalf("%+v %v", sc, err)
	}
}

func TestListTooLargeFileIsInvalid(t *testing.T) {
	s := testStore(t, func(o *Options) { o.MaxSceneBytes = 50 })
	writeFile(t, scenePathOf(s, "big"), doc(10, "x"))
	list, err := s.List(bg)
	if err != nil || len(list) != 1 || list[0].Valid || !strings.Contains(list[0].Problem, CodeTooLarge) {
		t.Fatalf("%+v %v", list, err)
	}
}

// TestListErrSaysWhy: an unusable file's row carries the error that makes
// it so, with its code and the codec's complaint inside, for the caller
// to put into words; a usable one has none, even with a note in Problem.
func TestListErrSaysWhy(t *testing.T) {
	s := testStore(t, func(o *Options) { o.MaxSceneBytes = 200 })
	mustCreate(t, s, "good", 1, "g")
	writeFile(t, scenePathOf(s, "nosidecar"), doc(1, "n"))
	writeFile(t, scenePathOf(s, "broken"), []byte(`{"elements":`))
	writeFile(t, scenePathOf(s, "big"), doc(20, "b"))
	if err := os.Symlink(scenePathOf(s, "good"), scenePathOf(s, "link")); err != nil {
		t.Fatal(err)
	}
	list, err := s.List(bg)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]Summary{}
	for _, r := range list {
		rows[r.Name] = r
	}
	for _, name := range []string{"good", "nosidecar"} {
		if r := rows[name]; !r.Valid || r.Err != nil {
			t.Errorf("%s: valid %v err %v", name, r.Valid, r.Err)
		}
	}
	if r := rows["nosidecar"]; !strings.Contains(r.Problem, "no sidecar") {
		t.Errorf("nosidecar problem %q", r.Problem)
	}
	want := map[string]string{"broken": CodeCorruptScene, "big": CodeTooLarge, "link": CodePermissionDenied}
	for name, code := range want {
		r := rows[name]
		if r.Valid || CodeOf(r.Err) != code || r.Problem == "" {
			t.Errorf("%s: valid %v err %v problem %q, want %s", name, r.Valid, r.Err, r.Problem, code)
		}
	}
	// The codec's own error is inside corrupt_scene, for its details.
	var syntax *json.SyntaxError
	if !errors.As(rows["broken"].Err, &syntax) {
		t.Errorf("broken: the codec's error is not inside %v", rows["broken"].Err)
	}
	var se *Error
	if errors.As(rows["big"].Err, &se); se == nil || se.Details["max"] != int64(200) {
		t.Errorf("big: details %+v", se)
	}
}
