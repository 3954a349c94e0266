package scene

// shape is the JSON shape a field must have.
type shape int

const (
	shapeNumber        shape = iota // finite number
	shapeString                     // string
	shapeBool                       // boolean
	shapeStringOrNull               // string or null
	shapeStrings                    // array of strings
	shapeBoundElements              // null or array of {id, type}
	shapePoints                     // array of [x, y]
	shapeBinding                    // null or {elementId, ...}
	shapeNumbers                    // array of numbers
	shapeScale                      // [sx, sy]
	shapeRoundness                  // null or {type: number, ...}
	shapeObjectOrNull               // object or null
	shapeAny                        // checked elsewhere (index)
	shapeColor                      // string of at most MaxColorLength characters
)

// nullable reports whether null is a legal value of the shape. For the
// other shapes, null is treated like an absent member, as restore's
// `??` and `||` defaults do.
func (s shape) nullable() bool {
	switch s {
	case shapeStringOrNull, shapeBoundElements, shapeBinding, shapeRoundness, shapeObjectOrNull, shapeAny:
		return true
	}
	return false
}

// fieldRule describes one element field.
type fieldRule struct {
	name  string
	shape shape
	// missing is the severity of an absent (or, for non-nullable shapes,
	// null) field: warning when restore fills in a default, error when it
	// cannot, "" when the field is optional.
	missing Severity
	// values, for a string field, are the values Excalidraw knows; others
	// are kept and rendered with a fallback, hence a warning.
	values []string
}

const (
	optional = Severity("")
	warn     = SeverityWarning
	required = SeverityError
)

var (
	fillStyles     = []string{"hachure", "cross-hatch", "solid", "zigzag"}
	strokeStyles   = []string{"solid", "dashed", "dotted"}
	textAligns     = []string{"left", "center", "right"}
	verticalAligns = []string{"top", "middle", "bottom"}
	imageStatuses  = []string{"pending", "saved", "error"}
)

// baseRules apply to every supported element (types.ts's
// _ExcalidrawElementBase). id and type are checked by checkIDs and
// checkShapes. Everything here that restore defaults is a warning when
// missing: old files (2020–2023) lack updated, link, locked, index,
// frameId and boundElements, and open fine.
var baseRules = []fieldRule{
	{"x", shapeNumber, warn, nil},
	{"y", shapeNumber, warn, nil},
	{"width", shapeNumber, warn, nil},
	{"height", shapeNumber, warn, nil},
	{"angle", shapeNumber, warn, nil},
	{"strokeColor", shapeColor, warn, nil},
	{"backgroundColor", shapeColor, warn, nil},
	{"fillStyle", shapeString, warn, fillStyles},
	{"strokeWidth", shapeNumber, warn, nil},
	{"strokeStyle", shapeString, warn, strokeStyles},
	{"roughness", shapeNumber, warn, nil},
	{"opacity", shapeNumber, warn, nil},
	{"seed", shapeNumber, warn, nil},
	{"version", shapeNumber, warn, nil},
	{"versionNonce", shapeNumber, warn, nil},
	{"isDeleted", shapeBool, warn, nil},
	{"groupIds", shapeStrings, warn, nil},
	{"boundElements", shapeBoundElements, warn, nil},
	{"updated", shapeNumber, warn, nil},
	{"link", shapeStringOrNull, warn, nil},
	{"locked", shapeBool, warn, nil},
	{"index", shapeAny, warn, nil}, // shape checked by checkIndices
	{"frameId", shapeStringOrNull, warn, nil},
	{"roundness", shapeRoundness, optional, nil}, // legacy files use strokeSharpness
	{"customData", shapeObjectOrNull, optional, nil},
}

// textRules: restore keeps fontSize and fontFamily as they are (there is
// no default for them), so a text without them cannot be laid out.
var textRules = []fieldRule{
	{"text", shapeString, warn, nil},
	{"fontSize", shapeNumber, required, nil},
	{"fontFamily", shapeNumber, required, nil},
	{"textAlign", shapeString, warn, textAligns},
	{"verticalAlign", shapeString, warn, verticalAligns},
	{"containerId", shapeStringOrNull, warn, nil},
	{"originalText", shapeString, warn, nil},
	{"lineHeight", shapeNumber, warn, nil},
	{"autoResize", shapeBool, optional, nil},
}

// linearRules: restore synthesizes a two-point segment from width and
// height when points are missing, and nulls missing bindings.
var linearRules = []fieldRule{
	{"points", shapePoints, warn, nil},
	{"startBinding", shapeBinding, warn, nil},
	{"endBinding", shapeBinding, warn, nil},
	{"startArrowhead", shapeStringOrNull, optional, nil},
	{"endArrowhead", shapeStringOrNull, optional, nil},
	{"elbowed", shapeBool, optional, nil},
}

// freedrawRules: a stroke without points has no shape at all.
var freedrawRules = []fieldRule{
	{"points", shapePoints, required, nil},
	{"pressures", shapeNumbers, warn, nil},
	{"simulatePressure", shapeBool, optional, nil},
}

// imageRules: fileId is checked by checkImageFiles, which knows whether
// the element is deleted.
var imageRules = []fieldRule{
	{"fileId", shapeStringOrNull, optional, nil},
	{"status", shapeString, warn, imageStatuses},
	{"scale", shapeScale, warn, nil},
	{"crop", shapeObjectOrNull, optional, nil},
}

var frameRules = []fieldRule{
	{"name", shapeStringOrNull, optional, nil},
}

// rulesFor returns the type-specific rules of a supported type.
func rulesFor(t string) []fieldRule {
	switch t {
	case "text":
		return textRules
	case "arrow", "line":
		return linearRules
	case "freedraw":
		return freedrawRules
	case "image":
		return imageRules
	case "frame", "magicframe":
		return frameRules
	}
	return nil
}
