package scene

// checkShapes reports entries of elements that are not objects or have no
// string type: nothing else can be said about them, and no Excalidraw can
// read them.
func (v *validator) checkShapes() {
	for i := range v.n {
		e := v.at(i)
		if e.el == nil {
			v.errorf(CodeInvalidElement, elementPointer(i), "", "element is not an object")
			continue
		}
		if v.doc.sealedUnder(e.el, v.lim) {
			continue // checked when it was written (fork.go)
		}
		t, present := v.member(i, "type")
		switch {
		case !present || t == nil:
			v.errorf(CodeMissingField, elementPointer(i, "type"), e.id, "element has no type")
		default:
			if _, ok := t.(string); !ok {
				v.errorf(CodeInvalidField, elementPointer(i, "type"), e.id, "type must be a string, got %s", describe(t, true))
			}
		}
	}
}
