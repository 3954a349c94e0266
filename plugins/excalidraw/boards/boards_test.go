package boards

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

func TestFile(t *testing.T) {
	if got, want := File("/srv/drawings"), filepath.Join("/srv/drawings", ".dsh-excalidraw", "boards.json"); got != want {
		t.Fatalf("File = %s, want %s", got, want)
	}
}

// An empty store (no file) reads as empty and creates nothing.
func TestMissingFile(t *testing.T) {
	s, _ := newStore(t)
	if b, ok, err := s.Get(t.Context(), "plan"); err != nil || ok || !reflect.DeepEqual(b, Board{}) {
		t.Fatalf("Get: %+v %v %v", b, ok, err)
	}
	if l, err := s.List(t.Context()); err != nil || l == nil || len(l) != 0 {
		t.Fatalf("List: %#v %v", l, err)
	}
	if l, err := s.Folders(t.Context(), ""); err != nil || l == nil || len(l) != 0 {
		t.Fatalf("Folders: %#v %v", l, err)
	}
	if _, ok, err := s.Folder(t.Context(), "fld_000000000000"); err != nil || ok {
		t.Fatalf("Folder: %v %v", ok, err)
	}
	if _, err := os.Stat(filepath.Dir(s.Path())); !os.IsNotExist(err) {
		t.Fatalf("reading created the directory: %v", err)
	}
}

// What is written survives a new Store on the same file, and the file is
// private and shaped as documented.
func TestPersistence(t *testing.T) {
	s, c := newStore(t)
	f := must[Folder](t)(first(s.CreateFolder(t.Context(), "per_ann", "Work")))
	b := must[Board](t)(s.Create(t.Context(), Board{
		Name: "plan", Title: "  The plan ", Description: "What we do next.", Owner: "per_ann",
		Members: map[string]string{"per_bob": identity.RoleViewer}, Folder: f.ID, CreatedBy: "Ann",
	}))
	if b.Title != "The plan" || !b.CreatedAt.Equal(b.UpdatedAt) || b.CreatedAt.IsZero() {
		t.Fatalf("created %+v", b)
	}
	b = must[Board](t)(s.Trash(t.Context(), "plan", "Bob"))
	must[Board](t)(s.Ensure(t.Context(), "notes", "", "dsh"))

	again := Open(s.Path(), Options{Now: c.Now})
	got := must[Board](t)(get(again, "plan"))
	if !reflect.DeepEqual(got, b) {
		t.Fatalf("after reopening:\n got %+v\nwant %+v", got, b)
	}
	list := must[[]Board](t)(again.List(t.Context()))
	if len(list) != 2 || list[0].Name != "notes" || list[1].Name != "plan" {
		t.Fatalf("List %+v", list)
	}
	if fs := must[[]Folder](t)(again.Folders(t.Context(), "per_ann")); len(fs) != 1 || fs[0] != f {
		t.Fatalf("Folders %+v, want %+v", fs, f)
	}

	fi, err := os.Stat(s.Path())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi, err)
	}
	if di, err := os.Stat(filepath.Dir(s.Path())); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode: %v %v", di, err)
	}
	data, _ := os.ReadFile(s.Path())
	var raw struct {
		Boards  []map[string]any `json:"boards"`
		Folders []map[string]any `json:"folders"`
	}
	if err := json.Unmarshal(data, &raw); err != nil || len(raw.Boards) != 2 || len(raw.Folders) != 1 {
		t.Fatalf("file %s: %v", data, err)
	}
	for _, key := range []string{"name", "title", "description", "owner", "members", "folder", "createdAt", "updatedAt", "createdBy", "trashedAt", "trashedBy"} {
		if _, ok := raw.Boards[1][key]; !ok {
			t.Errorf("board has no %q: %s", key, data)
		}
	}
	for _, key := range []string{"id", "name", "owner", "createdAt"} {
		if _, ok := raw.Folders[0][key]; !ok {
			t.Errorf("folder has no %q: %s", key, data)
		}
	}
}

func TestCreate(t *testing.T) { eachPlace(t, testCreate) }

