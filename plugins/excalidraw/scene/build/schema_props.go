package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// propertySchema is the schema of property name in type t's branch.
func propertySchema(t, name string) *ojson.Object {
	switch name {
	case "type":
		return ojson.New().Set("const", t).Set("description", "Element type.")
	case "id":
		return str("Optional id for this element, so arrows in the same call can bind to it. "+
			"Must not collide with an existing element. Generated (21 characters) when omitted.", 1, maxIDLength).
			Set("pattern", idPattern)
	case "x", "y":
		return coordSchema(t, name)
	case "width", "height":
		return sizeSchema(t, name)
	case "angle":
		return num("Rotation in radians, clockwise, about the element's centre. Default 0.")
	case "roundness":
		return enumOf("\"round\" for rounded corners (the editor's default for this type), \"sharp\" for none. "+
			"Omitted means the type's default.", roundnessKinds)
	case "label":
		return labelSchema(t)
	case "text":
		return str("The text. Newlines start new lines; tabs become 8 spaces.", 1, 0)
	case "fontSize":
		return numRange("Font size in pixels. Default 20.", minFontSize, maxFontSize)
	case "fontFamily":
		return fontFamilySchema()
	case "textAlign":
		return enumOf("Horizontal alignment. Default \"left\" (\"center\" for labels).", textAligns)
	case "verticalAlign":
		return enumOf("Vertical alignment. Default \"top\" (\"middle\" for labels).", verticalAligns)
	case "points":
		return pointsSchema(t)
	case "startArrowhead", "endArrowhead":
		return arrowheadSchema(t, name)
	case "startElementId", "endElementId":
		return str("Id of the element this end of the arrow binds to: an element created earlier or later in the same call, "+
			"or an existing one (rectangle, ellipse, diamond, text, image, frame, embeddable). "+
			"The end is placed on that element's outline, just outside it.", 1, maxRefLength)
	case "pressures":
		return ojson.New().Set("type", "array").
			Set("description", "Pen pressure per point, 0..1; same length as points. Omit to let Excalidraw simulate pressure.").
			Set("items", numRange("", 0, 1)).
			Set("maxItems", maxPoints)
	case "simulatePressure":
		return boolean("Let Excalidraw vary the stroke width by speed. Default: true without pressures, false with them.")
	case "fileId":
		return str("Id of a file already present in the scene.", 1, maxRefLength)
	case "scale":
		return ojson.New().Set("type", "array").
			Set("description", "Flip factors [x, y]: 1 keeps, -1 mirrors. Default [1, 1].").
			Set("items", ojson.New().Set("enum", []any{-1, 1})).
			Set("minItems", 2).Set("maxItems", 2)
	}
	return styleOrTrailingSchema(name)
}

// styleOrTrailingSchema covers the fields every type shares.
func styleOrTrailingSchema(name string) *ojson.Object {
	switch name {
	case "strokeColor":
		return str("Stroke (and text) color, a CSS color such as \"#1e1e1e\". Default \"#1e1e1e\" (\"transparent\" for images).", 1, maxColorLength)
	case "backgroundColor":
		return str("Fill color, a CSS color or \"transparent\". Default \"transparent\".", 1, maxColorLength)
	case "fillStyle":
		return enumOf("Fill pattern. Default \"solid\".", fillStyles)
	case "strokeWidth":
		return ojson.New().Set("type", "number").
			Set("description", "Stroke width in pixels. Default 2 (1 thin, 2 bold, 4 extra bold in the editor).").
			Set("exclusiveMinimum", 0).Set("maximum", maxStrokeWidth)
	case "strokeStyle":
		return enumOf("Stroke pattern. Default \"solid\".", strokeStyles)
	case "roughness":
		vals := make([]any, len(roughnesses))
		for i, r := range roughnesses {
			vals[i] = r
		}
		return ojson.New().Set("enum", vals).
			Set("description", "Sloppiness: 0 architect, 1 artist, 2 cartoonist. Default 1.")
	case "opacity":
		return ojson.New().Set("type", "integer").Set("description", "Opacity in percent. Default 100.").
			Set("minimum", 0).Set("maximum", 100)
	case "groupIds":
		return ojson.New().Set("type", "array").
			Set("description", "Groups the element belongs to, innermost first. Elements sharing a group id select and move together.").
			Set("items", str("", 1, maxRefLength)).
			Set("maxItems", maxGroups).Set("uniqueItems", true)
	case "frameId":
		return ojson.New().Set("type", []any{"string", "null"}).
			Set("description", "Id of an existing frame the element belongs to, or null.").
			Set("minLength", 1).Set("maxLength", maxRefLength)
	case "link":
		return ojson.New().Set("type", []any{"string", "null"}).
			Set("description", "A URL (http, https, mailto, ...) or a relative link opened from the element, or null. "+
				"javascript:, data: and vbscript: links are refused.").
			Set("maxLength", maxLinkLength)
	case "locked":
		return boolean("Lock the element against editing. Default false.")
	}
	panic("build: no schema for field " + name)
}

