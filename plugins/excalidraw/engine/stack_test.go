package engine

import (
	"fmt"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// stackOfThree stores a group of two boxes (g1, g2), a labelled box l and
// a plain box p, and stacks them in a column (gap 10, align start) in
// that order.
func stackOfThree(t *testing.T) *stored {
	t.Helper()
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"g1","x":0,"y":0,"width":50,"height":40,"groupIds":["G"]}`,
		`{"type":"rectangle","id":"g2","x":60,"y":0,"width":50,"height":40,"groupIds":["G"]}`,
		`{"type":"rectangle","id":"l","x":500,"y":500,"width":100,"height":40,"label":{"text":"Hi"}}`,
		`{"type":"rectangle","id":"p","x":-300,"y":-300,"width":80,"height":20}`)
	s.mustEdit(func(tx *Txn) error {
		items, err := tx.StackItems([]string{labelID(t, s.doc(), "l"), "g2", "p", "g1"}, "/ids")
		if err != nil {
			return err
		}
		if len(items) != 3 || len(items[1]) != 2 {
			t.Fatalf("items %v: want the label as its container and the group as one item", items)
		}
		st := tx.StackAnchor(Stack{ID: "stk_t", Direction: "column", Align: "start", Gap: 10}, items, &Point{X: 0, Y: 0})
		_, err = tx.SetStack(st, items, "")
		return err
	})
	return s
}

func ys(t *testing.T, doc *scene.Document, ids ...string) string {
	t.Helper()
	var out []float64
	for _, id := range ids {
		out = append(out, scene.NumberOf(element(t, doc, id), "y"))
	}
	return fmt.Sprint(out)
}

// TestSetStack: items in the order given, a group as one item, a label's
// container as the item; the keeper leaves a kept stack alone.
func TestSetStack(t *testing.T) {
	s := stackOfThree(t)
	doc := s.doc()
	if got := ys(t, doc, "l", "g1", "g2", "p"); got != "[0 50 50 100]" {
		t.Errorf("tops l g1 g2 p = %s, want [0 50 50 100]", got)
	}
	if x := scene.NumberOf(element(t, doc, "g2"), "x"); x != 60 {
		t.Errorf("g2 at x=%v: the group did not move as one", x)
	}
	tx := s.mustEdit(func(tx *Txn) error {
		ids, err := tx.Keep()
		if len(ids) != 0 {
			t.Errorf("the keeper moved %v in a kept stack", ids)
		}
		return err
	})
	if n := len(tx.Touched()); n != 0 {
		t.Errorf("keeping a kept stack touched %d elements", n)
	}
}

// TestKeepStack: the keeper re-lays a stack after its items change:
// taller, deleted, dragged above another (reordered), copied (joins).
func TestKeepStack(t *testing.T) {
	s := stackOfThree(t)
	keep := func(edit func(tx *Txn) error) {
		t.Helper()
		s.mustEdit(func(tx *Txn) error {
			if err := edit(tx); err != nil {
				return err
			}
			_, err := tx.Keep()
			return err
		})
	}
	keep(func(tx *Txn) error {
		return tx.Update([]Update{{ID: "l", Patch: []byte(`{"height":100}`)}}, "/updates")
	})
	if got := ys(t, s.doc(), "l", "g1", "p"); got != "[0 110 160]" {
		t.Errorf("after l grew: %s, want [0 110 160]", got)
	}
	// p dragged above everything: it becomes the first item.
	keep(func(tx *Txn) error {
		return tx.Update([]Update{{ID: "p", Patch: []byte(`{"y":-50}`)}}, "/updates")
	})
	if got := ys(t, s.doc(), "p", "l", "g1"); got != "[0 30 140]" {
		t.Errorf("after p was dragged up: %s, want [0 30 140]", got)
	}
	keep(func(tx *Txn) error { return tx.Delete([]string{"l"}, "/ids") })
	if got := ys(t, s.doc(), "p", "g1"); got != "[0 30]" {
		t.Errorf("after l was deleted: %s, want [0 30]", got)
	}
	keep(func(tx *Txn) error {
		_, err := tx.Copy([]string{"p"}, 5, 5, "/ids")
		return err
	})
	doc := s.doc()
	n := 0
	for _, el := range doc.Elements() {
		if st, ok := stackOf(el); ok && st.ID == "stk_t" && !scene.IsDeleted(el) && scene.StringOf(el, "id") != "p" && scene.StringOf(el, "type") == "rectangle" && scene.NumberOf(el, "width") == 80 {
			n++
			if y := scene.NumberOf(el, "y"); y != 30 {
				t.Errorf("the copy of p at y=%v, want 30 (second)", y)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d copies of p in the stack", n)
	}
	if got := ys(t, doc, "g1"); got != "[60]" {
		t.Errorf("after the copy, g1 at %s, want [60]", got)
	}

	// p made narrower from its left (it no longer reaches the line x=0,
	// but is still beside the others): it stays, put back on the line.
	keep(func(tx *Txn) error {
		return tx.Update([]Update{{ID: "p", Patch: []byte(`{"x":30,"width":50}`)}}, "/updates")
	})
	doc = s.doc()
	if _, ok := stackOf(element(t, doc, "p")); !ok || scene.NumberOf(element(t, doc, "p"), "x") != 0 {
		t.Errorf("p narrowed from the left: tagged %v, at x=%v; want still an item, at 0", ok, scene.NumberOf(element(t, doc, "p"), "x"))
	}
	// p dragged clear to the right leaves the stack, which closes up.
	keep(func(tx *Txn) error {
		return tx.Update([]Update{{ID: "p", Patch: []byte(`{"x":600}`)}}, "/updates")
	})
	doc = s.doc()
	if _, ok := stackOf(element(t, doc, "p")); ok || scene.NumberOf(element(t, doc, "p"), "x") != 600 {
		t.Errorf("p dragged off: still an item %v, at x=%v", ok, scene.NumberOf(element(t, doc, "p"), "x"))
	}
	if got := ys(t, doc, "g1"); got != "[30]" {
		t.Errorf("after p left, g1 at %s, want [30] (after the copy of p)", got)
	}
}

// TestKeepStackRow: a row centred on its line keeps its items' middles
// there as one grows.
func TestKeepStackRow(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"a","x":0,"y":0,"width":40,"height":40}`,
		`{"type":"ellipse","id":"b","x":0,"y":0,"width":60,"height":80}`)
	s.mustEdit(func(tx *Txn) error {
		st := tx.StackAnchor(Stack{ID: "stk_r", Direction: "row", Align: "center", Gap: 20}, [][]string{{"a"}, {"b"}}, &Point{X: 10, Y: 10})
		_, err := tx.SetStack(st, [][]string{{"a"}, {"b"}}, "")
		return err
	})
	doc := s.doc()
	a, b := element(t, doc, "a"), element(t, doc, "b")
	if scene.NumberOf(a, "x") != 10 || scene.NumberOf(b, "x") != 70 || scene.NumberOf(a, "y") != 30 || scene.NumberOf(b, "y") != 10 {
		t.Fatalf("a at %v,%v b at %v,%v", scene.NumberOf(a, "x"), scene.NumberOf(a, "y"), scene.NumberOf(b, "x"), scene.NumberOf(b, "y"))
	}
	s.mustEdit(func(tx *Txn) error {
		if err := tx.Update([]Update{{ID: "a", Patch: []byte(`{"width":100}`)}}, "/updates"); err != nil {
			return err
		}
		_, err := tx.Keep()
		return err
	})
	if x := scene.NumberOf(element(t, s.doc(), "b"), "x"); x != 130 {
		t.Errorf("b at x=%v after a grew to 100, want 130", x)
	}
}

