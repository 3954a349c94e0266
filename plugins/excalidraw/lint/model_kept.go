package lint

import (
	"maps"
	"sync"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Model is one version of a scene read for Delta, to keep with elements
// that do not change (a sealed document's): the next write's Delta then
// reads the version before it from the model, its spatial index built,
// instead of reading every element again. The version after is read
// from the one before: an element's parsed record is shared by every
// version holding it (a scene adds only what depends on the others:
// position, drawing order, label, drawn box), and a version with the
// same ids at the same positions shares the one before's id index and,
// where its edits leave them alone, its reference index and whole-scene
// findings (keptWhile), so a write's lint costs about what it touched.
// The caller must not change the elements while the model is in use. A Delta that finds the model in use
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
// (newScene), and p what a new read of the model may take again of it.
func (m *Model) take(prev *scene, p prior) (*scene, func()) {
	if !m.mu.TryLock() {
		return newScene(m.elements, m.opts, prev), func() {}
	}
	if m.s == nil {
		m.s = newScene(m.elements, m.opts, prev)
		m.s.kept, m.s.prior = map[string][]Finding{}, p
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
	touched := make(map[string]bool, len(changed))
	for _, id := range changed {
		touched[id] = true
	}
	// The two versions are read, scoped and linted side by side, the one
	// before on a goroutine of its own (one for the three steps: a new
	// goroutine's stack grows anew), meeting where a step needs the
	// other's: the version after is read from the one before
	// (newScene's prev) once that is read, and takes its spatial index
	// from the one before's (scene.spatialFrom) once that is built; the
	// scope is the union of both versions' neighbours. They share
	// nothing else but the scope and touched, which both only read.
	var was, now *scene
	var scope map[string]bool
	var found, finds []Finding
	var p prior
	read, indexed, scoped, merged, done := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var giveBack func()
		was, giveBack = before.take(nil, prior{})
		defer giveBack()
		// What the model before had kept so far: its own run adds to
		// kept while the version after is read.
		p = prior{kept: maps.Clone(was.kept), refs: was.refs}
		close(read)
		was.spatial()
		close(indexed)
		if !all {
			scope = was.neighbours(changed)
		}
		close(scoped)
		<-merged
		was.opts.Touched = touched
		if !all {
			was.scope(scope)
		}
		found = was.run()
	}()
	<-read
	now, giveBack := after.take(was, p)
	defer giveBack()
	<-indexed
	now.spatialFrom(was)
	var near map[string]bool
	if !all {
		near = now.neighbours(changed)
	}
	<-scoped
	for id := range near {
		scope[id] = true
	}
	close(merged)
	now.opts.Touched = touched
	if !all {
		now.scope(scope)
	}
	finds = now.run()
	<-done
	return Diff(found, finds)
}
