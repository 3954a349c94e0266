package scene

import (
	"iter"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// IDMap finds a document's elements by id (the first element with each
// id, as IDIndex does). On a fork it reads the sealed base's index
// through and keeps apart only the entries that differ (owned, added,
// moved elements, and what its owner sets or deletes since), so that
// making one costs what the fork changed, not what the scene holds. The
// base's index is shared and never written. The zero value is an empty
// map. It is not safe for concurrent writes.
type IDMap struct {
	// The base index, read only: by element (base), or a sealed
	// document's by position (enc).
	base map[string]*ojson.Object
	enc  *encoding
	over map[string]*ojson.Object // entries set since; nil: deleted
}

// NewIDMap is an IDMap holding m's entries, which it reads and does not
// change.
func NewIDMap(m map[string]*ojson.Object) *IDMap { return &IDMap{base: m} }

// Get returns the element with the id, nil if none.
func (m *IDMap) Get(id string) *ojson.Object {
	el, _ := m.Lookup(id)
	return el
}

// Lookup returns the element with the id and whether there is one.
func (m *IDMap) Lookup(id string) (*ojson.Object, bool) {
	if el, ok := m.over[id]; ok {
		return el, el != nil
	}
	return m.inBase(id)
}

// inBase is the base's entry for the id.
func (m *IDMap) inBase(id string) (*ojson.Object, bool) {
	if e := m.enc; e != nil {
		if j, ok := e.pos(id); ok && j < len(e.els) && e.els[j] != nil {
			return e.els[j], true
		}
		return nil, false
	}
	el, ok := m.base[id]
	return el, ok && el != nil
}

// Set makes el the element with the id (a nil el deletes the entry).
func (m *IDMap) Set(id string, el *ojson.Object) {
	if m.over == nil {
		m.over = map[string]*ojson.Object{}
	}
	m.over[id] = el
}

// Delete removes the id's entry.
func (m *IDMap) Delete(id string) {
	if _, inBase := m.inBase(id); !inBase {
		delete(m.over, id)
		return
	}
	m.Set(id, nil)
}

// All yields the entries, in no particular order.
func (m *IDMap) All() iter.Seq2[string, *ojson.Object] {
	return func(yield func(string, *ojson.Object) bool) {
		for id, el := range m.base {
			if _, changed := m.over[id]; changed || el == nil {
				continue
			}
			if !yield(id, el) {
				return
			}
		}
		if e := m.enc; e != nil {
			for id, j := range e.positions() {
				if _, changed := m.over[id]; changed || j >= len(e.els) || e.els[j] == nil {
					continue
				}
				if !yield(id, e.els[j]) {
					return
				}
			}
		}
		for id, el := range m.over {
			if el != nil && !yield(id, el) {
				return
			}
		}
	}
}

// IDMap is IDIndex as an IDMap: on a fork of a sealed document (and on
// the sealed document itself) it reads the base's index, built once for
// all its forks, and holds only the entries the fork changed.
func (d *Document) IDMap() *IDMap {
	if d.asSealed && d.enc != nil && len(d.enc.els) == len(d.elements) {
		return &IDMap{enc: d.enc}
	}
	dirty, ok := d.forkDirty()
	if !ok {
		return &IDMap{base: d.IDIndex()}
	}
	m := &IDMap{enc: d.enc}
	for _, i := range dirty {
		if i < len(d.enc.els) {
			if old := d.enc.info[i].id; old != "" && m.Get(old) == d.enc.els[i] {
				m.Delete(old)
			}
		}
	}
	for _, i := range dirty {
		el := d.elements[i]
		id, ok := el.String("id")
		if !ok {
			continue
		}
		if cur, ok := m.Lookup(id); ok && d.before(cur, i) {
			continue
		}
		m.Set(id, el)
	}
	return m
}

// LastIndex is the greatest valid fractional index among the elements,
// tombstones included ("" when none has one). A fork of a sealed document
// reads the base's (kept when it was sealed) and its own changed
// elements' instead of every element's.
func (d *Document) LastIndex() string {
	if e := d.enc; e != nil && e.lastPos < len(d.elements) && e.lastPos < len(e.els) && (e.lastPos < 0 || d.elements[e.lastPos] == e.els[e.lastPos]) {
		if dirty, ok := d.forkDirty(); ok {
			best := e.lastKey
			for _, i := range dirty {
				if k, ok := validIndex(d.elements[i]); ok && k > best {
					best = k
				}
			}
			return best
		}
	}
	best, _ := lastIndexOf(d.elements)
	return best
}

// lastIndexOf is the greatest valid index among els and the position of
// the first element holding it (-1 when none has one).
func lastIndexOf(els []*ojson.Object) (string, int) {
	best, at := "", -1
	for i, el := range els {
		if k, ok := validIndex(el); ok && k > best {
			best, at = k, i
		}
	}
	return best, at
}

// validIndex is el's index when it is a valid fractional index.
func validIndex(el *ojson.Object) (string, bool) {
	if el == nil {
		return "", false
	}
	k, ok := el.String("index")
	if !ok || findex.Validate(k) != nil {
		return "", false
	}
	return k, true
}

// inheritLastIndex records the greatest valid index of the elements e
// seals: the base's when the element holding it is still where it was,
// compared with those of the elements that are not the base's at their
// position; else read from every element.
func (e *encoding) inheritLastIndex(base *encoding) {
	if base != nil && base.lastPos < len(e.els) && base.lastPos < len(base.els) && (base.lastPos < 0 || e.els[base.lastPos] == base.els[base.lastPos]) {
		best, at := base.lastKey, base.lastPos
		for i, el := range e.els {
			if i < len(base.els) && base.els[i] == el {
				continue
			}
			if k, ok := validIndex(el); ok && k > best {
				best, at = k, i
			}
		}
		e.lastKey, e.lastPos = best, at
		return
	}
	e.lastKey, e.lastPos = lastIndexOf(e.els)
}