// TestStackItemsSkipBoundArrows: an arrow bound to shapes is no item: it
// follows the boxes it joins as they are stacked.
func TestStackItemsSkipBoundArrows(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":40}`,
		`{"type":"rectangle","id":"b","x":300,"y":0,"width":100,"height":40}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`)
	s.mustEdit(func(tx *Txn) error {
		items, err := tx.StackItems([]string{"a", "ab", "b"}, "/ids")
		if err != nil {
			return err
		}
		if len(items) != 2 {
			t.Fatalf("items %v, want a and b", items)
		}
		_, err = tx.SetStack(Stack{ID: "stk_a", Direction: "column", Align: "start", Gap: 40, Start: 0, Line: 0}, items, "")
		return err
	})
	doc := s.doc()
	if got := ys(t, doc, "a", "b"); got != "[0 80]" {
		t.Errorf("tops %s, want [0 80]", got)
	}
	ab := element(t, doc, "ab")
	if _, ok := stackOf(ab); ok || bindingTarget(ab, "endBinding") != "b" {
		t.Errorf("the arrow is an item %v or lost b", ok)
	}
	pts := scene.Points(ab)
	last := pts[len(pts)-1]
	ex, ey := scene.NumberOf(ab, "x")+last[0], scene.NumberOf(ab, "y")+last[1]
	if ex < -20 || ex > 120 || ey < 60 || ey > 140 {
		t.Errorf("the arrow ends at %v,%v: it did not follow b to 0,80", ex, ey)
	}
}
