package agenttools

import (
	"encoding/json"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

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

// elementSchema is build.InputSchema with one change: a "type" outside the
// creatable set passes the schema (through a ninth oneOf branch) so that
// the builder can refuse it as unsupported_element, the code the HTTP API
// gives for the same input. A creatable type still has to match its closed
// branch exactly; the extra branch cannot match it because it excludes
// those types, so oneOf stays unambiguous.
func elementSchema() *ojson.Object {
	el := decodeSchema(build.InputSchema())
	types := creatableTypes()
	names := make([]string, len(types))
	for i, t := range types {
		names[i], _ = t.(string)
	}
	props, _ := el.Object("properties")
	props.Set("type", ojson.New().Set("type", "string").
		Set("description", "Element type: "+strings.Join(names, ", ")+"."))
	branches, _ := el.Array("oneOf")
	other := ojson.New().
		Set("title", "other").
		Set("description", "Any other type (frame, embeddable, iframe, …) is refused by the server with unsupported_element.").
		Set("type", "object").
		Set("properties", ojson.New().Set("type", ojson.New().Set("not", ojson.New().Set("enum", types))))
	el.Set("oneOf", append(branches, other))
	return el
}

// operationSchema is service.OperationSchema with the relaxed element
// schema in its add branch, for the same reason as elementSchema.
func operationSchema() *ojson.Object {
	op := decodeSchema(service.OperationSchema())
	op.Delete("title")
	branches, _ := op.Array("oneOf")
	for _, b := range branches {
		br, _ := b.(*ojson.Object)
		props, _ := br.Object("properties")
		if props != nil && props.Has("element") {
			props.Set("element", elementSchema())
		}
	}
	return op
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

func str(desc string) *ojson.Object {
	return ojson.New().Set("type", "string").Set("description", desc)
}

// nameSchema deliberately has no pattern: the service checks names and
// answers invalid_name, on this surface and on HTTP alike.
func nameSchema() *ojson.Object {
	return str("Scene name: 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit, no \"..\" (the file is <name>.excalidraw).")
}

func requestIDSchema() *ojson.Object {
	return str("Optional idempotency key (your own unique string). Retrying with the same request_id after a timeout or lost response never writes twice: it returns the first call's result with duplicate:true.")
}

func appStateSchema(desc string) *ojson.Object {
	return object(nil, ojson.New().
		Set("viewBackgroundColor", str("Canvas background CSS color, e.g. \"#ffffff\".")).
		Set("gridSize", ojson.New().Set("type", []any{"number", "null"}).Set("description", "Grid step in pixels, or null for none.")).
		Set("gridModeEnabled", ojson.New().Set("type", "boolean").Set("description", "Whether the grid is shown and snapped to."))).
		Set("description", desc)
}

func filesSchema() *ojson.Object {
	file := object([]any{"id", "mimeType", "dataURL"}, ojson.New().
		Set("id", str("The file id; must equal its key in files.")).
		Set("mimeType", str("Image MIME type, e.g. \"image/png\".")).
		Set("dataURL", str("The image as a data: URL (base64).")).
		Set("created", ojson.New().Set("type", "number").Set("description", "Creation time, milliseconds since the epoch.")))
	return ojson.New().Set("type", "object").
		Set("description", "Image attachments keyed by file id; image elements refer to them by fileId.").
		Set("additionalProperties", file)
}

func listSchema() *ojson.Object { return object(nil, ojson.New()) }

func readSchema() *ojson.Object {
	return object([]any{"name"}, ojson.New().
		Set("name", nameSchema()).
		Set("include", ojson.New().Set("type", "string").Set("enum", []any{service.IncludeFull, service.IncludeSummary}).
			Set("default", service.IncludeFull).
			Set("description", "full returns the whole .excalidraw document; summary returns only id, type, geometry and text of live elements plus file ids, which is much cheaper.")).
		Set("element_type", str("Summary mode only: list only elements of this type (e.g. \"arrow\").")))
}

func createSchema() *ojson.Object {
	return object([]any{"name"}, ojson.New().
		Set("name", nameSchema()).
		Set("elements", ojson.New().Set("type", "array").Set("items", elementSchema()).
			Set("description", "Elements to create, in drawing order. Give ids to elements you want arrows to bind to (startElementId/endElementId).")).
		Set("app_state", appStateSchema("Optional canvas settings.")).
		Set("files", filesSchema()).
		Set("request_id", requestIDSchema()))
}

func applySchema() *ojson.Object {
	return object([]any{"name", "expected_revision", "operations"}, ojson.New().
		Set("name", nameSchema()).
		Set("expected_revision", ojson.New().Set("type", "integer").Set("minimum", 0).
			Set("description", "The scene's revision from your most recent read, list or write. If the scene changed since, the call fails with revision_conflict and details.currentRevision.")).
		Set("operations", ojson.New().Set("type", "array").Set("minItems", 1).Set("maxItems", service.MaxOperations).
			Set("items", operationSchema()).
			Set("description", "Operations applied in one all-or-nothing change: adds first, then updates and deletes in order.")).
		Set("app_state", appStateSchema("Optional canvas settings merged over the stored ones.")).
		Set("request_id", requestIDSchema()))
}

func validateSchema() *ojson.Object {
	return object([]any{"scene"}, ojson.New().
		Set("scene", ojson.New().Set("type", "object").
			Set("description", "A complete .excalidraw document: {type, version, source, elements, appState, files}.")))
}

// marshal encodes a schema built here; it only holds JSON values.
func marshal(o *ojson.Object) json.RawMessage {
	b, err := ojson.Marshal(o)
	if err != nil {
		panic("agenttools: schema does not encode: " + err.Error())
	}
	return b
}
