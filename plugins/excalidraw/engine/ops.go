package engine

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Operation kinds (see Op).
const (
	opAdd    = "add"
	opUpdate = "update"
	opDelete = "delete"
)

// MaxOperations bounds one Apply call (contract 4.4).
const MaxOperations = 500

// Op is one operation of an Apply call whose shape DecodeOps checked.
// The shapes, each closed (no other members; OperationSchema states
// them):
//
//	{"op":"add","element":<element input, see build.InputSchema>}
//	{"op":"update","id":"<element id>","patch":{<visual fields, see OperationSchema>}}
//	{"op":"delete","id":"<element id>"}
type Op struct {
	kind    string
	id      string
	element json.RawMessage
	patch   *ojson.Object
	pointer string // where the operation is in the request
}

// opMembers are the members each kind allows.
var opMembers = map[string]map[string]bool{
	opAdd:    {"op": true, "element": true},
	opUpdate: {"op": true, "id": true, "patch": true},
	opDelete: {"op": true, "id": true},
}

// DecodeOps checks the shape of every operation of an Apply request (its
// "operations": 1 to MaxOperations of them) before any runs, so that a
// malformed last operation costs nothing, not even a read of the scene.
// Errors are invalid_operation located under /operations/<i>. Whether an
// operation fits the scene (its element exists, its patch values are in
// range) is for Txn.Apply to say.
func DecodeOps(raws []json.RawMessage) ([]Op, error) {
	if len(raws) == 0 || len(raws) > MaxOperations {
		return nil, opError("/operations", "operations must hold 1 to %d entries, not %d", MaxOperations, len(raws))
	}
	ops := make([]Op, len(raws))
	for i, raw := range raws {
		op, err := decodeOp(raw, opPointer(i))
		if err != nil {
			return nil, err
		}
		ops[i] = op
	}
	return ops, nil
}

func decodeOp(raw json.RawMessage, ptr string) (Op, error) {
	op := Op{pointer: ptr}
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
	case opAdd:
		return decodeAdd(op, obj)
	case opUpdate:
		return decodeUpdate(op, obj)
	}
	return decodeID(op, obj)
}

func decodeAdd(op Op, obj *ojson.Object) (Op, error) {
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

func decodeUpdate(op Op, obj *ojson.Object) (Op, error) {
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

func decodeID(op Op, obj *ojson.Object) (Op, error) {
	id, ok := obj.String("id")
	if !ok || id == "" {
		return op, opError(op.pointer+"/id", "%s needs the element id as a non-empty string", op.kind)
	}
	op.id = id
	return op, nil
}

// OpIDs lists the ids the update and delete operations name, in order:
// the existing elements a call changes for sure.
func OpIDs(ops []Op) []string {
	var ids []string
	for _, op := range ops {
		if op.kind != opAdd {
			ids = append(ids, op.id)
		}
	}
	return ids
}
