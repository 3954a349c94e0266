package engine

import (
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// One Txn is one version step per element, however its edits combine:
// an arrow added to an existing target that is then updated, an element
// added and then updated, and a move after a create all step once, and
// Touched lists each of them once.
func TestTouchedStepsOnce(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"a","x":0,"y":0}`, `{"type":"rectangle","id":"b","x":400,"y":0}`)
	tx := s.mustEdit(func(tx *Txn) error {
		ops, err := DecodeOps(raws(
			`{"op":"add","element":{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}}`,
			`{"op":"update","id":"a","patch":{"opacity":50}}`,
			`{"op":"add","element":{"type":"rectangle","id":"n","x":0,"y":300}}`,
			`{"op":"update","id":"n","patch":{"opacity":50}}`))
		if err != nil {
			return err
		}
		if err := tx.Apply(ops); err != nil {
			return err
		}
		if _, err := tx.Create(raws(`{"type":"ellipse","id":"e","place":{"below":"n"}}`,
			`{"type":"arrow","id":"be","startElementId":"b","endElementId":"e"}`), "/elements"); err != nil {
			return err
		}
		_, err = tx.Move([]string{"a", "e"}, 5, 5, "/ids")
		return err
	})
	if got := tx.Touched(); !slices.Equal(got, []string{"a", "b", "ab", "n", "e", "be"}) {
		t.Fatalf("touched %v", got)
	}
	doc := s.doc()
	for id, v := range map[string]float64{"a": 2, "b": 2, "ab": 1, "n": 1, "e": 1, "be": 1} {
		if got := scene.NumberOf(element(t, doc, id), "version"); got != v {
			t.Errorf("%s at version %v, want %v", id, got, v)
		}
	}
}
