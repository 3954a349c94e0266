package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// computeStats counts a document's contents and measures its live
// elements, from the validator's per-element cache.
func (v *validator) computeStats() Stats {
	d := v.doc
	st := Stats{Elements: v.n, ByType: map[string]int{}}
	var box boundsAcc
	for i := range v.n {
		e := v.at(i)
		if e.el == nil {
			continue
		}
		if e.typ != "" {
			st.ByType[e.typ]++
		}
		if e.deleted {
			st.Deleted++
			continue
		}
		box.addElement(e.el)
	}
	st.Bounds = box.result()
	if d.files != nil {
		st.Files = d.files.Len()
		for _, k := range d.files.Keys() {
			if f, ok := mustGet(d.files, k).(*ojson.Object); ok && f != nil {
				s, _ := f.String("dataURL")
				st.FileBytes += int64(len(s))
			}
		}
	}
	return st
}
