package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// Matching returns the positions, in order, of the elements pred holds
// for. pred must answer from the element alone and be the same for one
// key. A sealed document keeps its answer under key, and carries it into
// the document sealed from its fork (Seal); a fork asks pred only of the
// elements that are not the base's at their position. A question asked
// of every write ("is there any stack on this board?") then costs what
// the write changed, not what the scene holds.
func (d *Document) Matching(key any, pred func(*ojson.Object) bool) []int {
	e := d.enc
	if e == nil {
		return matchAll(d.elements, pred)
	}
	if d.asSealed && len(e.els) == len(d.elements) {
		return e.matchesFor(key, pred).at
	}
	dirty, ok := d.forkDirty()
	if !ok {
		return matchAll(d.elements, pred)
	}
	base := e.matchesFor(key, pred).at
	var out []int
	k := 0
	for _, i := range base {
		for ; k < len(dirty) && dirty[k] < i; k++ {
			if pred(d.elements[dirty[k]]) {
				out = append(out, dirty[k])
			}
		}
		if i < len(d.elements) && d.elements[i] == e.els[i] {
			out = append(out, i)
		}
	}
	for ; k < len(dirty); k++ {
		if pred(d.elements[dirty[k]]) {
			out = append(out, dirty[k])
		}
	}
	return out
}

// matchKey keys Matching's answers among a sealed document's kept values.
type matchKey struct{ key any }

// matches is a sealed document's answer to Matching, with its question.
type matches struct {
	pred func(*ojson.Object) bool
	at   []int
}

func matchAll(els []*ojson.Object, pred func(*ojson.Object) bool) []int {
	var out []int
	for i, el := range els {
		if pred(el) {
			out = append(out, i)
		}
	}
	return out
}

// matchesFor is e's answer to Matching under key, made once.
func (e *encoding) matchesFor(key any, pred func(*ojson.Object) bool) *matches {
	if v, ok := e.kept.Load(matchKey{key}); ok {
		return v.(*matches)
	}
	v, _ := e.kept.LoadOrStore(matchKey{key}, &matches{pred: pred, at: matchAll(e.els, pred)})
	return v.(*matches)
}

// inheritMatches carries base's answers to Matching into e: an element
// that is the base's at its position keeps its answer; pred is asked of
// the others.
func (e *encoding) inheritMatches(base *encoding) {
	if base == nil {
		return
	}
	base.kept.Range(func(k, v any) bool {
		mk, ok := k.(matchKey)
		if !ok {
			return true
		}
		m := v.(*matches)
		var at []int
		j := 0
		for i, el := range e.els {
			for j < len(m.at) && m.at[j] < i {
				j++
			}
			if i < len(base.els) && base.els[i] == el {
				if j < len(m.at) && m.at[j] == i {
					at = append(at, i)
				}
				continue
			}
			if m.pred(el) {
				at = append(at, i)
			}
		}
		e.kept.Store(mk, &matches{pred: m.pred, at: at})
		return true
	})
}
