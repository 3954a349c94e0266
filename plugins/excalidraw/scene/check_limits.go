package scene

import "unicode/utf8"

// checkLimits enforces the element-count and text-length limits. Both are
// checked by Parse too: a scene over them is refused at the door rather
// than stored and then failing everywhere it is used.
//
// Only live elements count against MaxElements: a deletion keeps its
// tombstone in the array (for collaborators and undo), so counting
// tombstones would leave a scene over the limit with no way back under it
// but hand-editing the file. Tombstones are bounded by MaxSceneBytes.
func (v *validator) checkLimits() {
	live := 0
	for i := range v.n {
		e := v.at(i)
		if !e.deleted {
			live++
		}
	}
	if live > v.lim.MaxElements {
		v.push(overLimit(CodeTooManyElements, pointer(keyElements), "", int64(live), int64(v.lim.MaxElements)))
	}
	for i := range v.n {
		e := v.at(i)
		if e.typ != "text" || v.doc.sealedUnder(e.el, v.lim) {
			continue
		}
		for _, k := range []string{"text", "originalText"} {
			s, ok := e.el.String(k)
			if !ok || len(s) <= v.lim.MaxTextLength {
				continue // a byte count under the limit bounds the characters too
			}
			if n := utf8.RuneCountInString(s); n > v.lim.MaxTextLength {
				v.push(overLimit(CodeTextTooLong, elementPointer(i, k), e.id, int64(n), int64(v.lim.MaxTextLength)))
			}
		}
	}
}