func testCreate(t *testing.T, pl place) {
	s, _ := pl.open(t)
	trashed := time.Now()
	b := must[Board](t)(s.Create(t.Context(), Board{Name: "plan", Owner: "per_ann", TrashedAt: &trashed, TrashedBy: "x", Members: map[string]string{}}))
	if b.TrashedAt != nil || b.TrashedBy != "" || b.Members != nil {
		t.Fatalf("created %+v", b)
	}
	e := wantCode(t, second(s.Create(t.Context(), Board{Name: "plan", Owner: "per_bob"})), sceneerr.AlreadyExists)
	if !strings.Contains(e.Message, `"plan"`) {
		t.Fatalf("message %q", e.Message)
	}
	if got := must[Board](t)(get(s, "plan")); got.Owner != "per_ann" {
		t.Fatalf("duplicate changed the record: %+v", got)
	}

	wantCode(t, second(s.Create(t.Context(), Board{Name: "Bad Name"})), sceneerr.InvalidName)
	wantCode(t, second(s.Create(t.Context(), Board{Name: "x", Title: "a\nb"})), sceneerr.InvalidOperation)
	wantCode(t, second(s.Create(t.Context(), Board{Name: "x", Description: strings.Repeat("d", 301)})), sceneerr.InvalidOperation)
	wantCode(t, second(s.Create(t.Context(), Board{Name: "x", Members: map[string]string{"per_bob": "owner"}})), sceneerr.InvalidOperation)
	wantCode(t, second(s.Create(t.Context(), Board{Name: "x", Members: map[string]string{"": "editor"}})), sceneerr.InvalidOperation)
	wantCode(t, second(s.Create(t.Context(), Board{Name: "x", Owner: "per_ann", Members: map[string]string{"per_ann": "editor"}})), sceneerr.InvalidOperation)
	wantCode(t, second(s.Create(t.Context(), Board{Name: "x", Folder: "fld_000000000000"})), sceneerr.NotFound)
	if _, ok, _ := s.Get(t.Context(), "x"); ok {
		t.Fatal("a refused Create left a record")
	}
}

// Ensure creates the default record once and then returns it unchanged,
// whatever it is asked for later.
func TestEnsure(t *testing.T) { eachPlace(t, testEnsure) }

