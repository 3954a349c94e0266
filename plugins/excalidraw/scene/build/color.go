package build

import (
	"fmt"
	"strings"
)

// ValidColor reports whether s is a colour Excalidraw draws: a hex colour
// (#rgb, #rgba, #rrggbb or #rrggbbaa), a CSS Color 4 named colour, or
// "transparent", names in any case. Anything else (#12345, "rgb(…)" typos,
// "bleu") the canvas drops silently, which leaves the element and its label
// invisible; agents' colours are checked against this before any work.
func ValidColor(s string) bool {
	if h, ok := strings.CutPrefix(s, "#"); ok {
		switch len(h) {
		case 3, 4, 6, 8:
		default:
			return false
		}
		for i := 0; i < len(h); i++ {
			if !isHex(h[i]) {
				return false
			}
		}
		return true
	}
	_, ok := cssColorNames[strings.ToLower(s)]
	return ok
}

// ColorProblem says why s is not a colour (ValidColor), in the words an
// agent's error carries.
func ColorProblem(s string) string {
	return fmt.Sprintf("%q is not a colour; use #rgb, #rrggbb (or with alpha), a CSS name, or transparent", s)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// cssColorNames are CSS Color Module Level 4's named colours and
// "transparent", lower case.
var cssColorNames = setOf(
	"transparent",
	"aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black",
	"blanchedalmond", "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse",
	"chocolate", "coral", "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan",
	"darkgoldenrod", "darkgray", "darkgreen", "darkgrey", "darkkhaki", "darkmagenta",
	"darkolivegreen", "darkorange", "darkorchid", "darkred", "darksalmon", "darkseagreen",
	"darkslateblue", "darkslategray", "darkslategrey", "darkturquoise", "darkviolet", "deeppink",
	"deepskyblue", "dimgray", "dimgrey", "dodgerblue", "firebrick", "floralwhite", "forestgreen",
	"fuchsia", "gainsboro", "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow",
	"grey", "honeydew", "hotpink", "indianred", "indigo", "ivory", "khaki", "lavender",
	"lavenderblush", "lawngreen", "lemonchiffon", "lightblue", "lightcoral", "lightcyan",
	"lightgoldenrodyellow", "lightgray", "lightgreen", "lightgrey", "lightpink", "lightsalmon",
	"lightseagreen", "lightskyblue", "lightslategray", "lightslategrey", "lightsteelblue",
	"lightyellow", "lime", "limegreen", "linen", "magenta", "maroon", "mediumaquamarine",
	"mediumblue", "mediumorchid", "mediumpurple", "mediumseagreen", "mediumslateblue",
	"mediumspringgreen", "mediumturquoise", "mediumvioletred", "midnightblue", "mintcream",
	"mistyrose", "moccasin", "navajowhite", "navy", "oldlace", "olive", "olivedrab", "orange",
	"orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise", "palevioletred",
	"papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple", "rebeccapurple",
	"red", "rosybrown", "royalblue", "saddlebrown", "salmon", "sandybrown", "seagreen", "seashell",
	"sienna", "silver", "skyblue", "slateblue", "slategray", "slategrey", "snow", "springgreen",
	"steelblue", "tan", "teal", "thistle", "tomato", "turquoise", "violet", "wheat", "white",
	"whitesmoke", "yellow", "yellowgreen",
)

func setOf(names ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(names))
	for _, n := range names {
		m[n] = struct{}{}
	}
	return m
}
