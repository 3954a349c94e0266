package engine

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// DshKey is the customData member that tags an element of a structure a
// planner drew: {"kind", "id", "slot", …the kind's own fields}.
const DshKey = "dsh"

// nestedKey is where an element keeps its tag of kind when its dsh tag
// is another structure's (a table's cell that is also a stack's item):
// "dshStack" for "stack".
func nestedKey(kind string) string {
	if kind == "" {
		return DshKey
	}
	return DshKey + strings.ToUpper(kind[:1]) + kind[1:]
}

// tagOf is el's tag of kind and the customData member that holds it:
// dsh when its kind is kind, else the nested key; nil when it has none.
func tagOf(el *ojson.Object, kind string) (*ojson.Object, string) {
	if el == nil {
		return nil, ""
	}
	cd, ok := el.Object("customData")
	if !ok {
		return nil, ""
	}
	if rec, ok := cd.Object(DshKey); ok && scene.StringOf(rec, "kind") == kind {
		return rec, DshKey
	}
	if rec, ok := cd.Object(nestedKey(kind)); ok && scene.StringOf(rec, "kind") == kind {
		return rec, nestedKey(kind)
	}
	return nil, ""
}

// Tag sets the live element id's tag of kind to rec (nil removes it),
// where the tag convention puts it: in customData.dsh, unless that holds
// another kind's tag, which stays; then under nestedKey(kind). So one
// element can be part of two structures (a table that is a stack's
// item), each keeper reading its own tag.
func (tx *Txn) Tag(id, kind string, rec *ojson.Object, pointer string) error {
	return tx.do(func() error {
		tx.index()
		el, err := tx.liveAt(id, pointer)
		if err != nil {
			return err
		}
		old, key := tagOf(el, kind)
		if rec == nil {
			if old == nil {
				return nil
			}
			return tx.SetCustom(id, key, nil, pointer)
		}
		if key == "" {
			key = DshKey
			if cd, ok := el.Object("customData"); ok {
				if other, ok := cd.Object(DshKey); ok && scene.StringOf(other, "kind") != "" {
					key = nestedKey(kind)
				}
			}
		}
		return tx.SetCustom(id, key, rec, pointer)
	})
}

// Tagged reports whether a live element of doc is part of a structure a
// planner drew (it carries a dsh tag; a nested tag is only ever beside
// one): without one, no keeper has anything to keep.
func Tagged(doc *scene.Document) bool {
	for _, el := range doc.Elements() {
		if el == nil || scene.IsDeleted(el) {
			continue
		}
		if cd, ok := el.Object("customData"); ok {
			if rec, ok := cd.Object(DshKey); ok && scene.StringOf(rec, "kind") != "" {
				return true
			}
		}
	}
	return false
}
