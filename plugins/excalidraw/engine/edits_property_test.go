package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Random sequences of element-level edits (Create with refs and
// placements, Move, MoveTo, Copy, CopyOut and Paste, ReplaceText, mixed
// with Apply's updates and deletes) on small generated scenes leave, after
// every transaction, a scene without any validation diagnostic, with
// nothing for Normalize to repair, and one version step for exactly the
// elements that changed, which Touched lists (see stored.edit). A failing
// edit fails with a contract error, never otherwise.
func TestRandomEditsKeepSceneConsistent(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	var ok, failed int
	for seq := range n {
		s := newStored(t)
		o, f := randomSession(t, s, seq)
		ok, failed = ok+o, failed+f
		if t.Failed() {
			t.Fatalf("sequence %d failed", seq)
		}
	}
	if ok < 4*failed {
		t.Fatalf("%d edits committed, %d failed: the generator mostly makes failing edits", ok, failed)
	}
	t.Logf("%d transactions committed, %d refused", ok, failed)
}

// randomSession generates a scene on s and runs a sequence of random
// transactions on it (seeded by seq); it counts the committed and refused
// ones.
func randomSession(t *testing.T, s *stored, seq int) (ok, failed int) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(seq), 2024))
	randomScene(t, s, r)
	for step := range 8 {
		var log []string
		_, err := s.edit(func(tx *Txn) error {
			for range 1 + r.IntN(3) {
				what, err := randomEdit(tx, r)
				log = append(log, what)
				if err != nil {
					return err
				}
			}
			return nil
		})
		var se *sceneerr.Error
		switch {
		case err == nil:
			ok++
		case errors.As(err, &se):
			failed++
		default:
			t.Fatalf("sequence %d step %d: %v (%T) after %s", seq, step, err, err, strings.Join(log, "; "))
		}
		if t.Failed() {
			t.Logf("sequence %d step %d: %s", seq, step, strings.Join(log, "; "))
			return
		}
	}
	return ok, failed
}

// randomScene stores a frame and, on a grid (so that arrows between them
// can be routed), three to six shapes, some labelled, some in the frame,
// a free text, and arrows between some of them, some labelled.
func randomScene(t *testing.T, s *stored, r *rand.Rand) {
	t.Helper()
	s.save([]byte(`{"type":"excalidraw","version":2,"elements":[
	 {"type":"frame","id":"f","x":-50,"y":-50,"width":1500,"height":300,"name":"F"}]}`))
	types := []string{"rectangle", "ellipse", "diamond"}
	n := 3 + r.IntN(4)
	var ops []string
	for i := range n {
		el := fmt.Sprintf(`"type":%q,"id":"s%d","x":%d,"y":%d,"width":%d,"height":%d`,
			types[r.IntN(3)], i, i%3*500, i/3*400, 80+r.IntN(80), 50+r.IntN(60))
		if r.IntN(2) == 0 {
			el += fmt.Sprintf(`,"label":{"text":%q}`, words(r, 1+r.IntN(2)))
		}
		if i < 3 && r.IntN(2) == 0 {
			el += `,"frameId":"f"`
		}
		if r.IntN(3) == 0 {
			el += `,"groupIds":["g"]`
		}
		ops = append(ops, `{"op":"add","element":{`+el+`}}`)
	}
	ops = append(ops, fmt.Sprintf(`{"op":"add","element":{"type":"text","id":"t","x":0,"y":900,"text":%q}}`, words(r, 3)))
	for k := range 1 + r.IntN(3) {
		a, b := r.IntN(n), r.IntN(n)
		if a == b {
			continue
		}
		el := fmt.Sprintf(`"type":"arrow","id":"a%d","startElementId":"s%d","endElementId":"s%d"`, k, a, b)
		if r.IntN(2) == 0 {
			el += fmt.Sprintf(`,"label":{"text":%q}`, words(r, 1))
		}
		ops = append(ops, `{"op":"add","element":{`+el+`}}`)
	}
	if _, err := s.apply(ops...); err != nil {
		t.Fatalf("generated scene: %v\n%s", err, strings.Join(ops, "\n"))
	}
}

var vocabulary = strings.Fields("api queue order user store cache log auth billing search index worker event stream")

func words(r *rand.Rand, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(out, " ")
}

