package agenttools

import (
	"encoding/json"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// The tool schemas are sized for the tools/list budget (see
// TestToolsListBudget): rules in the schema, one short line of
// description where a name does not say enough, and the rest in the
// agent guide (docs/agent-guide-draft.md). Each schema is self-contained:
// the pieces the element input and the operations share sit in the
// schema's own root "$defs".

// creatableTypes are the element types agents can add. They are read from
// build.InputSchema rather than repeated here, so the schema and the
// builder cannot drift apart.
func creatableTypes() []any {
	root := decodeSchema(build.InputSchema())
	props, _ := root.Object("properties")
	typ, _ := props.Object("type")
	enum, _ := typ.Array("enum")
	return enum
}

// decodeSchema decodes a schema the service or builder produced; they are
// generated in-process, so a failure is a programming error.
func decodeSchema(b []byte) *ojson.Object {
	v, err := ojson.Decode(b, ojson.Limits{})
	if err != nil {
		panic("agenttools: schema does not decode: " + err.Error())
	}
	obj, ok := v.(*ojson.Object)
	if !ok {
		panic("agenttools: schema is not an object")
	}
	obj.Delete("$schema")
	return obj
}

// relaxElement changes the element input schema el (build.InputSchema,
// decoded) in one way: a "type" outside the creatable set passes the
// schema, so that the builder can refuse it as unsupported_element, the
// code the HTTP API gives for the same input. The closed union of the
// creatable types moves into a branch of its own, beside a branch that
// takes any other type; a creatable type still has to match its closed
// branch exactly, and cannot match the other, so oneOf stays
// unambiguous.
func relaxElement(el *ojson.Object) {
	types := creatableTypes()
	names := make([]string, len(types))
	for i, t := range types {
		names[i], _ = t.(string)
	}
	creatable := ojson.New()
	for _, k := range []string{"$ref", "unevaluatedProperties", "oneOf"} {
		v, _ := el.Get(k)
		creatable.Set(k, v)
		el.Delete(k)
	}
	other := ojson.New().Set("properties", ojson.New().Set("type", ojson.New().Set("not", ojson.New().Set("enum", types))))
	props, _ := el.Object("properties")
	props.Set("type", typed("string").Set("description", strings.Join(names, ", ")+"."))
	el.Set("oneOf", []any{creatable, other})
}

// elementDefs are create's $defs: the relaxed element input first, as
// "element", then the pieces it refers to.
func elementDefs() *ojson.Object {
	el := decodeSchema(build.InputSchema())
	shared, _ := el.Object("$defs")
	el.Delete("$defs")
	relaxElement(el)
	defs := ojson.New().Set("element", el)
	shared.Range(func(k string, v any) bool {
		defs.Set(k, v)
		return true
	})
	return defs
}

// stripDescriptions removes every "description" keyword under the $defs
// object defs; a property that happens to be called "description" stays.
func stripDescriptions(defs *ojson.Object) {
	var schema func(v any)
	members := func(o *ojson.Object) {
		o.Range(func(_ string, v any) bool {
			schema(v)
			return true
		})
	}
	schema = func(v any) {
		switch n := v.(type) {
		case *ojson.Object:
			n.Delete("description")
			n.Range(func(k string, c any) bool {
				if p, ok := c.(*ojson.Object); ok && (k == "properties" || k == "$defs") {
					members(p)
				} else {
					schema(c)
				}
				return true
			})
		case []any:
			for _, c := range n {
				schema(c)
			}
		}
	}
	members(defs)
}

// operationSchema is service.OperationSchema split into the union of
// operations and the $defs it refers to, which apply's root carries. The
// element input there is relaxed (see relaxElement) and, as the apply
// description sends the agent to excalidraw_scene_create for it, has no
// descriptions: only the rules, the same as create's.
func operationSchema() (op, defs *ojson.Object) {
	op = decodeSchema(service.OperationSchema())
	op.Delete("title")
	defs, _ = op.Object("$defs")
	op.Delete("$defs")
	el, _ := defs.Object("element")
	relaxElement(el)
	stripDescriptions(defs)
	return op, defs
}

// object is a closed object schema: unknown argument names are typos the
// agent should hear about, not silently ignored members.
func object(required []any, props *ojson.Object) *ojson.Object {
	o := ojson.New().Set("type", "object")
	if len(required) > 0 {
		o.Set("required", required)
	}
	return o.Set("properties", props).Set("additionalProperties", false)
}

func typed(t string) *ojson.Object { return ojson.New().Set("type", t) }

func str(desc string) *ojson.Object { return typed("string").Set("description", desc) }

// nameSchema deliberately has no pattern: the service checks names and
// answers invalid_name, on this surface and on HTTP alike.
func nameSchema() *ojson.Object { return typed("string") }

func requestIDSchema() *ojson.Object { return str("Idempotency key.") }

// appStateSchema is the canvas settings; apply merges them over the
// stored ones (read_me says so).
func appStateSchema() *ojson.Object {
	return object(nil, ojson.New().
		Set("viewBackgroundColor", typed("string")).
		Set("gridSize", ojson.New().Set("type", []any{"number", "null"})).
		Set("gridModeEnabled", typed("boolean")))
}

func filesSchema() *ojson.Object {
	file := object([]any{"id", "mimeType", "dataURL"}, ojson.New().
		Set("id", typed("string")).
		Set("mimeType", typed("string")).
		Set("dataURL", str("data: URL, base64.")).
		Set("created", typed("number")))
	return typed("object").Set("description", "Images by file id, for image elements' fileId.").
		Set("additionalProperties", file)
}

func listSchema() *ojson.Object { return object(nil, ojson.New()) }

func readSchema() *ojson.Object {
	return object([]any{"name"}, ojson.New().
		Set("name", nameSchema()).
		Set("include", typed("string").Set("enum", []any{service.IncludeFull, service.IncludeSummary}).
			Set("default", service.IncludeFull)).
		Set("element_type", str(`Summary only: just this type.`)))
}

func createSchema() *ojson.Object {
	return object([]any{"name"}, ojson.New().
		Set("name", nameSchema()).
		Set("elements", typed("array").Set("items", ojson.New().Set("$ref", "#/$defs/element"))).
		Set("app_state", appStateSchema()).
		Set("files", filesSchema()).
		Set("request_id", requestIDSchema())).
		Set("$defs", elementDefs())
}

func applySchema() *ojson.Object {
	op, defs := operationSchema()
	return object([]any{"name", "expected_revision", "operations"}, ojson.New().
		Set("name", nameSchema()).
		Set("expected_revision", typed("integer").Set("minimum", 0)).
		Set("operations", typed("array").Set("minItems", 1).Set("maxItems", service.MaxOperations).
			Set("items", op)).
		Set("app_state", appStateSchema()).
		Set("request_id", requestIDSchema())).
		Set("$defs", defs)
}

// applyListedSchema is apply's schema as tools/list shows it: the
// operations' shapes, with the element input and the patch told by
// reference to excalidraw_scene_create's element input, which
// tools/list carries once (a second copy here would cost every session
// about 4 KB). Calls are checked against applySchema.
func applyListedSchema() *ojson.Object {
	elem := typed("object").Set("description", "an element input, as in "+CreateTool)
	patch := typed("object").Set("minProperties", 1).Set("description", "fields to set, as in "+CreateTool+"'s element input")
	id := typed("string")
	op := func(name string) *ojson.Object { return ojson.New().Set("op", ojson.New().Set("const", name)) }
	ops := ojson.New().Set("oneOf", []any{
		object([]any{"op", "element"}, op("add").Set("element", elem)),
		object([]any{"op", "id", "patch"}, op("update").Set("id", id).Set("patch", patch)),
		object([]any{"op", "id"}, op("delete").Set("id", id)),
	})
	return object([]any{"name", "expected_revision", "operations"}, ojson.New().
		Set("name", nameSchema()).
		Set("expected_revision", typed("integer").Set("minimum", 0)).
		Set("operations", typed("array").Set("minItems", 1).Set("maxItems", service.MaxOperations).
			Set("items", ops)).
		Set("app_state", appStateSchema()).
		Set("request_id", requestIDSchema()))
}

func validateSchema() *ojson.Object {
	return object([]any{"scene"}, ojson.New().
		Set("scene", typed("object").Set("description", "A complete .excalidraw document.")))
}

// marshal encodes a schema built here; it only holds JSON values.
func marshal(o *ojson.Object) json.RawMessage {
	b, err := ojson.Marshal(o)
	if err != nil {
		panic("agenttools: schema does not encode: " + err.Error())
	}
	return b
}

// The board tools' schemas (boards.go). Titles, descriptions and folder
// names are checked by the service, which says what is allowed.
const (
	sTitle    = `"title":{"type":"string"}`
	sDesc     = `"description":{"type":"string"}`
	sFolderID = `"folderId":{"type":"string"}`
)

func listBoardsSchema() json.RawMessage { return schema(nil, `"trash":{"type":"boolean"}`) }

func createBoardSchema() json.RawMessage {
	return schema([]string{"name"}, sName, sTitle, sDesc, sFolderID)
}

func renameBoardSchema() json.RawMessage { return schema([]string{"name", "title"}, sName, sTitle) }

func describeBoardSchema() json.RawMessage {
	return schema([]string{"name", "description"}, sName, sDesc)
}

func createFolderSchema() json.RawMessage {
	return schema([]string{"name"}, `"name":{"type":"string","maxLength":200}`)
}

func moveBoardSchema() json.RawMessage {
	return schema([]string{"name", "folderId"}, sName, `"folderId":{"type":["string","null"]}`)
}
