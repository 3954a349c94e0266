package scene

import "slices"

// creatableTypes are the element types the plugin's tools can create: the
// eight drawing tools of the Excalidraw toolbar that produce plain JSON.
var creatableTypes = []string{"rectangle", "ellipse", "diamond", "arrow", "line", "text", "freedraw", "image"}

// keptTypes are read and written back untouched but never created: frames
// and embeds depend on editor features (frame clipping, iframes) the
// plugin does not drive.
var keptTypes = []string{"frame", "magicframe", "embeddable", "iframe"}

// legacyTypes are types old Excalidraw versions wrote that today's restore
// still accepts: "draw" (before 2020) becomes a line, and "selection" (the
// marquee, saved by mistake by old versions) is dropped. Neither holds a
// drawing the plugin could lose, so they get a warning instead of an error,
// but they are still not supported types.
var legacyTypes = map[string]string{
	"draw":      `Excalidraw migrates the legacy "draw" type to "line" when it opens the file`,
	"selection": `Excalidraw drops legacy "selection" elements when it opens the file`,
}

// CreatableTypes lists the element types tools may create.
func CreatableTypes() []string { return slices.Clone(creatableTypes) }

// SupportedTypes lists every element type the model reads and validates:
// the creatable ones plus frames and embeds, kept as they are.
func SupportedTypes() []string { return append(CreatableTypes(), keptTypes...) }

// IsCreatable reports whether tools may create elements of type t.
func IsCreatable(t string) bool { return slices.Contains(creatableTypes, t) }

// IsSupported reports whether elements of type t are read and validated.
func IsSupported(t string) bool { return IsCreatable(t) || slices.Contains(keptTypes, t) }

// HasPoints reports whether elements of type t are a polyline relative to
// their x and y (points): the linear ones, freedraw, and the legacy draw.
func HasPoints(t string) bool { return IsLinear(t) || t == "freedraw" || t == "draw" }

// IsLinear reports whether t is a linear element type (arrow, line): the
// elements that carry start/end bindings and arrowheads. It is the one
// test of it; build, engine, lint, query and render ask it here.
func IsLinear(t string) bool { return t == "arrow" || t == "line" }

// isTextContainer: what a bound text's containerId may point at (Excalidraw
// binds labels to these four types only).
func isTextContainer(t string) bool {
	return t == "rectangle" || t == "diamond" || t == "ellipse" || t == "arrow"
}

// isFrame: what an element's frameId may point at.
func isFrame(t string) bool { return t == "frame" || t == "magicframe" }
