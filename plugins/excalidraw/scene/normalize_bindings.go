package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// maxRepairRounds bounds the repair loops. Restore's repair is a single
// pass whose result depends on element order (a container seen before its
// text cannot see the containerId the text loses later in the pass, and
// binds it on the next load), so one pass is not always a fixed point;
// repeating it settles in two or three rounds.
const maxRepairRounds = 8

// repairBindings runs restore's repairBindings pass until it changes
// nothing, then completes the back-references it leaves one-sided, and
// starts over if that changed anything. Only the elements restore keeps
// take part: to the editor the others do not exist, so references to
// them are dangling.
func (n *normalizer) repairBindings() {
	byID := n.visibleByID()
	for range maxRepairRounds {
		for range maxRepairRounds {
			if !n.restorePass(byID) {
				break
			}
		}
		if !n.pairBindings(byID) {
			return
		}
	}
}

// restorePass is one pass of restore's repair over the array; it reports
// whether it changed anything.
func (n *normalizer) restorePass(byID map[string]int) bool {
	changed := false
	for _, i := range n.visit() {
		if el := n.els[i]; n.visible[i] && n.repairElement(i, el, byID) {
			changed = true
		}
	}
	return changed
}

// visibleByID maps the ids of the elements restore keeps to their
// positions. Ids are unique among them (claimID).
func (n *normalizer) visibleByID() map[string]int {
	if n.byID != nil {
		return n.byID
	}
	byID := make(map[string]int, len(n.els))
	for i, el := range n.els {
		if !n.visible[i] {
			continue
		}
		if id, ok := el.String("id"); ok {
			byID[id] = i
		}
	}
	n.byID = byID
	return byID
}

// repairElement is one step of restore's pass, on element i: a frameId
// naming nothing is nulled; a bound text is checked against its container
// (repairBoundElement), any other element's boundElements against what
// they name (repairContainerElement); a line's bindings and an arrow's
// bindings to nothing are nulled. It reports whether it changed anything.
func (n *normalizer) repairElement(i int, el *ojson.Object, byID map[string]int) bool {
	f := elemFix{n: n, i: i, el: el}
	changed := false
	if v, ok := el.Get("frameId"); !jsFalsy(v, ok) && !names(v, byID) && f.set("frameId", nil, FixFrame) {
		n.repaired(RepairFrameDropped, i, "frameId", refID(v))
		changed = true
	}
	if v, ok := textContainerID(el); ok {
		changed = n.repairBoundText(f, v, byID) || changed
	} else if v, ok := el.Get("boundElements"); !jsFalsy(v, ok) {
		changed = n.repairContainer(f, byID) || changed
	}
	if IsLinear(elementType(el)) {
		for _, side := range []string{"startBinding", "endBinding"} {
			b, ok := el.Get(side)
			if jsFalsy(b, ok) {
				continue
			}
			o, _ := b.(*ojson.Object)
			var target any
			if o != nil {
				target = mustGet(o, "elementId")
			}
			if (elementType(el) != "arrow" || !names(target, byID)) && f.set(side, nil, FixBinding) {
				n.repaired(RepairBindingDropped, i, side, refID(target))
				changed = true
			}
		}
	}
	return changed
}

// textContainerID returns a text's containerId when it is truthy: the
// texts restore treats as bound.
func textContainerID(el *ojson.Object) (any, bool) {
	if elementType(el) != "text" {
		return nil, false
	}
	v, ok := el.Get("containerId")
	return v, !jsFalsy(v, ok)
}

// names reports whether v is the id of an element restore keeps.
func names(v any, byID map[string]int) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	_, ok = byID[s]
	return ok
}

// repairBoundText: a text whose container does not exist is unbound; a
// live one is added to its container's boundElements if missing there.
// A container that is deleted keeps it, as in restore.
func (n *normalizer) repairBoundText(f elemFix, containerID any, byID map[string]int) bool {
	if !names(containerID, byID) {
		if !f.set("containerId", nil, FixContainer) {
			return false
		}
		n.repaired(RepairContainerDropped, f.i, "containerId", refID(containerID))
		return true
	}
	if jsDeleted(f.el) {
		return false
	}
	c := byID[containerID.(string)]
	list, ok := n.els[c].Array("boundElements")
	if !ok {
		return false
	}
	id, _ := f.el.String("id")
	if n.lists.listed(c, list, id) {
		return false
	}
	n.lists.add(n.els[c], c, list, ojson.New().Set("type", "text").Set("id", id), id)
	n.fix(c, FixBoundElements)
	n.repaired(RepairBoundElementAdded, c, "boundElements", id)
	return true
}

