package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// checkRefs checks the references between elements. Forward references
// (an arrow's bindings, a text's containerId, any frameId) are what the
// drawing depends on: one naming nothing is an error, one naming a
// tombstone a warning. Back-references (boundElements) are a cache
// Excalidraw repairs: stale or one-sided entries are warnings. References
// held by deleted elements are not checked: tombstones are kept only for
// collaboration and are never drawn.
func (v *validator) checkRefs() {
	visit := func(i int) {
		e := v.at(i)
		if e.el == nil || e.deleted || !IsSupported(e.typ) {
			return
		}
		v.checkFrameRef(i, e.id, e.el)
		if e.typ == "text" {
			v.checkContainerRef(i, e.id, e.el)
		}
		if e.typ == "arrow" {
			v.checkArrowRef(i, e.id, e.el, "startBinding")
			v.checkArrowRef(i, e.id, e.el, "endBinding")
		}
		if !v.errorsOnly { // back-references only warn
			v.checkBoundElements(i, e.id, e.el)
		}
	}
	if v.scoped { // Errors on a fork: around what changed (normalize_scope.go)
		for _, i := range v.cand {
			visit(i)
		}
		return
	}
	for i := range v.n {
		visit(i)
	}
}

func (v *validator) checkFrameRef(i int, id string, el *ojson.Object) {
	fid, _ := el.String("frameId")
	if fid == "" {
		return
	}
	f, ok := v.lookup(fid)
	switch {
	case !ok:
		v.errorf(CodeDanglingFrame, elementPointer(i, "frameId"), id, "frameId %q names no element", fid)
	case !isFrame(f.typ):
		v.errorf(CodeDanglingFrame, elementPointer(i, "frameId"), id, "frameId %q names a %s, not a frame", fid, f.typ)
	case f.deleted:
		v.warnf(CodeDanglingFrame, elementPointer(i, "frameId"), id, "frameId %q names a deleted frame", fid)
	}
}

func (v *validator) checkContainerRef(i int, id string, el *ojson.Object) {
	cid, _ := el.String("containerId")
	if cid == "" {
		return
	}
	c, ok := v.lookup(cid)
	switch {
	case !ok:
		v.errorf(CodeDanglingBinding, elementPointer(i, "containerId"), id, "containerId %q names no element", cid)
	case !isTextContainer(c.typ):
		v.errorf(CodeInvalidContainer, elementPointer(i, "containerId"), id, "containerId %q names a %s, which cannot hold a label", cid, c.typ)
	case c.deleted:
		v.warnf(CodeDanglingBinding, elementPointer(i, "containerId"), id, "containerId %q names a deleted element", cid)
	case !v.errorsOnly && !v.listsBound(c, id):
		v.warnf(CodeOneSidedBinding, elementPointer(i, "containerId"), id, "container %q does not list this text in its boundElements", cid)
	}
}

func (v *validator) checkArrowRef(i int, id string, el *ojson.Object, side string) {
	b, ok := el.Object(side)
	if !ok {
		return
	}
	tid, _ := b.String("elementId")
	if tid == "" {
		return // shape error, reported by checkFields
	}
	target, ok := v.lookup(tid)
	switch {
	case !ok:
		v.errorf(CodeDanglingBinding, elementPointer(i, side, "elementId"), id, "%s names no element (%q)", side, tid)
	case target.deleted:
		v.warnf(CodeDanglingBinding, elementPointer(i, side, "elementId"), id, "%s names a deleted element (%q)", side, tid)
	case !v.errorsOnly && !v.listsBound(target, id):
		v.warnf(CodeOneSidedBinding, elementPointer(i, side), id, "%s binds %q, whose boundElements does not list this arrow", side, tid)
	}
}

