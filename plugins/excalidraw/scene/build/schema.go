package build

import (
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

// InputSchema returns the JSON Schema (draft 2020-12) of one element
// input: an object whose "type" picks one of eight branches, each closed
// with additionalProperties:false. The schema is self-contained (no $ref),
// because tool-calling clients handle inlined schemas most reliably. The
// returned bytes are a fresh copy.
func InputSchema() []byte {
	b, err := ojson.Marshal(rootSchema())
	if err != nil {
		panic("build: schema does not encode: " + err.Error())
	}
	return b
}

// rootSchema is the discriminated union of every branch.
func rootSchema() *ojson.Object {
	branches := make([]any, 0, len(elementTypes))
	for _, t := range elementTypes {
		branches = append(branches, branchSchema(t))
	}
	return ojson.New().
		Set("$schema", schemaDialect).
		Set("title", "Excalidraw element input").
		Set("description", "One element to create. \"type\" selects the fields that apply; unknown fields are rejected. "+
			"Omitted style fields take Excalidraw's defaults (strokeColor #1e1e1e, backgroundColor transparent, fillStyle solid, "+
			"strokeWidth 2, strokeStyle solid, roughness 1, opacity 100).").
		Set("type", "object").
		Set("required", []any{"type"}).
		Set("properties", ojson.New().Set("type", enumOf("Element type.", elementTypes))).
		Set("oneOf", branches)
}

// branchSchema is the closed object schema of one element type.
func branchSchema(t string) *ojson.Object {
	props := ojson.New()
	for _, name := range fieldsFor(t) {
		props.Set(name, propertySchema(t, name))
	}
	required := []any{}
	for _, name := range requiredFor(t) {
		required = append(required, name)
	}
	return ojson.New().
		Set("title", t).
		Set("description", typeDescriptions[t]).
		Set("type", "object").
		Set("properties", props).
		Set("required", required).
		Set("additionalProperties", false)
}

// typeDescriptions explain each branch to the agent.
var typeDescriptions = map[string]string{
	"rectangle": "A rectangle. 100x100 unless width/height are given (omitted sides grow to fit a label).",
	"ellipse":   "An ellipse inscribed in the x/y/width/height box. 100x100 unless width/height are given (omitted sides grow to fit a label).",
	"diamond":   "A diamond inscribed in the x/y/width/height box. 100x100 unless width/height are given (omitted sides grow to fit a label).",
	"text":      "Free text, measured with the font's metrics. x/y anchor the text according to textAlign and verticalAlign.",
	"arrow":     "An arrow. Give points, or width/height (a straight arrow from x,y), or bind both ends with startElementId/endElementId to get a straight arrow between the two elements' outlines.",
	"line":      "A line (no bindings). Give points, or width/height for a straight line from x,y.",
	"freedraw":  "A freehand stroke through points.",
	"image":     "An image showing a file already in the scene (fileId).",
}

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
			"startArrowhead", "endArrowhead", "roundness", "label")
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
