package engine

import (
	"testing"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
)

// What Create, Move, MoveTo, Copy, Paste and ReplaceText write is a fixed
// point of Excalidraw 0.18.1's restore: placed and labelled boxes, arrows
// bound by ref, arrows that followed a moved box, moved whole, or were
// unbound by a move, copies with their bindings remapped, labels that
// grew their containers; and so are the scenes random sequences of those
// edits leave.
func TestEditsSurviveRestore(t *testing.T) {
	node := restorecheck.Require(t)
	s := newStored(t)
	res := create(t, s,
		`{"type":"rectangle","ref":"api","x":0,"y":0,"label":{"text":"API gateway"}}`,
		`{"type":"ellipse","ref":"db","place":{"rightOf":"api","gap":120},"label":{"text":"orders"}}`,
		`{"type":"diamond","ref":"q","place":{"below":"api","align":"start"},"label":{"text":"queue"}}`,
		`{"type":"text","ref":"note","place":{"above":"db","gap":10},"text":"primary store"}`,
		`{"type":"arrow","ref":"a1","startElementId":"api","endElementId":"db","label":{"text":"SQL"}}`,
		`{"type":"arrow","ref":"a2","startElementId":"api","endElementId":"q"}`,
		`{"type":"arrow","ref":"a3","startElementId":"q","endElementId":"db"}`)
	id := res.Refs
	s.mustEdit(func(tx *Txn) error {
		if _, err := tx.Move([]string{id["q"]}, 40, 60, "/ids"); err != nil {
			return err
		}
		if _, err := tx.Move([]string{id["api"], id["db"]}, -20, 15, "/ids"); err != nil {
			return err
		}
		if _, err := tx.Move([]string{id["a3"]}, 0, 200, "/ids"); err != nil {
			return err
		}
		if _, err := tx.MoveTo([]string{id["note"]}, 300, -200, "/ids"); err != nil {
			return err
		}
		_, err := tx.ReplaceText([]string{id["db"], id["a1"]}, Replacement{Find: "(orders|SQL)", Replace: "$1 and a much longer description of it", Regex: true}, "/ids")
		return err
	})
	s.mustEdit(func(tx *Txn) error {
		_, err := tx.Copy([]string{id["api"], id["db"], id["a1"], id["q"]}, 0, 600, "/ids")
		return err
	})
	var clip *Clip
	s.mustEdit(func(tx *Txn) (err error) {
		clip, err = tx.CopyOut([]string{id["api"], id["a2"], id["q"]}, "/ids")
		return err
	})
	checkRestoreKeeps(t, node, s.doc())

	other := newStored(t)
	other.create(`{"type":"rectangle","id":"here","x":0,"y":0}`)
	other.mustEdit(func(tx *Txn) error { _, err := tx.Paste(clip, 500, 0, "/offset"); return err })
	checkRestoreKeeps(t, node, other.doc())

	for seq := range 3 {
		s := newStored(t)
		randomSession(t, s, seq)
		checkRestoreKeeps(t, node, s.doc())
	}
}