func coordSchema(t, name string) *ojson.Object {
	desc := "Scene " + name + " of the element's top-left corner (before rotation)."
	switch {
	case t == "text" && name == "x":
		desc = "Scene x of the text's anchor: its left edge for textAlign left, centre for center, right edge for right."
	case t == "text":
		desc = "Scene y of the text's anchor: its top for verticalAlign top, middle for middle, bottom for bottom."
	case isLinear(t) || t == "freedraw":
		desc = "Scene " + name + " that points are relative to (the first point lands here when it is [0, 0])."
		if t == "arrow" {
			desc += " May be omitted when both ends bind and no points or size are given."
		}
	}
	return numRange(desc, -maxCoord, maxCoord)
}

func sizeSchema(t, name string) *ojson.Object {
	switch {
	case isLinear(t):
		return numRange("Shorthand for points [[0, 0], [width, height]] when points are omitted; may be negative. Default 100 x 0.", -maxCoord, maxCoord)
	case t == "text":
		return ojson.New().Set("type", "number").
			Set("description", "Fixed width: the text wraps to it instead of growing to fit. Omit to fit the text.").
			Set("exclusiveMinimum", 0).Set("maximum", maxCoord)
	case t == "image":
		return ojson.New().Set("type", "number").Set("description", "Displayed "+name+" in pixels.").
			Set("exclusiveMinimum", 0).Set("maximum", maxCoord)
	}
	return ojson.New().Set("type", "number").
		Set("description", "Box "+name+" in pixels. Default 100; with a label, at least enough for the label "+
			"(on one line when width is omitted). A label taller than the box grows its height.").
		Set("exclusiveMinimum", 0).Set("maximum", maxCoord)
}

func labelSchema(t string) *ojson.Object {
	where := "centred in the shape and wrapped to its inner width"
	if t == "arrow" {
		where = "centred on the arrow's middle"
	}
	props := ojson.New().
		Set("text", str("Label text.", 1, 0)).
		Set("fontSize", numRange("Font size in pixels. Default 20.", minFontSize, maxFontSize)).
		Set("fontFamily", fontFamilySchema()).
		Set("textAlign", enumOf("Horizontal alignment. Default \"center\".", textAligns)).
		Set("verticalAlign", enumOf("Vertical alignment inside the shape. Default \"middle\".", verticalAligns)).
		Set("strokeColor", str("Text color. Default: the container's strokeColor.", 1, maxColorLength))
	if t == "arrow" {
		props.Delete("verticalAlign")
	}
	return ojson.New().Set("type", "object").
		Set("description", "Text bound to this element, "+where+".").
		Set("properties", props).
		Set("required", []any{"text"}).
		Set("additionalProperties", false)
}

func fontFamilySchema() *ojson.Object {
	ids := []any{}
	for _, f := range fontFamilies {
		ids = append(ids, f.id)
	}
	names := []any{}
	for _, f := range fontFamilies {
		names = append(names, f.name)
	}
	return ojson.New().
		Set("description", "Font: an Excalidraw font id or name. Default 5 (excalifont, hand-drawn). "+
			"1 virgil (old hand-drawn), 2 helvetica, 3 cascadia (code), 6 nunito, 7 lilita-one, 8 comic-shanns, 9 liberation-sans.").
		Set("oneOf", []any{
			ojson.New().Set("enum", ids),
			ojson.New().Set("enum", names),
		})
}

func pointsSchema(t string) *ojson.Object {
	desc := "Path as [[x, y], ...] relative to x/y. At least 2 points."
	if t == "arrow" {
		desc += " A bound end is snapped onto its element's outline along the adjacent segment."
	}
	point := ojson.New().Set("type", "array").
		Set("items", numRange("", -maxCoord, maxCoord)).
		Set("minItems", 2).Set("maxItems", 2)
	return ojson.New().Set("type", "array").
		Set("description", desc).
		Set("items", point).
		Set("minItems", 2).Set("maxItems", maxPoints)
}

func arrowheadSchema(t, name string) *ojson.Object {
	def := "null"
	if t == "arrow" && name == "endArrowhead" {
		def = "\"arrow\""
	}
	vals := []any{nil}
	for _, a := range arrowheads {
		vals = append(vals, a)
	}
	return ojson.New().Set("enum", vals).
		Set("description", "Arrowhead at this end, or null for none. Default "+def+".")
}

// Small schema constructors.

func str(desc string, minLen, maxLen int) *ojson.Object {
	o := ojson.New().Set("type", "string")
	if desc != "" {
		o.Set("description", desc)
	}
	if minLen > 0 {
		o.Set("minLength", minLen)
	}
	if maxLen > 0 {
		o.Set("maxLength", maxLen)
	}
	return o
}

func num(desc string) *ojson.Object {
	return ojson.New().Set("type", "number").Set("description", desc)
}

func numRange(desc string, lo, hi float64) *ojson.Object {
	o := ojson.New().Set("type", "number")
	if desc != "" {
		o.Set("description", desc)
	}
	return o.Set("minimum", lo).Set("maximum", hi)
}

func boolean(desc string) *ojson.Object {
	return ojson.New().Set("type", "boolean").Set("description", desc)
}

func enumOf(desc string, vals []string) *ojson.Object {
	e := make([]any, len(vals))
	for i, v := range vals {
		e[i] = v
	}
	return ojson.New().Set("enum", e).Set("description", desc)
}
