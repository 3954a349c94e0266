package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// What Group, Reorder, the frame edits, Arrange and Repair write is a
// fixed point of Excalidraw 0.18.1's restore: the editor opens it and
// changes nothing.
func TestLayerEditsSurviveRestore(t *testing.T) {
	node := restorecheck.Require(t)
	s := newStored(t)
	s.save([]byte(nearMisses))
	s.mustEdit(func(tx *Txn) error {
		if _, err := tx.Repair(); err != nil {
			return err
		}
		if _, err := tx.Add(raws(threeShapes...), "/elements"); err != nil {
			return err
		}
		if _, err := tx.Group([]string{"a", "b"}, ""); err != nil {
			return err
		}
		if _, err := tx.CreateFrame("Flow", nil, []string{"a", "c"}, 0, ""); err != nil {
			return err
		}
		if _, err := tx.CreateFrame("", &Box{X: 2000, Y: 0, Width: 400, Height: 300}, nil, 0, ""); err != nil {
			return err
		}
		if err := tx.Reorder([]string{"r"}, ToFront, "", ""); err != nil {
			return err
		}
		return tx.Arrange([]string{"r", "small", "eb"}, Arrangement{Layout: "grid", Columns: 2}, "")
	})
	checkRestoreKeeps(t, node, s.doc())
	s.mustEdit(func(tx *Txn) error {
		if err := tx.FrameRemove([]string{"c"}, ""); err != nil {
			return err
		}
		if _, _, err := tx.UngroupElements([]string{"a"}, ""); err != nil {
			return err
		}
		if err := tx.Reorder([]string{"c", "n"}, ToBackward, "", ""); err != nil {
			return err
		}
		return tx.Arrange([]string{"a", "b", "c"}, Arrangement{Align: "middle", Distribute: "horizontal"}, "")
	})
	checkRestoreKeeps(t, node, s.doc())
}

