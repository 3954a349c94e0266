package build

// The closed vocabularies of Excalidraw 0.18.1's element fields. The
// schema offers exactly these and the builder writes nothing else, so
// restore never has to replace a value it does not know.

// elementTypes are the types an agent can create, in schema order.
var elementTypes = []string{"rectangle", "ellipse", "diamond", "text", "arrow", "line", "freedraw", "image"}

// knownButNotCreatable are Excalidraw types the builder refuses
// (unsupported_element) rather than calling them unknown.
var knownButNotCreatable = map[string]bool{
	"frame": true, "magicframe": true, "embeddable": true, "iframe": true, "selection": true,
}

var (
	fillStyles     = []string{"hachure", "cross-hatch", "solid", "zigzag"}
	strokeStyles   = []string{"solid", "dashed", "dotted"}
	roughnesses    = []int{0, 1, 2}
	textAligns     = []string{"left", "center", "right"}
	verticalAligns = []string{"top", "middle", "bottom"}
	roundnessKinds = []string{"round", "sharp"}
	// arrowheads are the values types.ts lists for 0.18, less the legacy
	// "dot". The crowfoot ones are renamed in later Excalidraw versions,
	// whose restore migrates them.
	arrowheads = []string{
		"arrow", "bar", "circle", "circle_outline", "triangle", "triangle_outline",
		"diamond", "diamond_outline", "crowfoot_one", "crowfoot_many", "crowfoot_one_or_many",
	}
)

// isShape reports whether t is one of the three box shapes that can carry
// a label.
func isShape(t string) bool {
	return t == "rectangle" || t == "ellipse" || t == "diamond"
}

// bindableTypes are the element types an arrow may bind to in 0.18.1
// (ExcalidrawBindableElement).
var bindableTypes = map[string]bool{
	"rectangle": true, "diamond": true, "ellipse": true, "text": true, "image": true,
	"iframe": true, "embeddable": true, "frame": true, "magicframe": true,
}
