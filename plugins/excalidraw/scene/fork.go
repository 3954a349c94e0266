package scene

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A write changes a few elements of a scene that may hold thousands, so
// the work of a write should follow what changed. The finished document
// of one write (normalized, validated, encoded) is sealed: its elements
// are frozen (ojson.Object.Freeze) and their encoded bytes remembered.
// The next write forks it: the fork shares the frozen elements and owns
// only those it copies (Own) before changing them. Because a frozen
// element is one a sealed document held,
//
//   - Marshal writes it as the bytes it was encoded to, without encoding
//     it again;
//   - Normalize does not restore it again (it is a fixed point of restore
//     on its own), and Validate does not check its own fields again under
//     the limits it was sealed with; what it shares with other elements
//     (ids, indices, bindings, containers, frames, files) is checked as
//     always, since an owned neighbour can change it.
//
// A write that reaches a frozen element panics (ojson.FrozenError): the
// caller starts over from a private copy (Clone), so nothing shared is
// ever changed, and a missed Own costs time, never a wrong scene.

// encoding is what a sealed document's elements were encoded to.
type encoding struct {
	gen, parent uint64 // see Lineage
	split       *Split // the sealed document's: its elements' bytes
	els         []*ojson.Object
	limits      Limits     // the limits the document was validated under
	info        []elemInfo // what validators read of each element
	once        sync.Once  // builds byPtr; forks may marshal at once
	byPtr       map[*ojson.Object]int
	idOnce      sync.Once // builds chain, unless Seal inherited it
	chain       *idPositions
	flatOnce    sync.Once // builds flat
	flat        map[string]int
	ptrOnce     sync.Once // builds ptrs
	ptrs        map[string]*ojson.Object
	kept        sync.Map // Kept's values, by key
	// lastKey is the greatest valid index among els, lastPos where
	// (-1: none has one): see LastIndex.
	lastKey string
	lastPos int
}

// Seal freezes the document's elements and remembers their bytes in sp,
// the split of the document as encoded now (MarshalSplit), so that forks
// of it reuse them. The caller vouches that the document is what a write
// leaves: a fixed point of Normalize, without errors under lim. A nil sp
// (elements that are not objects) seals nothing.
func (d *Document) Seal(sp *Split, lim Limits) {
	if sp == nil || len(sp.Elements) != len(d.elements) {
		return
	}
	// The split kept is without its own Base, so that a chain of writes
	// keeps one generation of bytes alive, not all of them.
	own := &Split{Elements: sp.Elements, Members: sp.Members}
	enc := &encoding{gen: sealGen.Add(1), split: own, els: make([]*ojson.Object, len(d.elements)),
		info: make([]elemInfo, len(d.elements)), limits: lim.Effective()}
	base := d.enc
	for i, el := range d.elements {
		el.Freeze()
		enc.els[i] = el
		if j := fromOf(sp, i); base != nil && j >= 0 && j < len(base.info) && base.info[j].el == el {
			enc.info[i] = base.info[j]
			enc.info[i].pos = i
		} else {
			enc.info[i] = sealInfo(i, el)
		}
	}
	enc.inheritPositions(base, sp)
	enc.inheritLastIndex(base)
	enc.inheritMatches(base)
	d.asSealed = true
	d.readBytes = sp.size() // the hint for its forks' Marshal
	if base != nil {
		enc.parent = base.gen
	}
	d.enc = enc
}

// sealGen numbers seals.
var sealGen atomic.Uint64

// Lineage identifies a sealed document (gen) and the sealed document it
// was forked from (parent, 0 if none), so that a cache can drop the
// generations a line of writes has left behind. Zero for a document
// never sealed.
func (d *Document) Lineage() (gen, parent uint64) {
	if d == nil || d.enc == nil {
		return 0, 0
	}
	return d.enc.gen, d.enc.parent
}

