package lint

import (
	"sync"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Model is one version of a scene read for Delta, to keep with elements
// that do not change (a sealed document's): the next write's Delta then
// reads the version before it from the model, its spatial index built,
// instead of reading every element again. The caller must not change the
// elements while the model is in use. A Delta that finds the model in use
// by another reads the elements anew, so a Model is safe for concurrent
// use.
type Model struct {
	mu       sync.Mutex
	elements []*ojson.Object
	opts     Options
	s        *scene // nil until first used
}

// NewModel is the model of elements on a canvas of the given background
// colour ("" for white). It reads nothing until a Delta uses it.
func NewModel(elements []*ojson.Object, background string) *Model {
	return &Model{elements: elements, opts: Options{ViewBackgroundColor: background}}
}

// take returns a scene of the model for one Delta, with no findings and
// no scope, and the function that gives it back. prev, when not nil, is
// a scene of another version the model may share what is the same with
// (newScene).
func (m *Model) take(prev *scene) (*scene, func()) {
	if !m.mu.TryLock() {
		return newScene(m.elements, m.opts, prev), func() {}
	}
	if m.s == nil {
		m.s = newScene(m.elements, m.opts, prev)
		m.s.kept = map[string][]Finding{}
	}
	s := m.s
	s.out, s.near, s.visits = nil, nil, 0
	s.opts.Scope, s.opts.Touched = nil, nil
	return s, m.mu.Unlock
}

// DeltaModels is Delta on two models (see Model): before and after are
// the versions of the scene, changed the ids the write changed; all lints
// every element rather than what the write touched. Either way the
// near-miss hints are those of pairs with a changed element
// (Options.Touched).
func DeltaModels(before, after *Model, changed []string, all bool) (added, resolved, persisting []Finding) {
	var was, now *scene
	var scope, near map[string]bool
	var giveBack [2]func()
	defer func() {
		for _, g := range giveBack {
			if g != nil {
				g()
			}
		}
	}()
	// The two versions are read, and then linted, side by side: they
	// share nothing but the scope, which both only read.
	// The version after is read from the one before (newScene's prev)
	// once that is read, and takes its spatial index from the one
	// before's (scene.spatialFrom) once that is built.
	read, indexed := make(chan struct{}), make(chan struct{})
	sideBySide(func() {
		defer close(indexed)
		was, giveBack[0] = before.take(nil)
		close(read)
		was.spatial()
	}, func() {
		<-read
		now, giveBack[1] = after.take(was)
		<-indexed
		now.spatialFrom(was)
	})
	sideBySide(func() {
		if !all {
			scope = was.neighbours(changed)
		}
	}, func() {
		if !all {
			near = now.neighbours(changed)
		}
	})
	if !all {
		for id := range near {
			scope[id] = true
		}
	}
	touched := make(map[string]bool, len(changed))
	for _, id := range changed {
		touched[id] = true
	}
	was.opts.Touched, now.opts.Touched = touched, touched
	var found, finds []Finding
	sideBySide(func() {
		if !all {
			was.scope(scope)
		}
		found = was.run()
	}, func() {
		if !all {
			now.scope(scope)
		}
		finds = now.run()
	})
	return Diff(found, finds)
}
