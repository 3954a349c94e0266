package build

import (
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// fieldSchema is the value schema of field name, the same for every type
// (a branch may bound it further).
func fieldSchema(name string) *ojson.Object {
	switch name {
	case "id":
		// The pattern bounds the length too.
		return typed("string").Set("pattern", idPattern)
	case "x", "y", "height":
		return defRef("coord")
	case "width":
		return defRef("coord").Set("description", "Lines, arrows: with height, points [[0,0],[width,height]].")
	case "angle":
		return typed("number").Set("description", "Radians, clockwise.")
	case "roundness":
		return enumOf(roundnessKinds)
	case "label":
		// The values; the type that takes a label closes it, with the
		// fields its labels have (labelClosure).
		return defRef("text").Set("required", []any{"text"})
	case "text":
		return str(1, 0)
	case "fontSize":
		return numRange(minFontSize, maxFontSize)
	case "fontFamily":
		return fontFamilySchema()
	case "textAlign":
		return enumOf(textAligns)
	case "verticalAlign":
		return enumOf(verticalAligns)
	case "points":
		point := typed("array").Set("items", defRef("coord")).Set("minItems", 2).Set("maxItems", 2)
		return typed("array").Set("description", "[[x,y],...] relative to x/y.").
			Set("items", point).Set("minItems", 2).Set("maxItems", maxPoints)
	case "startArrowhead", "endArrowhead":
		return defRef("arrowhead")
	case "startElementId", "endElementId":
		return defRef(DefRef)
	case "pressures":
		return typed("array").Set("items", numRange(0, 1)).Set("maxItems", maxPoints)
	case "simulatePressure", "locked":
		return typed("boolean")
	case "elbowed":
		return typed("boolean").Set("description", "Orthogonal segments routed around shapes.")
	case "fileId":
		return defRef(DefRef)
	case "scale":
		return typed("array").Set("description", "Flip: 1 keeps, -1 mirrors.").
			Set("items", ojson.New().Set("enum", []any{-1, 1})).
			Set("minItems", 2).Set("maxItems", 2)
	case "strokeColor", "backgroundColor":
		return str(1, maxColorLength)
	case "fillStyle":
		return enumOf(fillStyles)
	case "strokeWidth":
		return typed("number").Set("exclusiveMinimum", 0).Set("maximum", maxStrokeWidth)
	case "strokeStyle":
		return enumOf(strokeStyles)
	case "roughness":
		vals := make([]any, len(roughnesses))
		for i, r := range roughnesses {
			vals[i] = r
		}
		return ojson.New().Set("enum", vals)
	case "opacity":
		return typed("integer").Set("minimum", 0).Set("maximum", 100)
	case "groupIds":
		return typed("array").Set("items", defRef(DefRef)).Set("maxItems", maxGroups).Set("uniqueItems", true)
	case "frameId":
		return ojson.New().Set("type", []any{"string", "null"}).Set("minLength", 1).Set("maxLength", maxRefLength)
	case "link":
		return ojson.New().Set("type", []any{"string", "null"}).Set("maxLength", maxLinkLength)
	}
	panic("build: no schema for field " + name)
}

// schemaDefs are the shared pieces of InputSchema, by name.
func schemaDefs() *ojson.Object {
	text := ojson.New()
	for _, name := range labelFields {
		text.Set(name, fieldSchema(name))
	}
	fields := ojson.New()
	for _, name := range allFields() {
		if !slices.Contains(labelFields, name) {
			fields.Set(name, fieldSchema(name))
		}
	}
	return ojson.New().
		Set(DefFields, defRef("text").Set("properties", fields)).
		Set("text", ojson.New().Set("properties", text)).
		Set("arrowhead", arrowheadSchema()).
		Set("coord", numRange(-maxCoord, maxCoord)).
		Set(DefRef, str(1, maxRefLength))
}

// defRef is a reference to the $defs member name.
func defRef(name string) *ojson.Object {
	return ojson.New().Set("$ref", "#/$defs/"+name)
}

// fontFamilySchema accepts a font's id or its name (ids are numbers and
// names strings, so one enum holds both).
func fontFamilySchema() *ojson.Object {
	vals := []any{}
	for _, f := range fontFamilies {
		vals = append(vals, f.id)
	}
	for _, f := range fontFamilies {
		vals = append(vals, f.name)
	}
	return ojson.New().Set("enum", vals).Set("description", "Id or name; default 5, excalifont.")
}

// arrowheadSchema is an arrowhead, or null for none.
func arrowheadSchema() *ojson.Object {
	vals := []any{}
	for _, a := range arrowheads {
		vals = append(vals, a)
	}
	return ojson.New().Set("enum", append(vals, nil))
}

// Small schema constructors.

// typed is {"type": t}.
func typed(t string) *ojson.Object { return ojson.New().Set("type", t) }

func str(minLen, maxLen int) *ojson.Object {
	o := typed("string")
	if minLen > 0 {
		o.Set("minLength", minLen)
	}
	if maxLen > 0 {
		o.Set("maxLength", maxLen)
	}
	return o
}

func numRange(lo, hi float64) *ojson.Object {
	return typed("number").Set("minimum", lo).Set("maximum", hi)
}

func enumOf(vals []string) *ojson.Object {
	e := make([]any, len(vals))
	for i, v := range vals {
		e[i] = v
	}
	return ojson.New().Set("enum", e)
}
