package engine

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// delete tombstones an element as Excalidraw does (isDeleted, version
// bump; the element stays in the array so collaborators and undo see the
// deletion) and leaves no live reference to it:
//
//   - arrows bound to it are unbound (startBinding/endBinding null);
//   - its id is removed from every boundElements list;
//   - its bound text (a container's label) is deleted with it;
//   - elements in it (a frame) leave it (frameId null).
func (tx *Txn) delete(op Op) error {
	el, err := tx.live(op)
	if err != nil {
		return err
	}
	tx.tombstone(el)
	for _, other := range tx.doc.Elements() {
		if other == nil || other == el {
			continue
		}
		tx.unreference(other, op.id)
	}
	return nil
}

func (tx *Txn) tombstone(el *ojson.Object) {
	el.Set("isDeleted", true)
	tx.bump(el)
}

// unreference removes from other every reference to the deleted id.
func (tx *Txn) unreference(other *ojson.Object, id string) {
	for _, k := range []string{"startBinding", "endBinding"} {
		if b, ok := other.Object(k); ok && scene.StringOf(b, "elementId") == id {
			other.Set(k, nil)
			tx.bump(other)
		}
	}
	if scene.StringOf(other, "frameId") == id {
		other.Set("frameId", nil)
		tx.bump(other)
	}
	if scene.StringOf(other, "containerId") == id && !scene.IsDeleted(other) {
		tx.tombstone(other)
	}
	if dropBound(other, id) {
		tx.bump(other)
	}
}

// dropBound removes id from el's boundElements; it reports a change.
func dropBound(el *ojson.Object, id string) bool {
	list, ok := el.Array("boundElements")
	if !ok {
		return false
	}
	kept := make([]any, 0, len(list))
	for _, entry := range list {
		if o, ok := entry.(*ojson.Object); ok && scene.StringOf(o, "id") == id {
			continue
		}
		kept = append(kept, entry)
	}
	if len(kept) == len(list) {
		return false
	}
	el.Set("boundElements", kept)
	return true
}
