package scene

import (
	"cmp"
	"slices"
)

// checkIDs requires every element to have a unique, non-empty string id
// and builds the id index the reference checks use. Excalidraw's restore
// would give an element without an id, or with a duplicate one, a random
// id on every load, so nothing could refer to it reliably: an error.
func (v *validator) checkIDs() {
	if v.scoped {
		v.checkIDsScoped()
		return
	}
	v.byID = make(map[string]int, len(v.doc.elements))
	for i, el := range v.doc.elements {
		if el == nil {
			continue
		}
		raw, present := v.member(i, "id")
		id, isString := raw.(string)
		switch {
		case !present || raw == nil:
			v.errorf(CodeMissingField, elementPointer(i, "id"), "", "element has no id")
			continue
		case !isString:
			v.errorf(CodeInvalidField, elementPointer(i, "id"), "", "id must be a string, got %s", describe(raw, true))
			continue
		case id == "":
			v.errorf(CodeInvalidField, elementPointer(i, "id"), "", "id is empty")
			continue
		}
		if first, dup := v.byID[id]; dup {
			v.errorf(CodeDuplicateID, elementPointer(i, "id"), id, "id %q is already used by element %d", id, first)
			continue
		}
		v.byID[id] = i
	}
}

// lookup returns the element with the id (its first occurrence).
func (v *validator) lookup(id string) (elemInfo, bool) {
	i, ok := v.byID[id]
	if !ok {
		return elemInfo{}, false
	}
	return v.at(i), true
}

// checkIDsScoped is checkIDs for Errors on a fork: the ids of the dirty
// elements alone are checked (a sealed element's id was, and is shared
// by no other sealed one), a duplicate is reported where checkIDs would
// report it (at the later element), and the index built holds what the
// reference checks around the dirty elements look up.
func (v *validator) checkIDsScoped() {
	lookup, dupes := v.doc.forkIndex(v.dirty, nil)
	type found struct {
		i   int
		say func()
	}
	var out []found
	for _, i := range v.dirty {
		el := v.doc.elements[i]
		raw, present := el.Get("id")
		id, isString := raw.(string)
		switch {
		case !present || raw == nil:
			out = append(out, found{i, func() { v.errorf(CodeMissingField, elementPointer(i, "id"), "", "element has no id") }})
		case !isString:
			out = append(out, found{i, func() {
				v.errorf(CodeInvalidField, elementPointer(i, "id"), "", "id must be a string, got %s", describe(raw, true))
			}})
		case id == "":
			out = append(out, found{i, func() { v.errorf(CodeInvalidField, elementPointer(i, "id"), "", "id is empty") }})
		}
	}
	for _, p := range dupes {
		id := elementID(v.doc.elements[p[1]])
		out = append(out, found{p[1], func() {
			v.errorf(CodeDuplicateID, elementPointer(p[1], "id"), id, "id %q is already used by element %d", id, p[0])
		}})
	}
	slices.SortStableFunc(out, func(a, b found) int { return cmp.Compare(a.i, b.i) }) // checkIDs' order
	for _, f := range out {
		f.say()
	}
	v.cand = v.doc.related(v.dirty, lookup)
	v.byID = v.doc.scopedIDs(v.cand, lookup, nil)
}
