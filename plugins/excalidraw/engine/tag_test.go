package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// TestTagNests: a structure's tag goes in customData.dsh unless that
// holds another kind's, which stays; then beside it (dshStack); removing
// it removes only it.
func TestTagNests(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"a","x":0,"y":0,"width":10,"height":10}`)
	if Tagged(s.doc()) {
		t.Error("a scene without tags is Tagged")
	}
	table := ojson.New().Set("kind", "table").Set("id", "tbl_x").Set("slot", "cell")
	stack := ojson.New().Set("kind", "stack").Set("id", "stk_x").Set("slot", "item")
	s.mustEdit(func(tx *Txn) error {
		if err := tx.Tag("a", "table", table, ""); err != nil {
			return err
		}
		return tx.Tag("a", "stack", stack, "")
	})
	if !Tagged(s.doc()) {
		t.Error("a scene with a table's cell is not Tagged")
	}
	a := element(t, s.doc(), "a")
	if rec, key := tagOf(a, "table"); rec == nil || key != "dsh" {
		t.Errorf("the table's tag is at %q", key)
	}
	if rec, key := tagOf(a, "stack"); rec == nil || key != "dshStack" || scene.StringOf(rec, "id") != "stk_x" {
		t.Errorf("the stack's tag is at %q", key)
	}
	s.mustEdit(func(tx *Txn) error { return tx.Tag("a", "stack", nil, "") })
	a = element(t, s.doc(), "a")
	if rec, _ := tagOf(a, "stack"); rec != nil {
		t.Error("the stack's tag was not removed")
	}
	if rec, _ := tagOf(a, "table"); rec == nil {
		t.Error("removing the stack's tag took the table's")
	}
}
