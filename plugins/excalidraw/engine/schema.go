package engine

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// OperationSchema returns the JSON Schema (draft 2020-12) of one Apply
// operation: a union of add, update and delete, each branch closed with
// additionalProperties:false, as are the patch and the embedded element
// input. The element input (build.InputSchema) sits under $defs/element,
// beside the $defs it shares, which the patch refers to for its values;
// every $ref points into the schema's own $defs, so it is
// self-contained, and a schema embedding it must hoist "$defs" into its
// root. Txn.Apply re-checks everything: the schema is a contract, not
// the security boundary.
func OperationSchema() json.RawMessage {
	b, err := ojson.Marshal(operationSchema())
	if err != nil {
		panic("engine: operation schema does not encode: " + err.Error())
	}
	return b
}

func operationSchema() *ojson.Object {
	el, err := ojson.Decode(build.InputSchema(), ojson.Limits{})
	if err != nil {
		panic("engine: element input schema does not decode: " + err.Error())
	}
	element := el.(*ojson.Object)
	element.Delete("$schema")
	elementDefs, _ := element.Object("$defs")
	element.Delete("$defs")
	defs := ojson.New().Set("element", element)
	elementDefs.Range(func(k string, v any) bool {
		defs.Set(k, v)
		return true
	})
	return ojson.New().
		Set("$schema", "https://json-schema.org/draft/2020-12/schema").
		Set("title", "Excalidraw scene operation").
		Set("oneOf", []any{addSchema(), updateSchema(), deleteSchema()}).
		Set("$defs", defs)
}

// ref points at the $defs member name.
func ref(name string) *ojson.Object { return ojson.New().Set("$ref", "#/$defs/"+name) }

func closed(required []any, props *ojson.Object) *ojson.Object {
	return ojson.New().Set("type", "object").Set("required", required).
		Set("properties", props).Set("additionalProperties", false)
}

func constOp(op string) *ojson.Object { return ojson.New().Set("const", op) }

func addSchema() *ojson.Object {
	return closed([]any{"op", "element"}, ojson.New().Set("op", constOp(opAdd)).Set("element", ref("element")))
}

func updateSchema() *ojson.Object {
	return closed([]any{"op", "id", "patch"},
		ojson.New().Set("op", constOp(opUpdate)).Set("id", ref(build.DefRef)).Set("patch", patchSchema()))
}

func deleteSchema() *ojson.Object {
	return closed([]any{"op", "id"}, ojson.New().Set("op", constOp(opDelete)).Set("id", ref(build.DefRef)))
}

// patchSchema is an update's patch: the fields patchFields knows, whose
// values the element input's $defs/fields states, as for an add, so an
// update cannot make what an add could not. Txn.Apply checks every
// value again with its own bounds (patchFields) and names the field; a
// field the type does not have (width on a text element) is only its
// check.
func patchSchema() *ojson.Object {
	props := ojson.New()
	for _, k := range patchKeys() {
		props.Set(k, ojson.New())
	}
	return ojson.New().Set("type", "object").Set("minProperties", 1).
		Set("$ref", "#/$defs/"+build.DefFields).
		Set("properties", props).Set("additionalProperties", false)
}