// randomEdit runs one random edit on tx and says what it was.
func randomEdit(tx *Txn, r *rand.Rand) (string, error) {
	live := liveOf(tx)
	pick := func(n int) []string {
		var out []string
		for range n {
			out = append(out, scene.StringOf(live[r.IntN(len(live))], "id"))
		}
		return out
	}
	shapes := func() []string {
		var out []string
		for _, el := range live {
			if bindable(scene.StringOf(el, "type")) && scene.StringOf(el, "containerId") == "" {
				out = append(out, scene.StringOf(el, "id"))
			}
		}
		return out
	}
	off := func() float64 { return float64(r.IntN(601) - 300) }
	switch k := r.IntN(8); k {
	case 0, 1:
		return randomCreate(tx, r, shapes())
	case 2, 3, 4:
		edit := []struct {
			name string
			run  func(ids []string, a, b float64) error
		}{
			{"Move", func(ids []string, a, b float64) error { _, err := tx.Move(ids, a, b, "/ids"); return err }},
			{"MoveTo", func(ids []string, a, b float64) error { _, err := tx.MoveTo(ids, a, b, "/ids"); return err }},
			{"Copy", func(ids []string, a, b float64) error { _, err := tx.Copy(ids, a, b, "/ids"); return err }},
		}[k-2]
		ids := pick(1 + r.IntN(3))
		a, b := off(), off()
		return fmt.Sprintf("%s(%v, %v, %v)", edit.name, ids, a, b), edit.run(ids, a, b)
	case 5:
		ids := pick(1 + r.IntN(2))
		clip, err := tx.CopyOut(ids, "/ids")
		if err != nil {
			return fmt.Sprintf("CopyOut(%v)", ids), err
		}
		_, err = tx.Paste(clip, off(), off(), "/offset")
		return fmt.Sprintf("CopyOut(%v)+Paste", ids), err
	case 6:
		var ids []string
		if r.IntN(2) == 0 {
			ids = pick(1 + r.IntN(3))
		}
		rep := Replacement{Find: string("aeiou"[r.IntN(5)]), Replace: words(r, 1+r.IntN(2)), Pointer: "/find"}
		if r.IntN(2) == 0 {
			rep = Replacement{Find: `(\w+) (\w+)`, Replace: "$2 $1", Regex: true, Pointer: "/find"}
		}
		_, err := tx.ReplaceText(ids, rep, "/ids")
		return fmt.Sprintf("ReplaceText(%v, %+v)", ids, rep), err
	default:
		id := pick(1)[0]
		op := fmt.Sprintf(`{"op":"update","id":%q,"patch":{"x":%v}}`, id, off())
		if r.IntN(2) == 0 {
			op = fmt.Sprintf(`{"op":"delete","id":%q}`, id)
		}
		ops, err := DecodeOps(raws(op))
		if err != nil {
			return op, err
		}
		return op, tx.Apply(ops)
	}
}

// randomCreate creates one to three elements: a shape placed next to a
// shape of the scene, sometimes a second placed next to the first by ref,
// and sometimes an arrow from a shape of the scene to the first.
func randomCreate(tx *Txn, r *rand.Rand, shapes []string) (string, error) {
	if len(shapes) == 0 {
		return "Create (nothing to place by)", nil
	}
	sides := []string{"rightOf", "leftOf", "below", "above"}
	aligns := []string{"start", "center", "end"}
	place := func(of string) string {
		return fmt.Sprintf(`{%q:%q,"gap":%d,"align":%q}`, sides[r.IntN(4)], of, 20+r.IntN(80), aligns[r.IntN(3)])
	}
	in := []string{fmt.Sprintf(`{"type":"rectangle","ref":"n1","place":%s,"label":{"text":%q}}`,
		place(shapes[r.IntN(len(shapes))]), words(r, 1+r.IntN(5)))}
	if r.IntN(2) == 0 {
		in = append(in, fmt.Sprintf(`{"type":"ellipse","ref":"n2","place":%s}`, place("n1")))
	}
	if r.IntN(2) == 0 {
		in = append(in, fmt.Sprintf(`{"type":"arrow","startElementId":%q,"endElementId":"n1"}`, shapes[r.IntN(len(shapes))]))
	}
	_, err := tx.Create(raws(in...), "/elements")
	return "Create(" + strings.Join(in, ", ") + ")", err
}

// liveOf lists the Txn's live elements.
func liveOf(tx *Txn) []*ojson.Object {
	var out []*ojson.Object
	for _, el := range tx.doc.Elements() {
		if !scene.IsDeleted(el) {
			out = append(out, el)
		}
	}
	return out
}

func bindable(t string) bool { return t == "rectangle" || t == "ellipse" || t == "diamond" }
