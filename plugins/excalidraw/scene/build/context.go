package build

import (
	"math/rand/v2"
	"time"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Context is what Build needs to know about the scene the new elements go
// into, plus the sources of randomness and time, which callers pin in
// tests so that output is reproducible.
type Context struct {
	// Existing are the scene's current elements, in array order. They are
	// binding targets, reserve their ids, and fix where the new elements'
	// fractional indices start (after the last one).
	Existing []*ojson.Object
	// FileIDs are the files present in the scene; an image must name one.
	FileIDs map[string]bool
	// Rand draws ids, seeds and nonces. Nil means a randomly seeded source.
	Rand *rand.Rand
	// Now stamps `updated`. Nil means time.Now.
	Now func() time.Time
	// MaxTextLength bounds a text or label, in characters. Zero means no
	// limit.
	MaxTextLength int
	// ByID, when set, is the index of Existing the caller keeps (the
	// first element with each id, as scene.Document.IDMap gives), and
	// LastIndex the greatest valid fractional index among them
	// (scene.Document.LastIndex): Build then reads no element it does not
	// name instead of indexing them all. Build does not change ByID.
	ByID      *model.IDMap
	LastIndex string
}

// Result holds what Build made.
type Result struct {
	// Elements are the new elements in input order; a label's text element
	// follows its container.
	Elements []*ojson.Object
	// Updated are modified copies of existing elements (a bind target
	// gaining an entry in boundElements). The originals are not touched.
	Updated []*ojson.Object
	// IDs are the ids of the input elements, in input order (labels
	// excluded).
	IDs []string
}

// random returns the context's source, or a fresh randomly seeded one.
func (c Context) random() *rand.Rand {
	if c.Rand != nil {
		return c.Rand
	}
	return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
}

// nowMillis is `updated`: milliseconds since the Unix epoch, as
// JavaScript's Date.now() gives.
func (c Context) nowMillis() int64 {
	if c.Now != nil {
		return c.Now().UnixMilli()
	}
	return time.Now().UnixMilli()
}