func testEnsure(t *testing.T, pl place) {
	s, _ := pl.open(t)
	b := must[Board](t)(s.Ensure(t.Context(), "plan", "per_ann", "Ann"))
	if b.Name != "plan" || b.Owner != "per_ann" || b.CreatedBy != "Ann" || b.Title != "" || b.CreatedAt.IsZero() {
		t.Fatalf("ensured %+v", b)
	}
	_, v, _, err := s.doc.Fetch(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	again := must[Board](t)(s.Ensure(t.Context(), "plan", "per_bob", "Bob"))
	if !reflect.DeepEqual(again, b) {
		t.Fatalf("second Ensure %+v, want %+v", again, b)
	}
	if _, _, changed, err := s.doc.Fetch(context.Background(), v); err != nil || changed {
		t.Fatalf("second Ensure rewrote the document (%v)", err)
	}
	if b := must[Board](t)(s.Ensure(t.Context(), "legacy", "", "")); b.Owner != "" {
		t.Fatalf("host-owned %+v", b)
	}
	wantCode(t, second(s.Ensure(t.Context(), "../x", "", "")), sceneerr.InvalidName)
}

// A change to a board with no record first makes the default one, owned
// by the host's owner.
func TestChangeWithoutRecord(t *testing.T) { eachPlace(t, testChangeWithoutRecord) }

func testChangeWithoutRecord(t *testing.T, pl place) {
	s, _ := pl.open(t)
	b := must[Board](t)(s.SetTitle(t.Context(), "old-scene", "Old scene"))
	if b.Owner != "" || b.Title != "Old scene" || b.CreatedAt.IsZero() {
		t.Fatalf("%+v", b)
	}
	wantCode(t, second(s.SetTitle(t.Context(), "Not/Valid", "x")), sceneerr.InvalidName)
	// A refused change writes no default record either.
	wantCode(t, second(s.Restore(t.Context(), "never")), sceneerr.InvalidOperation)
	if _, ok, _ := s.Get(t.Context(), "never"); ok {
		t.Fatal("a refused change left a record")
	}
}

func TestTitleAndDescription(t *testing.T) { eachPlace(t, testTitleAndDescription) }

func testTitleAndDescription(t *testing.T, pl place) {
	s, _ := pl.open(t)
	b0 := must[Board](t)(s.Ensure(t.Context(), "plan", "per_ann", ""))
	b := must[Board](t)(s.SetTitle(t.Context(), "plan", " Plan "))
	if b.Title != "Plan" || !b.UpdatedAt.After(b0.UpdatedAt) || !b.CreatedAt.Equal(b0.CreatedAt) {
		t.Fatalf("%+v", b)
	}
	// The same title again is no change.
	if again := must[Board](t)(s.SetTitle(t.Context(), "plan", "Plan")); !again.UpdatedAt.Equal(b.UpdatedAt) {
		t.Fatalf("unchanged title stamped %v", again.UpdatedAt)
	}
	wantCode(t, second(s.SetTitle(t.Context(), "plan", strings.Repeat("é", 121))), sceneerr.InvalidOperation)
	b = must[Board](t)(s.SetDescription(t.Context(), "plan", "One paragraph."))
	if b.Description != "One paragraph." || b.Title != "Plan" {
		t.Fatalf("%+v", b)
	}
	wantCode(t, second(s.SetDescription(t.Context(), "plan", "one\ntwo")), sceneerr.InvalidOperation)
	if got := must[Board](t)(get(s, "plan")); got.Description != "One paragraph." {
		t.Fatalf("refused description stored: %+v", got)
	}
}

func TestMembers(t *testing.T) { eachPlace(t, testMembers) }

func testMembers(t *testing.T, pl place) {
	s, _ := pl.open(t)
	must[Board](t)(s.Create(t.Context(), Board{Name: "plan", Owner: "per_ann"}))
	must[Board](t)(s.SetMember(t.Context(), "plan", "per_bob", identity.RoleEditor))
	b := must[Board](t)(s.SetMember(t.Context(), "plan", "per_cy", identity.RoleViewer))
	if want := map[string]string{"per_bob": "editor", "per_cy": "viewer"}; !reflect.DeepEqual(b.Members, want) {
		t.Fatalf("members %v", b.Members)
	}
	b = must[Board](t)(s.SetMember(t.Context(), "plan", "per_bob", identity.RoleViewer))
	if b.Members["per_bob"] != "viewer" {
		t.Fatalf("role change %v", b.Members)
	}
	must[Board](t)(s.SetMember(t.Context(), "plan", "per_bob", ""))
	b = must[Board](t)(s.SetMember(t.Context(), "plan", "per_cy", ""))
	if b.Members != nil {
		t.Fatalf("members after removing all: %#v", b.Members)
	}
	// Removing someone who is no member is no error.
	must[Board](t)(s.SetMember(t.Context(), "plan", "per_nobody", ""))

	e := wantCode(t, second(s.SetMember(t.Context(), "plan", "per_bob", identity.RoleOwner)), sceneerr.InvalidOperation)
	if !strings.Contains(e.Message, "owner") {
		t.Fatalf("message %q", e.Message)
	}
	wantCode(t, second(s.SetMember(t.Context(), "plan", "per_bob", "admin")), sceneerr.InvalidOperation)
	wantCode(t, second(s.SetMember(t.Context(), "plan", "per_ann", identity.RoleEditor)), sceneerr.InvalidOperation)
	wantCode(t, second(s.SetMember(t.Context(), "plan", "", identity.RoleEditor)), sceneerr.InvalidOperation)
	wantCode(t, second(s.SetMember(t.Context(), "plan", "per bob", identity.RoleEditor)), sceneerr.InvalidOperation)
}

func TestSetOwner(t *testing.T) { eachPlace(t, testSetOwner) }

func testSetOwner(t *testing.T, pl place) {
	s, _ := pl.open(t)
	must[Board](t)(s.Create(t.Context(), Board{Name: "plan", Owner: "per_ann", Members: map[string]string{"per_bob": "viewer", "per_cy": "editor"}}))
	b := must[Board](t)(s.SetOwner(t.Context(), "plan", "per_bob"))
	if b.Owner != "per_bob" || !reflect.DeepEqual(b.Members, map[string]string{"per_ann": "editor", "per_cy": "editor"}) {
		t.Fatalf("%+v", b)
	}
	// Back to the host's owner: the person who owned it stays an editor.
	b = must[Board](t)(s.SetOwner(t.Context(), "plan", ""))
	if b.Owner != "" || !reflect.DeepEqual(b.Members, map[string]string{"per_ann": "editor", "per_bob": "editor", "per_cy": "editor"}) {
		t.Fatalf("%+v", b)
	}
	// From the host's owner to a member: nobody else joins.
	b = must[Board](t)(s.SetOwner(t.Context(), "plan", "per_cy"))
	if b.Owner != "per_cy" || !reflect.DeepEqual(b.Members, map[string]string{"per_ann": "editor", "per_bob": "editor"}) {
		t.Fatalf("%+v", b)
	}
	wantCode(t, second(s.SetOwner(t.Context(), "plan", "per x")), sceneerr.InvalidOperation)
}

func TestMove(t *testing.T) { eachPlace(t, testMove) }

func testMove(t *testing.T, pl place) {
	s, _ := pl.open(t)
	f := must[Folder](t)(first(s.CreateFolder(t.Context(), "per_ann", "Work")))
	b := must[Board](t)(s.Move(t.Context(), "plan", f.ID))
	if b.Folder != f.ID {
		t.Fatalf("%+v", b)
	}
	e := wantCode(t, second(s.Move(t.Context(), "plan", "fld_ffffffffffff")), sceneerr.NotFound)
	if !strings.Contains(e.Message, "fld_ffffffffffff") {
		t.Fatalf("message %q", e.Message)
	}
	if got := must[Board](t)(get(s, "plan")); got.Folder != f.ID {
		t.Fatalf("a refused move changed the folder: %+v", got)
	}
	if b := must[Board](t)(s.Move(t.Context(), "plan", "")); b.Folder != "" {
		t.Fatalf("%+v", b)
	}
}

func TestTrashAndRestore(t *testing.T) { eachPlace(t, testTrashAndRestore) }

func testTrashAndRestore(t *testing.T, pl place) {
	s, _ := pl.open(t)
	must[Board](t)(s.Create(t.Context(), Board{Name: "plan", Owner: "per_ann"}))
	e := wantCode(t, second(s.Restore(t.Context(), "plan")), sceneerr.InvalidOperation)
	if e.Message != `board "plan" is not in the trash; only a trashed board can be restored` {
		t.Fatalf("message %q", e.Message)
	}
	b := must[Board](t)(s.Trash(t.Context(), "plan", "Ann"))
	if b.TrashedAt == nil || b.TrashedBy != "Ann" || !b.TrashedAt.Equal(b.UpdatedAt) {
		t.Fatalf("trashed %+v", b)
	}
	// Trashing again keeps the first time and person.
	again := must[Board](t)(s.Trash(t.Context(), "plan", "Bob"))
	if !again.TrashedAt.Equal(*b.TrashedAt) || again.TrashedBy != "Ann" {
		t.Fatalf("trashed twice %+v", again)
	}
	b = must[Board](t)(s.Restore(t.Context(), "plan"))
	if b.TrashedAt != nil || b.TrashedBy != "" {
		t.Fatalf("restored %+v", b)
	}
}

func TestForget(t *testing.T) { eachPlace(t, testForget) }

func testForget(t *testing.T, pl place) {
	s, _ := pl.open(t)
	must[Board](t)(s.Ensure(t.Context(), "plan", "per_ann", ""))
	if ok, err := s.Forget(t.Context(), "plan"); err != nil || !ok {
		t.Fatalf("Forget: %v %v", ok, err)
	}
	if _, ok, err := s.Get(t.Context(), "plan"); err != nil || ok {
		t.Fatalf("Get after Forget: %v %v", ok, err)
	}
	if ok, err := s.Forget(t.Context(), "plan"); err != nil || ok {
		t.Fatalf("second Forget: %v %v", ok, err)
	}
	wantCode(t, second(s.Forget(t.Context(), "")), sceneerr.InvalidName)
}

// Get and List return copies: changing them changes nothing stored.
func TestGetReturnsCopy(t *testing.T) { eachPlace(t, testGetReturnsCopy) }

func testGetReturnsCopy(t *testing.T, pl place) {
	s, _ := pl.open(t)
	must[Board](t)(s.Create(t.Context(), Board{Name: "plan", Owner: "per_ann", Members: map[string]string{"per_bob": "viewer"}}))
	must[Board](t)(s.Trash(t.Context(), "plan", "Ann"))
	b := must[Board](t)(get(s, "plan"))
	b.Members["per_eve"] = "editor"
	b.Members["per_bob"] = "editor"
	*b.TrashedAt = time.Time{}
	l := must[[]Board](t)(s.List(t.Context()))
	l[0].Members["per_mallory"] = "editor"
	l[0].Title = "changed"

	got := must[Board](t)(get(s, "plan"))
	if !reflect.DeepEqual(got.Members, map[string]string{"per_bob": "viewer"}) || got.TrashedAt.IsZero() || got.Title != "" {
		t.Fatalf("the store changed through a returned board: %+v", got)
	}
}

func TestFolders(t *testing.T) { eachPlace(t, testFolders) }

func testFolders(t *testing.T, pl place) {
	s, _ := pl.open(t)
	work, created, err := s.CreateFolder(t.Context(), "per_ann", " Work ")
	if err != nil || !created || work.Name != "Work" || work.Owner != "per_ann" || !validFolderID(work.ID) || work.CreatedAt.IsZero() {
		t.Fatalf("CreateFolder: %+v %v %v", work, created, err)
	}
	again, created, err := s.CreateFolder(t.Context(), "per_ann", "work")
	if err != nil || created || again != work {
		t.Fatalf("same name ignoring case: %+v %v %v", again, created, err)
	}
	bobs, created, err := s.CreateFolder(t.Context(), "per_bob", "Work")
	if err != nil || !created || bobs.ID == work.ID {
		t.Fatalf("another owner's Work: %+v %v %v", bobs, created, err)
	}
	home := must[Folder](t)(first(s.CreateFolder(t.Context(), "per_ann", "home")))

	if fs := must[[]Folder](t)(s.Folders(t.Context(), "per_ann")); !reflect.DeepEqual(fs, []Folder{home, work}) {
		t.Fatalf("Ann's folders %+v", fs)
	}
	if fs := must[[]Folder](t)(s.Folders(t.Context(), "")); len(fs) != 3 {
		t.Fatalf("all folders %+v", fs)
	}
	if fs := must[[]Folder](t)(s.Folders(t.Context(), "per_nobody")); fs == nil || len(fs) != 0 {
		t.Fatalf("nobody's folders %#v", fs)
	}
	if f, ok, err := s.Folder(t.Context(), bobs.ID); err != nil || !ok || f != bobs {
		t.Fatalf("Folder: %+v %v %v", f, ok, err)
	}
	wantCode(t, second(first(s.CreateFolder(t.Context(), "", "Work"))), sceneerr.InvalidOperation)
	wantCode(t, second(first(s.CreateFolder(t.Context(), "per_ann", ""))), sceneerr.InvalidOperation)

	// Rename: a new case of its own name is fine, another folder's name is not.
	if f := must[Folder](t)(s.RenameFolder(t.Context(), work.ID, "WORK")); f.Name != "WORK" || f.ID != work.ID {
		t.Fatalf("renamed %+v", f)
	}
	e := wantCode(t, second(s.RenameFolder(t.Context(), home.ID, "work")), sceneerr.AlreadyExists)
	if !strings.Contains(e.Message, work.ID) {
		t.Fatalf("message %q", e.Message)
	}
	wantCode(t, second(s.RenameFolder(t.Context(), "fld_ffffffffffff", "x")), sceneerr.NotFound)
	wantCode(t, second(s.RenameFolder(t.Context(), home.ID, "a\nb")), sceneerr.InvalidName)
}

func TestDeleteFolder(t *testing.T) { eachPlace(t, testDeleteFolder) }

func testDeleteFolder(t *testing.T, pl place) {
	s, _ := pl.open(t)
	work := must[Folder](t)(first(s.CreateFolder(t.Context(), "per_ann", "Work")))
	home := must[Folder](t)(first(s.CreateFolder(t.Context(), "per_ann", "Home")))
	must[Board](t)(s.Move(t.Context(), "a", work.ID))
	must[Board](t)(s.Move(t.Context(), "b", work.ID))
	must[Board](t)(s.Move(t.Context(), "c", home.ID))
	if err := s.DeleteFolder(t.Context(), work.ID); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "", "b": "", "c": home.ID} {
		if b := must[Board](t)(get(s, name)); b.Folder != want {
			t.Errorf("%s in folder %q, want %q", name, b.Folder, want)
		}
	}
	if _, ok, _ := s.Folder(t.Context(), work.ID); ok {
		t.Fatal("folder still there")
	}
	wantCode(t, s.DeleteFolder(t.Context(), work.ID), sceneerr.NotFound)
	// Its name is free again.
	if _, created, err := s.CreateFolder(t.Context(), "per_ann", "work"); err != nil || !created {
		t.Fatalf("recreate: %v %v", created, err)
	}
}