// repairContainer: boundElements keeps the first entry for each id that
// names a live element; a text it lists without a containerId is bound to
// this element.
func (n *normalizer) repairContainer(f elemFix, byID map[string]int) bool {
	list, _ := f.el.Array("boundElements")
	id := mustGet(f.el, "id")
	seen := make(map[string]bool, len(list))
	kept := make([]any, 0, len(list))
	var dropped []string
	changed := false
	for _, entry := range list {
		bid := entryID(entry)
		j, exists := byID[bid]
		if !exists || seen[bid] {
			dropped = append(dropped, bid)
			continue
		}
		seen[bid] = true
		b := n.els[j]
		if jsDeleted(b) {
			dropped = append(dropped, bid)
			continue
		}
		kept = append(kept, entry)
		if _, bound := textContainerID(b); elementType(b) == "text" && !bound {
			elemFix{n: n, i: j, el: b}.set("containerId", id, FixContainer)
			n.repaired(RepairContainerSet, j, "containerId", refID(id))
			changed = true
		}
	}
	if len(kept) != len(list) {
		n.lists.replace(f.el, f.i, kept)
		n.fix(f.i, FixBoundElements)
		n.droppedEntries(f.i, dropped)
		changed = true
	}
	return changed
}

// droppedEntries records the boundElements entries of element i that a
// repair removed, by the ids they named.
func (n *normalizer) droppedEntries(i int, ids []string) {
	for _, id := range ids {
		n.repaired(RepairBoundElementDropped, i, "boundElements", id)
	}
}

// entryID is the id a boundElements entry names ("" for a malformed
// entry, which restore's lookup misses too).
func entryID(entry any) string {
	o, ok := entry.(*ojson.Object)
	if !ok || o == nil {
		return ""
	}
	s, _ := o.String("id")
	return s
}

func listsID(list []any, id string) bool {
	for _, e := range list {
		if entryID(e) == id {
			return true
		}
	}
	return false
}

// pairBindings goes beyond restore, which leaves arrow back-references
// alone: in each live element's boundElements it drops the entries that
// do not point back (an "arrow" entry for an element that does not bind
// it, a "text" entry for a text bound elsewhere) and those restore's
// repair skips on bound texts (duplicates, entries naming nothing or a
// tombstone); then it adds each live arrow to the live elements it binds.
// Entries of other kinds are kept. It reports whether it changed
// anything.
func (n *normalizer) pairBindings(byID map[string]int) bool {
	changed := false
	for _, i := range n.visit() {
		if el := n.els[i]; n.visible[i] && !jsDeleted(el) && n.dropStaleEntries(i, el, byID) {
			changed = true
		}
	}
	for _, i := range n.visit() {
		if el := n.els[i]; n.visible[i] && !jsDeleted(el) && elementType(el) == "arrow" && n.listArrow(i, el, byID) {
			changed = true
		}
	}
	return changed
}

// dropStaleEntries filters a live element's boundElements.
func (n *normalizer) dropStaleEntries(i int, el *ojson.Object, byID map[string]int) bool {
	list, ok := el.Array("boundElements")
	if !ok || len(list) == 0 {
		return false
	}
	id, _ := el.String("id")
	seen := make(map[string]bool, len(list))
	kept := make([]any, 0, len(list))
	var dropped []string
	for _, entry := range list {
		bid := entryID(entry)
		j, exists := byID[bid]
		if !exists || seen[bid] || jsDeleted(n.els[j]) {
			dropped = append(dropped, bid)
			continue
		}
		seen[bid] = true
		if pointsBack(entry, n.els[j], id) {
			kept = append(kept, entry)
		} else {
			dropped = append(dropped, bid)
		}
	}
	if len(kept) == len(list) {
		return false
	}
	n.lists.replace(el, i, kept)
	n.fix(i, FixBoundElements)
	n.droppedEntries(i, dropped)
	return true
}

// pointsBack reports whether the element b named by a boundElements entry
// of the element with the given id refers back to it, for the entry kinds
// that can be checked.
func pointsBack(entry any, b *ojson.Object, id string) bool {
	kind, _ := entry.(*ojson.Object).String("type")
	switch kind {
	case "arrow":
		return elementType(b) == "arrow" && bindsTo(b, id)
	case "text":
		cid, _ := textContainerID(b)
		return cid == id
	}
	return true
}

// listArrow adds a live arrow to the boundElements of each live element
// it binds, as the editor does when it binds (bindLinearElement).
func (n *normalizer) listArrow(i int, el *ojson.Object, byID map[string]int) bool {
	id, _ := el.String("id")
	changed := false
	for _, side := range []string{"startBinding", "endBinding"} {
		b, ok := el.Object(side)
		if !ok {
			continue
		}
		tid, _ := b.String("elementId")
		j, exists := byID[tid]
		if !exists || jsDeleted(n.els[j]) {
			continue
		}
		list, isArray := n.els[j].Array("boundElements")
		if !isArray || n.lists.listed(j, list, id) {
			continue
		}
		n.lists.add(n.els[j], j, list, ojson.New().Set("id", id).Set("type", "arrow"), id)
		n.fix(j, FixBoundElements)
		n.repaired(RepairBoundElementAdded, j, "boundElements", id)
		changed = true
	}
	return changed
}

// jsDeleted is restore's test of `isDeleted`: truthy.
func jsDeleted(el *ojson.Object) bool { return !jsFalsy(el.Get("isDeleted")) }
