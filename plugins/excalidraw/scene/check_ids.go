package scene

// checkIDs requires every element to have a unique, non-empty string id
// and builds the id index the reference checks use. Excalidraw's restore
// would give an element without an id, or with a duplicate one, a random
// id on every load, so nothing could refer to it reliably: an error.
func (v *validator) checkIDs() {
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
	return v.info[i], true
}