// Random sequences of the layer edits on a small scene (with a group and
// a frame to start from) keep it valid: no validation error, indices
// valid and in array order, frames below their children, labels right
// above their containers; and a Txn of several edits steps each element
// at most once.
func TestLayerEditsKeepScenesValid(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	applied := map[string]int{} // edits in Txns that were stored, by kind
	for seq := range 200 {
		s := newStored(t)
		s.rand = rand.New(rand.NewPCG(uint64(seq), 1))
		s.create(
			`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Alpha"}}`,
			`{"type":"ellipse","id":"b","x":300,"y":0,"width":120,"height":80,"label":{"text":"Beta"}}`,
			`{"type":"diamond","id":"c","x":0,"y":300,"width":120,"height":120}`,
			`{"type":"text","id":"t","x":300,"y":300,"text":"free text"}`,
			`{"type":"rectangle","id":"d","x":600,"y":200,"width":80,"height":60,"angle":0.4}`,
			`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"to"}}`,
			`{"type":"arrow","id":"cd","startElementId":"c","endElementId":"d"}`,
			`{"type":"arrow","id":"loose","x":130,"y":200,"points":[[0,0],[160,90]]}`)
		s.mustEdit(func(tx *Txn) error {
			if _, err := tx.Group([]string{"a", "t"}, ""); err != nil {
				return err
			}
			_, err := tx.CreateFrame("f0", nil, []string{"c", "d"}, 0, "")
			return err
		})
		var log []string
		for step := range 6 {
			before := s.doc()
			var edits []func(*Txn) error
			var kinds []string
			for range 1 + r.IntN(3) {
				op, edit := randomLayerEdit(r, before)
				log = append(log, op)
				kinds = append(kinds, strings.Fields(op)[0])
				edits = append(edits, edit)
			}
			_, err := s.edit(func(tx *Txn) error {
				for _, edit := range edits {
					if err := edit(tx); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil && !isRequestError(err) {
				t.Fatalf("sequence %d step %d %v: %v", seq, step, log, err)
			}
			what := fmt.Sprint(seq, log)
			after := s.doc()
			checkLayers(t, after, what)
			if err == nil {
				for _, k := range kinds {
					applied[k]++
				}
				was := versions(before)
				for id, v := range versions(after) {
					if w, ok := was[id]; ok && v != w && v != w+1 {
						t.Fatalf("%s: %s went from version %g to %g in one Txn", what, id, w, v)
					}
				}
			}
		}
	}
	for _, k := range []string{"group", "ungroup", "reorder", "frame", "arrange", "repair"} {
		if applied[k] < 50 {
			t.Errorf("only %d %s edits were stored: the random edits test too little (%v)", applied[k], k, applied)
		}
	}
}

// randomLayerEdit draws one edit of the live elements of doc.
func randomLayerEdit(r *rand.Rand, doc *scene.Document) (string, func(*Txn) error) {
	var live, groups, frames []string
	for _, el := range doc.Elements() {
		if scene.IsDeleted(el) {
			continue
		}
		live = append(live, scene.StringOf(el, "id"))
		for _, g := range stringsOf(el, "groupIds") {
			if !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
		}
		if isFrameType(scene.StringOf(el, "type")) {
			frames = append(frames, scene.StringOf(el, "id"))
		}
	}
	pick := func() []string {
		n := 1 + r.IntN(3)
		out := make([]string, n)
		for i := range out {
			out[i] = live[r.IntN(len(live))]
		}
		return out
	}
	one := func(list []string) string {
		if len(list) == 0 {
			return "none"
		}
		return list[r.IntN(len(list))]
	}
	ids := pick()
	switch k := r.IntN(9); k {
	case 0:
		return fmt.Sprint("group ", ids), func(tx *Txn) error { _, err := tx.Group(ids, ""); return err }
	case 1:
		g := one(groups)
		return "ungroup " + g, func(tx *Txn) error { _, err := tx.Ungroup(g, ""); return err }
	case 2:
		return fmt.Sprint("ungroup elements ", ids), func(tx *Txn) error { _, _, err := tx.UngroupElements(ids, ""); return err }
	case 3:
		to := reorderTargets[r.IntN(len(reorderTargets))]
		rel := ""
		if to == ToBefore || to == ToAfter {
			rel = one(live)
		}
		return fmt.Sprint("reorder ", ids, to, rel), func(tx *Txn) error { return tx.Reorder(ids, to, rel, "") }
	case 4:
		var box *Box
		if r.IntN(2) == 0 {
			box = &Box{X: r.Float64() * 500, Y: r.Float64() * 500, Width: 50 + r.Float64()*500, Height: 50 + r.Float64()*500}
		}
		return fmt.Sprint("frame ", ids), func(tx *Txn) error { _, err := tx.CreateFrame("f", box, ids, 0, ""); return err }
	case 5:
		f := one(frames)
		return fmt.Sprint("frame add ", f, ids), func(tx *Txn) error { return tx.FrameAdd(f, ids, "") }
	case 6:
		return fmt.Sprint("frame remove ", ids), func(tx *Txn) error { return tx.FrameRemove(ids, "") }
	case 7:
		a := Arrangement{Layout: []string{"grid", "row", "column", ""}[r.IntN(4)]}
		if a.Layout == "" {
			a.Align = slices.Concat(alignsX, alignsY)[r.IntN(6)]
			a.Distribute = []string{"", "horizontal", "vertical"}[r.IntN(3)]
		}
		return fmt.Sprint("arrange ", ids, a), func(tx *Txn) error { return tx.Arrange(ids, a, "") }
	}
	return "repair", func(tx *Txn) error { _, err := tx.Repair(); return err }
}

// isRequestError reports whether err is what a bad request gets (the
// random edits make many), not a failure.
func isRequestError(err error) bool {
	var se *sceneerr.Error
	return errors.As(err, &se) && (se.Code == sceneerr.InvalidOperation || se.Code == sceneerr.NotFound)
}

// checkLayers fails on what no edit may leave: validation errors,
// indices not valid or not in array order, a child below its frame, a
// label not right above its container.
func checkLayers(t *testing.T, doc *scene.Document, what string) {
	t.Helper()
	if errs := scene.Validate(doc, limits).Errors(); len(errs) > 0 {
		t.Fatalf("%s: %v", what, errs)
	}
	checkIndices(t, doc)
	els := doc.Elements()
	pos := map[string]int{}
	for i, el := range els {
		pos[scene.StringOf(el, "id")] = i
	}
	for i, el := range els {
		if scene.IsDeleted(el) {
			continue
		}
		if f := scene.StringOf(el, "frameId"); f != "" && pos[f] > i {
			t.Fatalf("%s: %s is below its frame %s: %v", what, scene.StringOf(el, "id"), f, liveIDs(doc))
		}
		if c := scene.StringOf(el, "containerId"); c != "" && pos[c] != i-1 {
			t.Fatalf("%s: label %s is not right above %s: %v", what, scene.StringOf(el, "id"), c, liveIDs(doc))
		}
	}
}