// checkBoundElements checks that what a live element lists as bound to it
// exists and points back.
func (v *validator) checkBoundElements(i int, id string, el *ojson.Object) {
	arr, _ := el.Array("boundElements")
	for j, x := range arr {
		o, ok := x.(*ojson.Object)
		if !ok || o == nil {
			continue
		}
		bid, _ := o.String("id")
		if bid == "" {
			continue
		}
		kind, _ := o.String("type")
		v.checkBoundEntry(i, "boundElements", j, id, bid, kind)
	}
	legacy, _ := el.Array("boundElementIds")
	for j, x := range legacy {
		if bid, ok := x.(string); ok {
			v.checkBoundEntry(i, "boundElementIds", j, id, bid, "")
		}
	}
}

// checkBoundEntry checks one back-reference, entry j of the list field of
// element i (whose id is id), to bid. kind is "arrow", "text", or "" for a
// legacy boundElementIds entry (only its existence is checked: those
// predate text labels). The pointer is built only when reporting.
func (v *validator) checkBoundEntry(i int, list string, j int, id, bid, kind string) {
	ptr := func() string { return elementPointer(i, list, j) }
	b, ok := v.lookup(bid)
	switch {
	case !ok:
		v.warnf(CodeDanglingBinding, ptr(), id, "lists bound element %q, which does not exist; Excalidraw drops the entry", bid)
		return
	case b.deleted:
		v.warnf(CodeDanglingBinding, ptr(), id, "lists bound element %q, which is deleted; Excalidraw drops the entry", bid)
		return
	}
	switch kind {
	case "text":
		if cid, _ := b.el.String("containerId"); b.typ != "text" || cid != id {
			v.warnf(CodeOneSidedBinding, ptr(), id, "lists %q as its text, but that %s is not bound to it", bid, b.typ)
		}
	case "arrow":
		if !IsLinear(b.typ) || !bindsTo(b.el, id) {
			v.warnf(CodeOneSidedBinding, ptr(), id, "lists %q as a bound arrow, but that %s does not bind to it", bid, b.typ)
		}
	}
}

// shortList is the length up to which a boundElements list is scanned
// rather than indexed.
const shortList = 16

// listsBound reports whether e lists id in boundElements or in the legacy
// boundElementIds (which restore converts). Long lists are indexed once.
func (v *validator) listsBound(e elemInfo, id string) bool {
	arr, _ := e.el.Array("boundElements")
	legacy, _ := e.el.Array("boundElementIds")
	if len(arr)+len(legacy) <= shortList {
		return listsBound(e.el, id)
	}
	set, ok := v.bound[e.pos]
	if !ok {
		set = boundIDs(arr, legacy)
		if v.bound == nil {
			v.bound = map[int]map[string]bool{}
		}
		v.bound[e.pos] = set
	}
	return set[id]
}

// boundIDs collects the ids of boundElements and boundElementIds lists.
func boundIDs(arr, legacy []any) map[string]bool {
	set := make(map[string]bool, len(arr)+len(legacy))
	for _, x := range arr {
		if o, ok := x.(*ojson.Object); ok && o != nil {
			if s, ok := o.String("id"); ok {
				set[s] = true
			}
		}
	}
	for _, x := range legacy {
		if s, ok := x.(string); ok {
			set[s] = true
		}
	}
	return set
}

// listsBound scans el's lists for id.
func listsBound(el *ojson.Object, id string) bool {
	arr, _ := el.Array("boundElements")
	for _, x := range arr {
		if o, ok := x.(*ojson.Object); ok && o != nil {
			if s, _ := o.String("id"); s == id {
				return true
			}
		}
	}
	legacy, _ := el.Array("boundElementIds")
	for _, x := range legacy {
		if x == id {
			return true
		}
	}
	return false
}

// bindsTo reports whether a linear element binds to id at either end.
func bindsTo(el *ojson.Object, id string) bool {
	for _, side := range []string{"startBinding", "endBinding"} {
		if b, ok := el.Object(side); ok {
			if s, _ := b.String("elementId"); s == id {
				return true
			}
		}
	}
	return false
}
