package engine

import (
	"encoding/json"
	"strconv"

	"github.com/dshgo/dsh/internal/jsonpointer"
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
	// alone moves a frame without its children: a mover's own update,
	// which moves them itself (movePatch).
	alone bool
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
	return decodeEach(len(raws), "/operations", func(i int) (Op, error) { return decodeOp(raws[i], opPointer(i)) })
}

// decodeEach checks that there are 1 to MaxOperations operations (pointer
// locates them) and decodes each, stopping at the first error.
func decodeEach(n int, pointer string, decode func(i int) (Op, error)) ([]Op, error) {
	if n == 0 || n > MaxOperations {
		return nil, opError(pointer, "operations must hold 1 to %d entries, not %d", MaxOperations, n)
	}
	ops := make([]Op, n)
	for i := range ops {
		op, err := decode(i)
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
			return op, opError(ptr+"/"+jsonpointer.Escape(k), "unknown member %q for op %q", k, kind)
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
	id, _ := obj.String("id")
	patch, _ := obj.Object("patch")
	return updateOp(op, id, patch)
}

// updateOp is op an update of element id by patch (nil: none).
func updateOp(op Op, id string, patch *ojson.Object) (Op, error) {
	op, err := withID(op, id)
	if err != nil {
		return op, err
	}
	if patch == nil || patch.Len() == 0 {
		return op, opError(op.pointer+"/patch", "update needs a non-empty patch object")
	}
	op.patch = patch
	return op, nil
}

func decodeID(op Op, obj *ojson.Object) (Op, error) {
	id, _ := obj.String("id")
	return withID(op, id)
}

// withID is op naming element id, which must not be empty.
func withID(op Op, id string) (Op, error) {
	if id == "" {
		return op, opError(op.pointer+"/id", "%s needs the element id as a non-empty string", op.kind)
	}
	op.id = id
	return op, nil
}

// Update is one element's patch, as update_elements gives it: the patch
// of an update operation (see Op), typed.
type Update struct {
	ID    string          `json:"id"`
	Patch json.RawMessage `json:"patch"`
}

// Update runs updates as Apply runs update operations, checked first as
// DecodeOps checks those; pointer locates the updates in the caller's
// request (update i at pointer/<i>).
func (tx *Txn) Update(updates []Update, pointer string) error {
	ops, err := decodeEach(len(updates), pointer, func(i int) (Op, error) {
		var patch *ojson.Object
		if v, err := ojson.Decode(updates[i].Patch, ojson.Limits{}); err == nil {
			patch, _ = v.(*ojson.Object)
		}
		return updateOp(Op{kind: opUpdate, pointer: pointer + "/" + strconv.Itoa(i)}, updates[i].ID, patch)
	})
	if err != nil {
		return err
	}
	return tx.Apply(ops)
}

// Delete deletes the elements ids as Apply runs delete operations,
// checked first as DecodeOps checks those; pointer locates the ids in the
// caller's request (id i at pointer/<i>).
func (tx *Txn) Delete(ids []string, pointer string) error {
	ops, err := decodeEach(len(ids), pointer, func(i int) (Op, error) {
		return withID(Op{kind: opDelete, pointer: pointer + "/" + strconv.Itoa(i)}, ids[i])
	})
	if err != nil {
		return err
	}
	return tx.Apply(ops)
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
