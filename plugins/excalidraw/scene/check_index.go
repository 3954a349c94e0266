package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/findex"

// checkIndices checks the fractional indices (`index`) that order
// elements since Excalidraw 0.17. Like Excalidraw's
// validateFractionalIndices it walks the whole array, tombstones included
// (they keep their place for collaboration), and requires each index to be
// a valid key greater than the last valid one before it. Restore
// regenerates bad indices (syncInvalidIndices) without moving anything, so
// these are warnings. A missing or null index is reported with the other
// defaulted fields by checkFields: pre-0.17 files have none at all.
func (v *validator) checkIndices() {
	prev := ""
	for i, el := range v.doc.elements {
		if el == nil {
			continue
		}
		raw, present := v.member(i, "index")
		if !present || raw == nil {
			continue
		}
		key, ok := raw.(string)
		if !ok {
			v.warnf(CodeInvalidIndex, elementPointer(i, "index"), elementID(el), "index must be a string or null, got %s; Excalidraw regenerates it", describe(raw, true))
			continue
		}
		if err := findex.Validate(key); err != nil {
			v.warnf(CodeInvalidIndex, elementPointer(i, "index"), elementID(el), "index %q is not a fractional index; Excalidraw regenerates it", key)
			continue
		}
		if prev != "" && key <= prev {
			v.warnf(CodeIndexOrder, elementPointer(i, "index"), elementID(el), "index %q is not greater than the preceding %q; Excalidraw regenerates it", key, prev)
			continue
		}
		prev = key
	}
}
