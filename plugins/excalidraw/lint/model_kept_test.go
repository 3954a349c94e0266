package lint

import (
	"reflect"
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
	s, giveBack := m.take()
	s.scope(map[string]bool{"a": true})
	if len(s.run()) == 0 {
		t.Fatal("no overlap found")
	}
	index := s.index
	giveBack()
	again, giveBack := m.take()
	defer giveBack()
	if again != s || len(again.out) != 0 || again.near != nil || again.opts.Scope != nil || again.index != index || index == nil {
		t.Fatalf("taken again: same %v, %d findings, near %v, scope %v, index kept %v", again == s, len(again.out), again.near, again.opts.Scope, again.index == index)
	}
}