// A file that does not parse, or contradicts itself, fails every call and
// is never overwritten.
func TestCorruptFile(t *testing.T) {
	for name, content := range map[string]string{
		"syntax":         `{"boards": [`,
		"array":          `[]`,
		"duplicate":      `{"boards":[{"name":"a"},{"name":"a"}]}`,
		"bad name":       `{"boards":[{"name":"A b"}]}`,
		"bad role":       `{"boards":[{"name":"a","members":{"per_b":"owner"}}]}`,
		"owner member":   `{"boards":[{"name":"a","owner":"per_b","members":{"per_b":"editor"}}]}`,
		"missing folder": `{"boards":[{"name":"a","folder":"fld_1"}]}`,
		"folder id":      `{"folders":[{"id":"fld_1"},{"id":"fld_1"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := newStore(t)
			if err := os.MkdirAll(filepath.Dir(s.Path()), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.Path(), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			calls := map[string]error{
				"Get":          third(s.Get(t.Context(), "a")),
				"List":         second(s.List(t.Context())),
				"Folders":      second(s.Folders(t.Context(), "")),
				"Folder":       third(s.Folder(t.Context(), "fld_1")),
				"Create":       second(s.Create(t.Context(), Board{Name: "new"})),
				"Ensure":       second(s.Ensure(t.Context(), "new", "", "")),
				"SetTitle":     second(s.SetTitle(t.Context(), "a", "x")),
				"SetMember":    second(s.SetMember(t.Context(), "a", "per_c", "viewer")),
				"Trash":        second(s.Trash(t.Context(), "a", "x")),
				"Forget":       second(s.Forget(t.Context(), "a")),
				"CreateFolder": third(s.CreateFolder(t.Context(), "per_c", "x")),
				"DeleteFolder": s.DeleteFolder(t.Context(), "fld_1"),
			}
			for call, err := range calls {
				if err == nil {
					t.Errorf("%s: no error", call)
				} else if !strings.Contains(err.Error(), s.Path()) {
					t.Errorf("%s: error does not name the file: %v", call, err)
				}
			}
			if data, _ := os.ReadFile(s.Path()); string(data) != content {
				t.Fatalf("file overwritten: %s", data)
			}
		})
	}
}

// A file repaired by hand is read again at the next call.
func TestRepairedFile(t *testing.T) {
	s, _ := newStore(t)
	must[Board](t)(s.Ensure(t.Context(), "a", "", ""))
	if err := os.WriteFile(s.Path(), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(t.Context(), "a"); err == nil {
		t.Fatal("no error for a corrupt file")
	}
	if err := os.WriteFile(s.Path(), []byte(`{"boards":[{"name":"b","title":"B"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, ok, err := s.Get(t.Context(), "b"); err != nil || !ok || b.Title != "B" {
		t.Fatalf("after repair: %+v %v %v", b, ok, err)
	}
}

func validFolderID(id string) bool {
	hex, ok := strings.CutPrefix(id, "fld_")
	return ok && len(hex) == 12 && strings.Trim(hex, "0123456789abcdef") == ""
}

func get(s *Store, name string) (Board, error) {
	b, ok, err := s.Get(context.Background(), name)
	if err == nil && !ok {
		return b, sceneerr.New(sceneerr.NotFound, "no record for %q", name)
	}
	return b, err
}

func first[T any](v T, _ bool, err error) (T, error) { return v, err }

func third[A, B any](_ A, _ B, err error) error { return err }
