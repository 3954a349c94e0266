package build

import (
	"slices"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// schemaDialect is the JSON Schema draft the schema is written in.
const schemaDialect = "https://json-schema.org/draft/2020-12/schema"

// Limits that the schema states and the builder relies on.
const (
	// maxCoord bounds positions, sizes and points. Excalidraw logs
	// elements beyond ±1e6 as broken, so nothing legitimate goes further.
	maxCoord = 1e6
	// maxPoints bounds a line, arrow or freedraw path.
	maxPoints = 10000
	// maxIDLength bounds an agent-chosen id.
	maxIDLength = 64
	// maxRefLength bounds a reference to an existing element, group or
	// file, whose ids other programs may have written.
	maxRefLength = 256
	// maxColorLength bounds a CSS color string.
	maxColorLength = model.MaxColorLength
	// maxLinkLength bounds a link.
	maxLinkLength = 2048
	// maxGroups bounds groupIds.
	maxGroups = 32
	// minFontSize and maxFontSize bound fontSize.
	minFontSize, maxFontSize = 1, 1000
	// maxStrokeWidth bounds strokeWidth.
	maxStrokeWidth = 100
)

// idPattern is what an agent-chosen id must match.
const idPattern = "^[A-Za-z0-9_-]{1,64}$"

// Names of the $defs InputSchema carries that other schemas may use. A
// schema embedding the element input hoists InputSchema's $defs into its
// own root and may point at these as "#/$defs/" + the name.
const (
	// DefFields declares the value schema of every element field once
	// (no closure, no required): an update patch that refers to it holds
	// its values to the same rules as an add.
	DefFields = "fields"
	// DefRef is the id of an existing element, group or file.
	DefRef = "ref"
)

// InputSchema returns the JSON Schema (draft 2020-12) of one element
// input: an object whose "type" picks one branch of a oneOf.
//
// Every field's value schema is written once, under $defs/fields (the
// label's fields under $defs/text, which fields refers to). The element
// refers to it once, and each branch of the oneOf adds only what is
// particular to its types: the type, the required fields and a few
// tighter bounds (a box's size is positive). The element is closed with
// unevaluatedProperties:false, which counts the fields $defs/fields and
// the matching branch declare, and the label with
// additionalProperties:false, so an unknown name is refused at every
// level. Which of the known fields a type accepts (points on a
// rectangle, say) is the builder's check, with a message naming the
// field and the type: listing every type's fields here would cost more
// than a tool schema's budget allows.
//
// The schema is self-contained: every $ref points into its own $defs, so
// a schema that embeds it must hoist "$defs" into its own root. The
// returned bytes are a fresh copy.
func InputSchema() []byte {
	b, err := ojson.Marshal(rootSchema().Set("$defs", schemaDefs()))
	if err != nil {
		panic("build: schema does not encode: " + err.Error())
	}
	return b
}

// rootSchema is the element input without its $defs.
func rootSchema() *ojson.Object {
	var branches []any
	seen := map[string]bool{}
	for _, t := range elementTypes {
		if key := branchKey(t); !seen[key] {
			seen[key] = true
			branches = append(branches, branchBody(t))
		}
	}
	root := ojson.New().
		Set("$schema", schemaDialect).
		Set("type", "object").
		Set("required", []any{"type"}).
		Set("properties", ojson.New().Set("type", enumOf(elementTypes)))
	closedFields().Range(func(k string, v any) bool {
		root.Set(k, v)
		return true
	})
	return root.Set("oneOf", branches)
}

// closedFields refers to $defs/fields and refuses any other member.
func closedFields() *ojson.Object {
	return ojson.New().Set("$ref", "#/$defs/"+DefFields).Set("unevaluatedProperties", false)
}

// branchSchema is the branch of element type t as a standalone, closed
// schema (with the $defs it refers to), for the builder to validate one
// input.
func branchSchema(t string) *ojson.Object {
	return closedFields().Set("allOf", []any{branchBody(t)}).Set("$defs", schemaDefs())
}

// branchKey names the branch type t is validated by: the three box
// shapes share one.
func branchKey(t string) string {
	if isShape(t) {
		return "shape"
	}
	return t
}

// branchBody is the branch of type t: what sets it apart from the other
// types. It declares "type" and the fields it bounds further, so that the
// closure around it (closedFields) counts them.
func branchBody(t string) *ojson.Object {
	typ := ojson.New().Set("const", t)
	if isShape(t) {
		var shapes []string
		for _, s := range elementTypes {
			if isShape(s) {
				shapes = append(shapes, s)
			}
		}
		typ = enumOf(shapes)
	}
	props := ojson.New().Set("type", typ)
	positive := ojson.New().Set("exclusiveMinimum", 0)
	switch {
	case isShape(t), t == "image":
		props.Set("width", positive).Set("height", positive.Clone())
	case t == "text":
		props.Set("width", positive)
	case t == "arrow":
		// An arrow's label sits on its middle: no vertical alignment.
		props.Set("label", labelClosure(false))
	}
	if isShape(t) {
		props.Set("label", labelClosure(true))
	}
	required := []any{}
	for _, name := range requiredFor(t) {
		required = append(required, name)
	}
	b := ojson.New()
	if d := typeDescriptions[branchKey(t)]; d != "" {
		b.Set("description", d)
	}
	return b.Set("properties", props).Set("required", required)
}

// labelClosure is a branch's label: an object of its fields, with
// verticalAlign or without it (an arrow's), and nothing else. The value
// schemas are $defs/fields' label's; the closure is the branch's, so
// that a field a type's label lacks is left out rather than given the
// schema false, which some strict clients refuse as a property's schema.
func labelClosure(verticalAlign bool) *ojson.Object {
	props := ojson.New()
	for _, f := range labelFields {
		if f != "verticalAlign" || verticalAlign {
			props.Set(f, ojson.New())
		}
	}
	return typed("object").Set("properties", props).Set("additionalProperties", false)
}

// typeDescriptions explain a branch where its fields do not.
var typeDescriptions = map[string]string{
	"text":  "x/y is the anchor textAlign and verticalAlign name.",
	"arrow": "Give points, width/height, or two bound ends (x/y then optional).",
}

// allFields lists every field some type accepts, but "type", in schema
// order.
func allFields() []string {
	var out []string
	for _, t := range elementTypes {
		for _, f := range fieldsFor(t)[1:] {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// labelFields are the fields of a label, which text elements have too
// ($defs/text).
var labelFields = []string{"text", "fontSize", "fontFamily", "textAlign", "verticalAlign", "strokeColor"}

// styleFields are the style fields every type accepts.
var styleFields = []string{
	"strokeColor", "backgroundColor", "fillStyle", "strokeWidth", "strokeStyle", "roughness", "opacity",
}

// trailingFields close every branch.
var trailingFields = []string{"groupIds", "frameId", "link", "locked"}

// fieldsFor lists the properties type t accepts, in schema order.
func fieldsFor(t string) []string {
	f := []string{"type", "id", "x", "y"}
	switch {
	case isShape(t):
		f = append(f, "width", "height", "angle", "roundness", "label")
	case t == "text":
		f = append(f, "text", "fontSize", "fontFamily", "textAlign", "verticalAlign", "width", "angle")
	case t == "arrow":
		f = append(f, "points", "width", "height", "startElementId", "endElementId",
			"startArrowhead", "endArrowhead", "roundness", "label", "elbowed")
	case t == "line":
		f = append(f, "points", "width", "height", "startArrowhead", "endArrowhead", "roundness")
	case t == "freedraw":
		f = append(f, "points", "pressures", "simulatePressure")
	case t == "image":
		f = append(f, "fileId", "width", "height", "angle", "scale", "roundness")
	}
	f = append(f, styleFields...)
	return append(f, trailingFields...)
}

// requiredFor lists the properties type t must have. An arrow's x and y
// may be left out when both ends bind, since the route then decides them.
func requiredFor(t string) []string {
	switch t {
	case "arrow":
		return []string{"type"}
	case "text":
		return []string{"type", "x", "y", "text"}
	case "freedraw":
		return []string{"type", "x", "y", "points"}
	case "image":
		return []string{"type", "x", "y", "width", "height", "fileId"}
	}
	return []string{"type", "x", "y"}
}
