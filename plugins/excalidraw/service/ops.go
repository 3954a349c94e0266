package service

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Operation kinds. The shapes, each closed (no other members):
//
//	{"op":"add","element":<element input, see build.InputSchema>}
//	{"op":"update","id":"<element id>","patch":{<visual fields, see patch.go>}}
//	{"op":"delete","id":"<element id>"}
const (
	OpAdd    = "add"
	OpUpdate = "update"
	OpDelete = "delete"
)

// MaxOperations bounds one Apply call (contract 4.4).
const MaxOperations = 500

// operation is one decoded operation; pointer locates it in the request.
type operation struct {
	kind    string
	id      string
	element json.RawMessage
	patch   *ojson.Object
	pointer string
}

// opMembers are the members each kind allows.
var opMembers = map[string]map[string]bool{
	OpAdd:    {"op": true, "element": true},
	OpUpdate: {"op": true, "id": true, "patch": true},
	OpDelete: {"op": true, "id": true},
}

// decodeOps checks the shape of every operation before any runs, so a
// malformed last operation costs nothing.
func decodeOps(raws []json.RawMessage) ([]operation, error) {
	if len(raws) == 0 || len(raws) > MaxOperations {
		return nil, opError("/operations", "operations must hold 1 to %d entries, not %d", MaxOperations, len(raws))
	}
	ops := make([]operation, len(raws))
	for i, raw := range raws {
		op, err := decodeOp(raw, opPointer(i))
		if err != nil {
			return nil, err
		}
		ops[i] = op
	}
	return ops, nil
}

func decodeOp(raw json.RawMessage, ptr string) (operation, error) {
	op := operation{pointer: ptr}
	obj, err := decodeObject(raw, ptr)
	if err != nil {
		return op, err
	}
	if obj == nil {
		return op, opError(ptr, "an operation must be an object")
	}
	kind, ok := obj.String("op")
	if !ok || opMembers[kind] == nil {
		return op, opError(ptr+"/op", `op must be "add", "update" or "delete"`)
	}
	op.kind = kind
	for _, k := range obj.Keys() {
		if !opMembers[kind][k] {
			return op, opError(ptr+"/"+escape(k), "unknown member %q for op %q", k, kind)
		}
	}
	switch kind {
	case OpAdd:
		return decodeAdd(op, obj)
	case OpUpdate:
		return decodeUpdate(op, obj)
	}
	return decodeID(op, obj)
}

func decodeAdd(op operation, obj *ojson.Object) (operation, error) {
	el, ok := obj.Object("element")
	if !ok {
		return op, opError(op.pointer+"/element", "add needs an element object")
	}
	b, err := ojson.Marshal(el)
	if err != nil {
		return op, opError(op.pointer+"/element", "element does not encode: %v", err)
	}
	op.element = b
	return op, nil
}

func decodeUpdate(op operation, obj *ojson.Object) (operation, error) {
	op, err := decodeID(op, obj)
	if err != nil {
		return op, err
	}
	patch, ok := obj.Object("patch")
	if !ok || patch.Len() == 0 {
		return op, opError(op.pointer+"/patch", "update needs a non-empty patch object")
	}
	op.patch = patch
	return op, nil
}

func decodeID(op operation, obj *ojson.Object) (operation, error) {
	id, ok := obj.String("id")
	if !ok || id == "" {
		return op, opError(op.pointer+"/id", "%s needs the element id as a non-empty string", op.kind)
	}
	op.id = id
	return op, nil
}
