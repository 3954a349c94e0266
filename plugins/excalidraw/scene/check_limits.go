package scene

import "unicode/utf8"

// checkLimits enforces the element-count and text-length limits. Both are
// checked by Parse too: a scene over them is refused at the door rather
// than stored and then failing everywhere it is used.
func (v *validator) checkLimits() {
	if n := len(v.doc.elements); n > v.lim.MaxElements {
		v.errorf(CodeTooManyElements, pointer(keyElements), "", "scene has %d elements, over the limit of %d", n, v.lim.MaxElements)
	}
	for i, e := range v.info {
		if e.typ != "text" {
			continue
		}
		for _, k := range []string{"text", "originalText"} {
			s, ok := e.el.String(k)
			if !ok || len(s) <= v.lim.MaxTextLength {
				continue // a byte count under the limit bounds the characters too
			}
			if n := utf8.RuneCountInString(s); n > v.lim.MaxTextLength {
				v.errorf(CodeTextTooLong, elementPointer(i, k), e.id, "%s has %d characters, over the limit of %d", k, n, v.lim.MaxTextLength)
			}
		}
	}
}
