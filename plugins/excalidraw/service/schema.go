package service

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// OperationSchema returns the JSON Schema (draft 2020-12) of one Apply
// operation: a union of add, update and delete, each branch closed with
// additionalProperties:false, as is the patch and the embedded element
// input. It is self-contained (no $ref) because tool-calling clients
// handle inlined schemas best. The service re-checks everything: the
// schema is a contract, not the security boundary.
func OperationSchema() json.RawMessage {
	b, err := ojson.Marshal(operationSchema())
	if err != nil {
		panic("service: operation schema does not encode: " + err.Error())
	}
	return b
}

func operationSchema() *ojson.Object {
	return ojson.New().
		Set("$schema", "https://json-schema.org/draft/2020-12/schema").
		Set("title", "Excalidraw scene operation").
		Set("oneOf", []any{addSchema(), updateSchema(), deleteSchema()})
}

func closed(desc string, required []any, props *ojson.Object) *ojson.Object {
	return ojson.New().Set("type", "object").Set("description", desc).Set("required", required).
		Set("properties", props).Set("additionalProperties", false)
}

func constOp(op string) *ojson.Object { return ojson.New().Set("const", op) }

func idSchema() *ojson.Object {
	return ojson.New().Set("type", "string").Set("minLength", 1).Set("maxLength", maxRefLength)
}

func addSchema() *ojson.Object {
	el, err := ojson.Decode(build.InputSchema(), ojson.Limits{})
	if err != nil {
		panic("service: element input schema does not decode: " + err.Error())
	}
	obj := el.(*ojson.Object)
	obj.Delete("$schema")
	return closed("Add one element. Arrows may bind to elements added in the same call by their ids.",
		[]any{"op", "element"}, ojson.New().Set("op", constOp(OpAdd)).Set("element", obj))
}

func updateSchema() *ojson.Object {
	return closed("Change visual fields of one element. Moving or resizing a shape moves the ends of arrows bound to it and keeps its label centred.",
		[]any{"op", "id", "patch"},
		ojson.New().Set("op", constOp(OpUpdate)).Set("id", idSchema()).Set("patch", patchSchema()))
}

func deleteSchema() *ojson.Object {
	return closed("Delete one element; arrows bound to it are unbound and its label is deleted too.",
		[]any{"op", "id"}, ojson.New().Set("op", constOp(OpDelete)).Set("id", idSchema()))
}

func numberSchema(lo, hi float64) *ojson.Object {
	return ojson.New().Set("type", "number").Set("minimum", lo).Set("maximum", hi)
}

func enumSchema(values ...string) *ojson.Object {
	e := make([]any, len(values))
	for i, v := range values {
		e[i] = v
	}
	return ojson.New().Set("type", "string").Set("enum", e)
}

func patchSchema() *ojson.Object {
	color := ojson.New().Set("type", "string").Set("minLength", 1).Set("maxLength", maxColorLength)
	arrowhead := ojson.New().Set("anyOf", []any{ojson.New().Set("type", "null"), enumSchema(arrowheads...)})
	point := ojson.New().Set("type", "array").Set("prefixItems", []any{numberSchema(-maxCoord, maxCoord), numberSchema(-maxCoord, maxCoord)}).
		Set("minItems", 2).Set("maxItems", 2)
	props := ojson.New().
		Set("x", numberSchema(-maxCoord, maxCoord)).
		Set("y", numberSchema(-maxCoord, maxCoord)).
		Set("width", numberSchema(0, maxCoord).Set("description", "Not for text, line, arrow or freedraw (their size is derived).")).
		Set("height", numberSchema(0, maxCoord).Set("description", "Not for text, line, arrow or freedraw (their size is derived).")).
		Set("angle", numberSchema(-6.283185307179586, 6.283185307179586).Set("description", "Radians.")).
		Set("strokeColor", color).
		Set("backgroundColor", color).
		Set("fillStyle", enumSchema("hachure", "cross-hatch", "solid", "zigzag")).
		Set("strokeWidth", numberSchema(0.1, 100)).
		Set("strokeStyle", enumSchema("solid", "dashed", "dotted")).
		Set("roughness", numberSchema(0, 2)).
		Set("opacity", numberSchema(0, 100)).
		Set("roundness", enumSchema("round", "sharp")).
		Set("text", ojson.New().Set("type", "string").Set("minLength", 1).Set("description", "For text elements, and for shapes and arrows with a label (sets the label).")).
		Set("fontSize", numberSchema(1, 1000)).
		Set("fontFamily", ojson.New().Set("type", "integer").Set("enum", fontFamilies())).
		Set("textAlign", enumSchema("left", "center", "right")).
		Set("verticalAlign", enumSchema("top", "middle", "bottom")).
		Set("locked", ojson.New().Set("type", "boolean")).
		Set("link", ojson.New().Set("type", []any{"string", "null"}).Set("maxLength", maxLinkLength)).
		Set("groupIds", ojson.New().Set("type", "array").Set("maxItems", maxGroups).Set("items", idSchema())).
		Set("startArrowhead", arrowhead).
		Set("endArrowhead", arrowhead).
		Set("points", ojson.New().Set("type", "array").Set("minItems", 2).Set("maxItems", maxPoints).Set("items", point).
			Set("description", "For lines and arrows: [x, y] pairs relative to the element."))
	return ojson.New().Set("type", "object").Set("minProperties", 1).Set("properties", props).Set("additionalProperties", false)
}

// fontFamilies are the font family ids text can be measured in.
func fontFamilies() []any {
	var out []any
	for _, f := range textmetrics.Families() {
		out = append(out, int(f))
	}
	return out
}
