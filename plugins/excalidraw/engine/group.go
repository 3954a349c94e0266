package engine

import (
	"slices"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Group puts the elements ids name into a new group, as Excalidraw's
// group action (Ctrl+G) does, and returns its id (a fresh nanoid-like id
// from the Txn's random source):
//
//   - a label stands for its container, and a container's label joins
//     with it; a group a member belongs to only in part (another group
//     than those all members share) joins whole, as selecting one of its
//     elements in the editor selects it all;
//   - groupIds run from the innermost group to the outermost: the new
//     group goes after each member's own groups and before the groups
//     all members already share, so that it nests inside those;
//   - members in different frames (or some in a frame, some not) leave
//     their frames, since a group lies in one frame or none;
//   - the members are drawn together, just below the topmost of them,
//     keeping their order (only their fractional indices change).
//
// If the members are exactly an existing group, Group changes nothing
// and returns that group's id. pointer locates the call's arguments: an
// unknown or deleted id is not_found at pointer/ids/<i>; fewer than two
// members (labels not counted), a frame, or a member that would be in
// more than 32 groups is invalid_operation.
func (tx *Txn) Group(ids []string, pointer string) (string, error) {
	var gid string
	err := tx.do(func() (err error) {
		gid, err = tx.group(ids, pointer)
		return err
	})
	return gid, err
}

func (tx *Txn) group(ids []string, pointer string) (string, error) {
	tx.index()
	named, err := tx.named(ids, pointer+"/ids")
	if err != nil {
		return "", err
	}
	members := tx.groupable(named)
	for _, m := range members {
		if isFrameType(scene.StringOf(m, "type")) {
			return "", opError(idPointer(ids, m, pointer+"/ids"), "%q is a frame; frames cannot be grouped", scene.StringOf(m, "id")).With("id", scene.StringOf(m, "id"))
		}
	}
	if len(members) < 2 {
		return "", opError(pointer+"/ids", "a group needs at least two elements (a label counts with its container)")
	}
	shared := sharedGroups(members)
	for _, g := range shared {
		if len(tx.groupMembers(g)) == len(members) {
			return g, nil // these are exactly group g already
		}
	}
	all := tx.withLabels(members)
	for _, el := range all {
		if len(stringsOf(el, "groupIds")) >= maxGroups {
			return "", opError(idPointer(ids, el, pointer+"/ids"), "%q is in %d groups already, the most an element may be in", scene.StringOf(el, "id"), maxGroups).
				With("id", scene.StringOf(el, "id"))
		}
	}
	taken := tx.takenIDs()
	for _, el := range tx.doc.Elements() {
		if el == nil {
			continue
		}
		for _, g := range stringsOf(el, "groupIds") {
			taken[g] = true
		}
	}
	gid := tx.freshID(taken)
	for _, el := range all {
		el.Set("groupIds", nestGroup(stringsOf(el, "groupIds"), gid, shared))
		tx.bump(el)
	}
	tx.oneFrame(all)
	in := setOf(all)
	order := tx.doc.Elements()
	top := 0
	for i, el := range order {
		if in[el] {
			top = i
		}
	}
	_, below := pick(order[:top+1], in)
	tx.setOrder(slices.Concat(below, all, order[top+1:]), in)
	for _, el := range named {
		tx.note(scene.StringOf(el, "id"))
	}
	tx.result.Updated += len(members)
	return gid, nil
}

// idPointer locates el among ids, the array at ptr in the request:
// ptr/<i> when ids names it, ptr when it came along with what ids named.
func idPointer(ids []string, el *ojson.Object, ptr string) string {
	if i := slices.Index(ids, scene.StringOf(el, "id")); i >= 0 {
		return ptr + "/" + strconv.Itoa(i)
	}
	return ptr
}

// groupable is what grouping named takes in, in scene order: labels
// replaced by their containers, then, until nothing changes, every live
// element of a group some member is in but not all members share.
func (tx *Txn) groupable(named []*ojson.Object) []*ojson.Object {
	in := map[*ojson.Object]bool{}
	for _, el := range named {
		in[tx.holderOf(el)] = true
	}
	for grown := true; grown; {
		grown = false
		members := tx.inOrder(in)
		shared := sharedGroups(members)
		for _, m := range members {
			for _, g := range stringsOf(m, "groupIds") {
				if slices.Contains(shared, g) {
					continue
				}
				for _, o := range tx.groupMembers(g) {
					if !in[o] {
						in[o], grown = true, true
					}
				}
			}
		}
	}
	return tx.inOrder(in)
}

// inOrder lists the elements of in in scene order.
func (tx *Txn) inOrder(in map[*ojson.Object]bool) []*ojson.Object {
	var out []*ojson.Object
	for _, el := range tx.doc.Elements() {
		if el != nil && in[el] {
			out = append(out, el)
		}
	}
	return out
}

// groupMembers are the live elements in group g, labels standing for
// their containers (each listed once), in scene order.
func (tx *Txn) groupMembers(g string) []*ojson.Object {
	in := map[*ojson.Object]bool{}
	for _, el := range tx.doc.Elements() {
		if el != nil && !scene.IsDeleted(el) && slices.Contains(stringsOf(el, "groupIds"), g) {
			in[tx.holderOf(el)] = true
		}
	}
	return tx.inOrder(in)
}

// sharedGroups are the groups every element of els is in, in the first
// element's order.
func sharedGroups(els []*ojson.Object) []string {
	if len(els) == 0 {
		return nil
	}
	var out []string
	for _, g := range stringsOf(els[0], "groupIds") {
		all := true
		for _, el := range els[1:] {
			all = all && slices.Contains(stringsOf(el, "groupIds"), g)
		}
		if all {
			out = append(out, g)
		}
	}
	return out
}

// nestGroup inserts group gid into groupIds (innermost first) just
// inside the groups of shared it holds: before the first of them, or
// last (outermost) when it holds none.
func nestGroup(groupIDs []string, gid string, shared []string) []any {
	at := len(groupIDs)
	for i, g := range groupIDs {
		if slices.Contains(shared, g) {
			at = i
			break
		}
	}
	out := make([]any, 0, len(groupIDs)+1)
	for _, g := range slices.Insert(slices.Clone(groupIDs), at, gid) {
		out = append(out, g)
	}
	return out
}

// oneFrame takes els out of their frames when they are not all in the
// same one (Excalidraw's group action does so: a group lies in one frame
// or in none).
func (tx *Txn) oneFrame(els []*ojson.Object) {
	frames := map[string]bool{}
	for _, el := range els {
		frames[scene.StringOf(el, "frameId")] = true
	}
	if len(frames) < 2 {
		return
	}
	for _, el := range els {
		if scene.StringOf(el, "frameId") != "" {
			el.Set("frameId", nil)
			tx.bump(el)
		}
	}
}

// Ungroup dissolves group groupID, as Excalidraw's ungroup action does:
// the id leaves the groupIds of every live element in it; groups nested
// in it or around it stay. It returns the ids of the elements that left
// it (labels not listed: they follow their containers). pointer locates
// the call's arguments: a group no live element is in is not_found at
// pointer/groupId.
func (tx *Txn) Ungroup(groupID, pointer string) ([]string, error) {
	var out []string
	err := tx.do(func() error {
		tx.index()
		out = tx.ungroup(groupID)
		if len(out) == 0 {
			return sceneerr.New(sceneerr.NotFound, "no live element is in group %q", groupID).
				With("pointer", pointer+"/group_id").With("id", groupID)
		}
		return nil
	})
	return out, err
}

// UngroupElements dissolves the outermost group of each element ids
// name (the group the editor selects with it; a label's is its
// container's), as Ungroup does, and returns the groups dissolved and
// the elements that left them. Elements in no group are passed over;
// pointer locates the call's arguments: an unknown or deleted id is
// not_found at pointer/ids/<i>, and invalid_operation at pointer/ids
// when ids is empty or none of the elements is in a group.
func (tx *Txn) UngroupElements(ids []string, pointer string) (groups, members []string, err error) {
	err = tx.do(func() error {
		named, err := tx.selection(ids, pointer+"/ids", "ungroup")
		if err != nil {
			return err
		}
		for _, el := range named {
			gs := stringsOf(tx.holderOf(el), "groupIds")
			if len(gs) > 0 && !slices.Contains(groups, gs[len(gs)-1]) {
				groups = append(groups, gs[len(gs)-1])
			}
		}
		if len(groups) == 0 {
			return opError(pointer+"/ids", "none of the %d elements named is in a group", len(named))
		}
		for _, g := range groups {
			for _, id := range tx.ungroup(g) {
				if !slices.Contains(members, id) {
					members = append(members, id)
				}
			}
		}
		return nil
	})
	return groups, members, err
}

// ungroup removes group g from every live element in it and returns the
// ids of those elements, in scene order, labels left out where their
// containers are listed.
func (tx *Txn) ungroup(g string) []string {
	var changed []*ojson.Object
	for _, el := range tx.doc.Elements() {
		if el == nil || scene.IsDeleted(el) || !slices.Contains(stringsOf(el, "groupIds"), g) {
			continue
		}
		kept := []any{}
		for _, o := range stringsOf(el, "groupIds") {
			if o != g {
				kept = append(kept, o)
			}
		}
		el.Set("groupIds", kept)
		tx.bump(el)
		changed = append(changed, el)
	}
	in := setOf(changed)
	var out []string
	for _, el := range changed {
		if h := tx.holderOf(el); h == el || !in[h] {
			out = append(out, scene.StringOf(el, "id"))
		}
	}
	tx.result.Updated += len(out)
	for _, id := range out {
		tx.note(id)
	}
	return out
}