// inheritPositions gives e the id index of its base with the changes of
// the fork it seals (the base's index and a map of the changes, not a
// copy), when the fork kept every shared element at its position;
// otherwise e builds its own on first need.
func (e *encoding) inheritPositions(base *encoding, sp *Split) {
	if base == nil || len(e.info) < len(base.info) {
		return
	}
	for i := range base.info {
		if j := fromOf(sp, i); j >= 0 && j != i {
			return // moved
		}
	}
	parent := base.index()
	changes := map[string]int{}
	get := func(id string) (int, bool) {
		if j, ok := changes[id]; ok {
			return j, j >= 0
		}
		return parent.get(id)
	}
	for i := range e.info {
		if fromOf(sp, i) == i || i >= len(base.info) {
			continue
		}
		if old := base.info[i].id; old != "" {
			if j, ok := get(old); ok && j == i {
				changes[old] = -1
			}
		}
	}
	for i, in := range e.info {
		if fromOf(sp, i) == i || in.id == "" {
			continue
		}
		if j, ok := get(in.id); !ok || j > i {
			changes[in.id] = i
		}
	}
	e.chain = parent.with(changes, len(e.info))
	e.idOnce.Do(func() {})
}

// Sealed reports whether the document is one Seal sealed, unchanged
// since (and so can be forked cheaply). A fork is not, until sealed.
func (d *Document) Sealed() bool { return d.asSealed }

// Fork returns a document equal to d that shares d's frozen elements:
// its own element slice, members, appState and files, and the elements
// it Owns. d must be sealed; an unsealed d (a fork among them, whose
// owned elements are not frozen) is cloned.
func (d *Document) Fork() *Document {
	if !d.asSealed {
		return d.Clone()
	}
	return &Document{members: d.members.Clone(), elements: append([]*ojson.Object(nil), d.elements...),
		appState: d.appState.Clone(), files: d.files.Clone(), readBytes: d.readBytes, enc: d.enc}
}

// Own returns element i for writing: a frozen element is replaced by a
// private copy first.
func (d *Document) Own(i int) *ojson.Object {
	d.asSealed = false
	el := d.elements[i]
	if el.Frozen() {
		el = el.Clone()
		d.elements[i] = el
	}
	return el
}

// sealedUnder reports whether el is a frozen element of a sealed
// document validated under lim, whose own fields need no check again.
func (d *Document) sealedUnder(el *ojson.Object, lim Limits) bool {
	return d.enc != nil && el.Frozen() && d.enc.limits == lim
}

// lookup returns how Marshal finds the remembered bytes of a frozen
// element at position i, and their position in the sealed document: by
// position while the elements are where they were sealed, by identity
// (a map built on first need) once they moved.
func (e *encoding) lookup() func(i int, el *ojson.Object) ([]byte, int) {
	if e == nil {
		return func(int, *ojson.Object) ([]byte, int) { return nil, -1 }
	}
	return func(i int, el *ojson.Object) ([]byte, int) {
		if !el.Frozen() {
			return nil, -1
		}
		if i < len(e.els) && e.els[i] == el {
			return e.split.Elements[i].Raw, i
		}
		e.once.Do(func() {
			e.byPtr = make(map[*ojson.Object]int, len(e.els))
			for j, x := range e.els {
				e.byPtr[x] = j
			}
		})
		if j, ok := e.byPtr[el]; ok {
			return e.split.Elements[j].Raw, j
		}
		return nil, -1
	}
}

// OwnRelated owns, in a fork, the elements with the given ids and those
// a change to them usually reaches: what they name (boundElements
// entries, containerId, start and end bindings, frameId) two references
// deep, so that an arrow's label follows the arrow, and the children of
// a frame and the members of a group among them. It is a guess that
// spares most writes a retry (see fork.go), not a promise.
func (d *Document) OwnRelated(ids []string) {
	if d.enc == nil || len(ids) == 0 {
		return
	}
	seen := map[string]bool{}
	frames, groups := map[string]bool{}, map[string]bool{}
	frontier := ids
	for hop := 0; hop <= 2 && len(frontier) > 0; hop++ {
		var next []string
		for _, id := range frontier {
			i, ok := d.enc.pos(id)
			if !ok || seen[id] || i >= len(d.elements) || d.elements[i] != d.enc.els[i] {
				continue // not the base's, or moved: a retry finds it if needed
			}
			seen[id] = true
			el := d.Own(i)
			next = appendRefs(next, el)
			if isFrame(elementType(el)) {
				frames[id] = true
			}
			if gs, ok := el.Array("groupIds"); ok {
				for _, g := range gs {
					if s, ok := g.(string); ok {
						groups[s] = true
					}
				}
			}
		}
		frontier = next
	}
	if len(frames) == 0 && len(groups) == 0 {
		return
	}
	for i, el := range d.elements {
		if el == nil || !el.Frozen() {
			continue
		}
		if f, ok := el.String("frameId"); ok && frames[f] {
			d.Own(i)
			continue
		}
		if gs, ok := el.Array("groupIds"); ok {
			for _, g := range gs {
				if s, ok := g.(string); ok && groups[s] {
					d.Own(i)
					break
				}
			}
		}
	}
}

