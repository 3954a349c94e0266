package engine

import (
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Put is one element to put back as it was: Element is its earlier
// state, nil when it did not exist then.
type Put struct {
	ID      string
	Element *ojson.Object
}

// Restore puts elements back to earlier states (a journal's
// before-images), one version step each above whatever they are now, so
// every open editor takes the restored state over its own (a tombstone
// included: a deleted element comes back with a version above its
// tombstone's):
//
//   - a state is copied over the element in place, or appended if the
//     element left the file; its index is kept if it still sorts where
//     the element is, else Normalize gives it one;
//   - a nil state deletes the element the way delete does (labels with
//     it, arrows unbound);
//   - references between restored elements are restored with them; a
//     reference to an element that is not there any more is dropped
//     later by Normalize, as for any save.
//
// It returns the ids it changed.
func (tx *Txn) Restore(puts []Put) ([]string, error) {
	var changed []string
	err := tx.do(func() error {
		tx.index()
		for _, p := range puts {
			cur := tx.byID.Get(p.ID)
			if p.Element == nil {
				if cur == nil || scene.IsDeleted(cur) {
					continue
				}
				if err := tx.delete(Op{kind: opDelete, id: p.ID}); err != nil {
					return err
				}
				changed = append(changed, p.ID)
				continue
			}
			el := p.Element.Clone()
			el.Set("id", p.ID)
			version := scene.NumberOf(el, "version")
			if cur != nil {
				version = max(version, scene.NumberOf(cur, "version"))
			}
			el.Set("version", int64(version))
			if cur != nil {
				els := tx.doc.Elements()
				i := slices.Index(els, cur)
				els[i] = el
			} else {
				tx.doc.SetElements(append(tx.doc.Elements(), el))
			}
			tx.byID.Set(p.ID, el)
			delete(tx.bumped, cur)
			tx.bump(el)
			tx.note(p.ID)
			changed = append(changed, p.ID)
		}
		return nil
	})
	return changed, err
}
