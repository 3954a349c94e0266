package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A kept model answers as a fresh read does, write after write: on every
// corpus scene, a line of moves in which each version's model is the
// next write's model of what it starts from (as the service keeps them),
// with some Deltas run on one model at once.
func TestKeptModelsAreFreshReads(t *testing.T) {
	eachCorpusScene(t, 3, func(path string, cur []*ojson.Object) {
		for _, el := range cur {
			el.Freeze()
		}
		kept := NewModel(cur, "")
		for step := range 3 {
			next := make([]*ojson.Object, len(cur))
			copy(next, cur)
			i := (step*7 + 1) % len(next)
			moved := next[i].Clone()
			x, _ := cur[(i+1)%len(cur)].Number("x")
			moved.Set("x", x)
			moved.Freeze()
			next[i] = moved
			id, _ := moved.String("id")
			changed := []string{id}
			a1, r1, p1 := Delta(cur, next, changed, DeltaOptions{})
			nextModel := NewModel(next, "")
			var wg sync.WaitGroup
			for range 2 { // two Deltas on the same models at once
				wg.Go(func() {
					a2, r2, p2 := DeltaModels(kept, nextModel, changed, false)
					if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(p1, p2) {
						t.Errorf("%s step %d: the kept models' Delta differs from a fresh one", path, step)
					}
				})
			}
			wg.Wait()
			cur, kept = next, nextModel
		}
	})
}

// A model given back and taken again starts with no findings and no
// scope, its read and its spatial index kept.
func TestModelTakenAgainStartsClean(t *testing.T) {
	a := ojson.New().Set("id", "a").Set("type", "rectangle").Set("x", 0).Set("y", 0).Set("width", 100).Set("height", 100)
	b := a.Clone().Set("id", "b").Set("x", 10)
	m := NewModel([]*ojson.Object{a, b}, "")
	s, giveBack := m.take(nil, prior{})
	s.scope(map[string]bool{"a": true})
	if len(s.run()) == 0 {
		t.Fatal("no overlap found")
	}
	index := s.index
	giveBack()
	again, giveBack := m.take(nil, prior{})
	defer giveBack()
	if again != s || len(again.out) != 0 || again.near != nil || again.opts.Scope != nil || again.index != index || index == nil {
		t.Fatalf("taken again: same %v, %d findings, near %v, scope %v, index kept %v", again == s, len(again.out), again.near, again.opts.Scope, again.index == index)
	}
}

// A line of kept models answers as fresh reads do over random edits:
// on every corpus scene, edits that keep each position's id (a move, a
// resize, a new type, stroke colour, text, font, frame, container or
// bound elements, an index no longer valid: the next version's read shares
// the one before's id index and may take its whole-scene findings
// again) and edits that do not (a deletion, a swap, a removal, an added
// copy), each version's model the next write's model of what it starts
// from, linting the touched region or (every third step) every element.
func TestKeptModelsFollowRandomEdits(t *testing.T) {
	eachCorpusScene(t, 3, func(path string, cur []*ojson.Object) {
		for _, el := range cur {
			el.Freeze()
		}
		rng := rand.New(rand.NewPCG(uint64(len(path)), uint64(len(cur))))
		kept := NewModel(cur, "")
		for step := range 16 {
			next, changed := randomEdit(rng, cur)
			all := step%3 == 2
			a1, r1, p1 := Delta(cur, next, changed, DeltaOptions{All: all})
			nextModel := NewModel(next, "")
			a2, r2, p2 := DeltaModels(kept, nextModel, changed, all)
			if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(p1, p2) {
				t.Fatalf("%s step %d (changed %v, all %v): the kept models' Delta differs from a fresh one:\nadded %v\nwant  %v\nresolved %v\nwant     %v\npersisting %v\nwant       %v",
					path, step, changed, all, a2, a1, r2, r1, p2, p1)
			}
			cur, kept = next, nextModel
		}
	})
}

// randomEdit is a copy of cur with one random edit, its elements
// frozen, and the ids the edit changed.
func randomEdit(rng *rand.Rand, cur []*ojson.Object) ([]*ojson.Object, []string) {
	next := slices.Clone(cur)
	i, j := rng.IntN(len(next)), rng.IntN(len(next))
	id, _ := next[i].String("id")
	other, _ := next[j].String("id")
	edited := func(fn func(o *ojson.Object)) {
		o := next[i].Clone()
		fn(o)
		o.Freeze()
		next[i] = o
	}
	switch rng.IntN(15) {
	case 0: // onto another element
		x, _ := next[j].Number("x")
		y, _ := next[j].Number("y")
		edited(func(o *ojson.Object) { o.Set("x", x+rng.Float64()*20).Set("y", y) })
	case 1:
		edited(func(o *ojson.Object) { o.Set("width", rng.Float64()*200).Set("height", float64(rng.IntN(2))*50) })
	case 2:
		colors := []string{"#e03131", "#2f9e44", "#1971c2", "#f08c00", "#9c36b5", "#0c8599", "#000000"}
		edited(func(o *ojson.Object) { o.Set("strokeColor", colors[rng.IntN(len(colors))]) })
	case 3:
		edited(func(o *ojson.Object) { o.Set("text", "edited\ntext").Set("originalText", "edited\ntext") })
	case 4:
		edited(func(o *ojson.Object) { o.Set("index", "not an index") })
	case 5:
		deleted, _ := next[i].Bool("isDeleted")
		edited(func(o *ojson.Object) { o.Set("isDeleted", !deleted) })
	case 6:
		next[i], next[j] = next[j], next[i]
		return next, []string{id, other}
	case 7:
		return slices.Delete(next, i, i+1), []string{id}
	case 9:
		edited(func(o *ojson.Object) { o.Set("frameId", other) })
	case 10: // a text, when there is one, into another element
		for k := range next {
			if t, _ := next[(i+k)%len(next)].String("type"); t == "text" {
				i = (i + k) % len(next)
				break
			}
		}
		id, _ = next[i].String("id")
		edited(func(o *ojson.Object) { o.Set("containerId", other) })
	case 11:
		edited(func(o *ojson.Object) { o.Set("boundElements", []any{}) })
	case 12:
		edited(func(o *ojson.Object) { o.Set("fontFamily", float64(1+rng.IntN(3))) })
	case 13:
		edited(func(o *ojson.Object) { o.Set("type", "ellipse") })
	default: // a copy beside another element, under a new id
		c := next[j].Clone()
		x, _ := c.Number("x")
		c.Set("id", fmt.Sprintf("copy-%d", rng.Uint32())).Set("x", x+5)
		c.Freeze()
		id, _ = c.String("id")
		next = slices.Insert(next, i, c)
	}
	return next, []string{id}
}
