package engine

import (
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// edit runs f in one Txn on the stored scene (a new one if none is
// stored yet) and, if it succeeds, checks
// what the engine left before anything repairs it (checkEdited) and
// stores it; on an error nothing is stored. It returns the Txn.
func (s *stored) edit(f func(tx *Txn) error) (*Txn, error) {
	s.t.Helper()
	before := scene.NewDocument()
	if s.data != nil {
		var err error
		if before, err = scene.Parse(s.data, limits.ForReading()); err != nil {
			s.t.Fatal(err)
		}
	}
	doc := before.Clone()
	tx := s.begin(doc)
	if err := f(tx); err != nil {
		return tx, err
	}
	checkEdited(s.t, before, doc, tx.Touched())
	return tx, s.commit(doc)
}

// mustEdit is edit that fails the test on an error.
func (s *stored) mustEdit(f func(tx *Txn) error) *Txn {
	s.t.Helper()
	tx, err := s.edit(f)
	if err != nil {
		s.t.Fatal(err)
	}
	return tx
}

// checkEdited asserts what every edit promises of the document it leaves
// (after, edited from before): no validation diagnostics at all, nothing
// for Normalize to repair (but see tombstoneListsDeleted), and one version step for exactly the elements
// that changed, which are the ones Touched lists (new ones at version 1).
func checkEdited(t testing.TB, before, after *scene.Document, touched []string) {
	t.Helper()
	if ds := scene.Validate(after, limits).Diagnostics; len(ds) > 0 {
		t.Errorf("the edit leaves diagnostics: %+v", ds)
	}
	rep := scene.Normalize(after.Clone())
	for _, r := range rep.Repairs {
		if !tombstoneListsDeleted(after, r) {
			t.Errorf("the edit leaves repairs to Normalize: %+v", rep)
			break
		}
	}
	if rep.Changed > len(rep.Repairs) {
		t.Errorf("the edit leaves fixes to Normalize: %+v", rep)
	}
	was := map[string]*ojson.Object{}
	for _, el := range before.Elements() {
		was[scene.StringOf(el, "id")] = el
	}
	var changed []string
	for _, el := range after.Elements() {
		id := scene.StringOf(el, "id")
		old := was[id]
		v := scene.NumberOf(el, "version")
		switch {
		case old == nil:
			changed = append(changed, id)
			if v != 1 {
				t.Errorf("new element %s has version %v, want 1", id, v)
			}
		case !ojson.Equal(old, el, true):
			changed = append(changed, id)
			if v != scene.NumberOf(old, "version")+1 {
				t.Errorf("changed element %s went from version %v to %v, want one step", id, scene.NumberOf(old, "version"), v)
			}
			if scene.NumberOf(el, "versionNonce") == scene.NumberOf(old, "versionNonce") {
				t.Errorf("changed element %s kept its versionNonce", id)
			}
		}
	}
	if changed == nil {
		changed = []string{}
	}
	if !slices.Equal(changed, touched) {
		t.Errorf("Touched() = %v, the elements that changed are %v", touched, changed)
	}
}

// liveIDs lists the ids of a scene's live elements, in scene order.
func liveIDs(doc *scene.Document) []string {
	var out []string
	for _, el := range doc.Elements() {
		if !scene.IsDeleted(el) {
			out = append(out, scene.StringOf(el, "id"))
		}
	}
	return out
}

// wantErrAt asserts an error's code and pointer.
func wantErrAt(t testing.TB, err error, code sceneerr.Code, pointer string) {
	t.Helper()
	se := wantCode(t, err, code)
	if got, _ := se.Details["pointer"].(string); got != pointer {
		t.Fatalf("pointer %q, want %q (%v)", got, pointer, err)
	}
}

// tombstoneListsDeleted reports a repair that Apply's delete leaves to
// Normalize today: a deleted container (or arrow) still lists its label,
// deleted with it, in boundElements, and Normalize drops the entry. It
// concerns tombstones only, so the editor draws nothing differently.
func tombstoneListsDeleted(doc *scene.Document, r scene.Repair) bool {
	_, el := doc.Find(r.ID)
	_, ref := doc.Find(r.Ref)
	return r.Code == "bound_element_dropped" && el != nil && scene.IsDeleted(el) && ref != nil && scene.IsDeleted(ref)
}