// appendRefs appends the ids el names: its boundElements entries,
// containerId, the elements its bindings name, and its frame.
func appendRefs(out []string, el *ojson.Object) []string {
	if list, ok := el.Array("boundElements"); ok {
		for _, e := range list {
			if o, ok := e.(*ojson.Object); ok {
				if id, ok := o.String("id"); ok {
					out = append(out, id)
				}
			}
		}
	}
	for _, k := range []string{"containerId", "frameId"} {
		if id, ok := el.String(k); ok {
			out = append(out, id)
		}
	}
	for _, k := range []string{"startBinding", "endBinding"} {
		if b, ok := el.Object(k); ok {
			if id, ok := b.String("elementId"); ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// forkDirty lists the positions of a fork's elements that are not the
// sealed base's at the same position (owned, added, moved), in order.
// ok is false when a check must cover every element instead: d is not a
// fork, or lost elements, or holds an element that is not an object, or
// changed more than a quarter of them.
func (d *Document) forkDirty() (dirty []int, ok bool) {
	e := d.enc
	if e == nil || len(d.elements) < len(e.els) {
		return nil, false
	}
	for i, el := range d.elements {
		if el == nil {
			return nil, false
		}
		if i >= len(e.els) || e.els[i] != el {
			dirty = append(dirty, i)
		}
	}
	if len(dirty) > len(d.elements)/4+8 {
		return nil, false
	}
	return dirty, true
}

// sealedAt is the base's element at position i, nil past its end.
func (d *Document) sealedAt(i int) *ojson.Object {
	if d.enc == nil || i >= len(d.enc.els) {
		return nil
	}
	return d.enc.els[i]
}

// fromOf is sp.From[i], or -1.
func fromOf(sp *Split, i int) int {
	if i < len(sp.From) {
		return sp.From[i]
	}
	return -1
}

// sealedInfo is the validator's record of element i of a fork when the
// element is the sealed base's at the same position.
func (d *Document) sealedInfo(i int, el *ojson.Object) (elemInfo, bool) {
	if e := d.enc; e != nil && i < len(e.els) && e.els[i] == el && i < len(e.info) {
		return e.info[i], true
	}
	return elemInfo{}, false
}

// index maps the sealed elements' ids to their positions (the first
// with each id), built once for all the forks of the document, or
// inherited from its base when it was sealed (inheritPositions).
func (e *encoding) index() *idPositions {
	e.idOnce.Do(func() {
		ids := make(map[string]int, len(e.info))
		for i, in := range e.info {
			if _, dup := ids[in.id]; in.id != "" && !dup {
				ids[in.id] = i
			}
		}
		e.chain = &idPositions{m: ids}
	})
	return e.chain
}

// pos is the position of the first sealed element with the id.
func (e *encoding) pos(id string) (int, bool) { return e.index().get(id) }

// positions is index as one map, made on first need (to list it).
func (e *encoding) positions() map[string]int {
	e.flatOnce.Do(func() { e.flat = e.index().flatten() })
	return e.flat
}

// idPositions maps ids to positions as a chain: a sealed document's is
// its base's with the changes of the fork it sealed (m; -1: no element
// has the id any more), so that sealing costs what the fork changed.
// A chain longer than maxChain, or changes many, are made one map again.
type idPositions struct {
	parent *idPositions
	m      map[string]int
	depth  int
}

const maxChain = 16

func (p *idPositions) get(id string) (int, bool) {
	for q := p; q != nil; q = q.parent {
		if j, ok := q.m[id]; ok {
			return j, j >= 0
		}
	}
	return 0, false
}

// with is p changed by changes, for a document of n elements.
func (p *idPositions) with(changes map[string]int, n int) *idPositions {
	next := &idPositions{parent: p, m: changes, depth: p.depth + 1}
	if next.depth > maxChain || len(changes) > n/16+16 {
		return &idPositions{m: next.flatten()}
	}
	return next
}

// flatten is the chain as one new map.
func (p *idPositions) flatten() map[string]int {
	var chain []*idPositions
	for q := p; q != nil; q = q.parent {
		chain = append(chain, q)
	}
	root := chain[len(chain)-1]
	out := make(map[string]int, len(root.m))
	for k := len(chain) - 1; k >= 0; k-- {
		for id, j := range chain[k].m {
			if j < 0 {
				delete(out, id)
			} else {
				out[id] = j
			}
		}
	}
	return out
}

// Select returns the elements whose ids are keys of ids, in array order,
// and how many elements are deleted tombstones. A sealed document
// answers from what it recorded when it was sealed, without reading its
// elements.
func (d *Document) Select(ids map[string]bool) (els []*ojson.Object, deleted int) {
	if e := d.enc; e != nil && len(e.info) == len(d.elements) {
		for i, in := range e.info {
			if in.el != d.elements[i] {
				return d.selectSlow(ids)
			}
			if in.deleted {
				deleted++
			} else if ids[in.id] {
				els = append(els, in.el)
			}
		}
		return els, deleted
	}
	return d.selectSlow(ids)
}

func (d *Document) selectSlow(ids map[string]bool) (els []*ojson.Object, deleted int) {
	for _, el := range d.elements {
		if el == nil {
			continue
		}
		if IsDeleted(el) {
			deleted++
		} else if ids[elementID(el)] {
			els = append(els, el)
		}
	}
	return els, deleted
}

// sealInfo is infoOf with visible, for the record Seal keeps.
func sealInfo(i int, el *ojson.Object) elemInfo {
	in, _ := readElement(i, el)
	in.visible = el != nil && restorableTypes[in.typ] && !invisiblySmall(el)
	return in
}

// forkIndex finds a fork's elements by id without indexing them all: a
// dirty element by its own id, a shared one through the sealed base's
// index (positions, built once per sealed document). dupes are the pairs
// of positions (first, later) whose elements have one id, a dirty
// element among them, counting only the elements keep admits (nil: all).
func (d *Document) forkIndex(dirty []int, keep func(i int) bool) (lookup func(id string) (int, bool), dupes [][2]int) {
	if keep == nil {
		keep = func(int) bool { return true }
	}
	isDirty := make(map[int]bool, len(dirty))
	for _, i := range dirty {
		isDirty[i] = true
	}
	dirtyIDs := make(map[string]int, len(dirty))
	for _, i := range dirty {
		id := elementID(d.elements[i])
		if id == "" || !keep(i) {
			continue
		}
		if j, dup := dirtyIDs[id]; dup {
			dupes = append(dupes, [2]int{j, i})
			continue
		}
		if j, ok := d.enc.pos(id); ok && j != i && j < len(d.elements) && !isDirty[j] && keep(j) {
			dupes = append(dupes, [2]int{min(i, j), max(i, j)})
			if j < i {
				continue
			}
		}
		dirtyIDs[id] = i
	}
	return func(id string) (int, bool) {
		if i, ok := dirtyIDs[id]; ok {
			return i, true
		}
		if j, ok := d.enc.pos(id); ok && j < len(d.elements) && !isDirty[j] {
			return j, true
		}
		return 0, false
	}, dupes
}

// scopedIDs is an id index of what the elements at cand are and name,
// found through lookup and kept where keep admits (nil: all): all that
// checks visiting only cand look up.
func (d *Document) scopedIDs(cand []int, lookup func(id string) (int, bool), keep func(int) bool) map[string]int {
	byID := make(map[string]int, 4*len(cand))
	put := func(id string) {
		if j, ok := lookup(id); ok && (keep == nil || keep(j)) {
			byID[id] = j
		}
	}
	for _, i := range cand {
		if id := elementID(d.elements[i]); id != "" {
			put(id)
		}
		for _, id := range appendRefs(nil, d.elements[i]) {
			put(id)
		}
	}
	return byID
}

// Kept returns build's value for the document, made once and kept with
// it while the document is the one Seal sealed (unchanged since): what a
// reader works out from elements that cannot change (lint's model of
// them, say) need not be worked out again by the next reader. key tells
// one kind of value from another. Any other document runs build every
// time. The value is shared: read only, or safe for concurrent use.
func (d *Document) Kept(key any, build func() any) any {
	if !d.asSealed || d.enc == nil || len(d.enc.els) != len(d.elements) {
		return build()
	}
	if v, ok := d.enc.kept.Load(key); ok {
		return v
	}
	v, _ := d.enc.kept.LoadOrStore(key, build())
	return v
}

// ByID is IDIndex to read, not to change: the document sealed (and
// unchanged since, as sealed documents are) answers with the index it
// keeps, without building one. Ids are the first element with each.
func (d *Document) ByID() map[string]*ojson.Object {
	if d.asSealed && d.enc != nil && len(d.enc.els) == len(d.elements) {
		return d.enc.pointers()
	}
	return d.IDIndex()
}

// IDIndex maps the ids of the elements (string ids, "" included, the
// first element with each) to the elements: a new map, the caller's. A fork copies the
// sealed base's index and corrects it where it differs (owned, added or
// moved elements) instead of reading every element's id.
func (d *Document) IDIndex() map[string]*ojson.Object {
	if dirty, ok := d.forkDirty(); ok {
		base := d.enc.pointers()
		m := maps.Clone(base)
		for _, i := range dirty {
			if i < len(d.enc.els) {
				if old := d.enc.info[i].id; old != "" && m[old] == d.enc.els[i] {
					delete(m, old)
				}
			}
		}
		for _, i := range dirty {
			el := d.elements[i]
			id, ok := el.String("id")
			if !ok {
				continue
			}
			if cur, ok := m[id]; ok && d.before(cur, i) {
				continue
			}
			m[id] = el
		}
		return m
	}
	m := make(map[string]*ojson.Object, len(d.elements))
	for _, el := range d.elements {
		if el == nil {
			continue
		}
		if id, ok := el.String("id"); ok {
			if _, dup := m[id]; !dup {
				m[id] = el
			}
		}
	}
	return m
}

// before reports whether el sits before position i in a fork: a shared
// element at its sealed position, or a dirty one found by a scan.
func (d *Document) before(el *ojson.Object, i int) bool {
	if j, ok := d.enc.ptrPos(el); ok && j < len(d.elements) && d.elements[j] == el {
		return j < i
	}
	for j := 0; j < i; j++ {
		if d.elements[j] == el {
			return true
		}
	}
	return false
}

// pointers maps the sealed elements' ids to the elements (the first
// with each), built once for all the forks of the document.
func (e *encoding) pointers() map[string]*ojson.Object {
	e.ptrOnce.Do(func() {
		e.ptrs = make(map[string]*ojson.Object, len(e.info))
		for _, in := range e.info {
			if _, dup := e.ptrs[in.id]; in.id != "" && !dup {
				e.ptrs[in.id] = in.el
			}
		}
	})
	return e.ptrs
}

// ptrPos is the sealed position of a sealed element.
func (e *encoding) ptrPos(el *ojson.Object) (int, bool) {
	id := elementID(el)
	if j, ok := e.pos(id); ok && j < len(e.els) && e.els[j] == el {
		return j, true
	}
	return 0, false
}

// IndexOf returns the position of the first element with the id: from
// the sealed index for the document Seal sealed (read only since, as a
// sealed document is: its index describes it), by a scan otherwise.
func (d *Document) IndexOf(id string) (int, bool) {
	if d.asSealed && d.enc != nil {
		return d.enc.pos(id)
	}
	for i, el := range d.elements {
		if el != nil && elementID(el) == id {
			return i, true
		}
	}
	return 0, false
}
