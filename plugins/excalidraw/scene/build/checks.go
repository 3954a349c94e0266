package build

import (
	"unicode/utf8"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// checked is an input that passed the checks the schema cannot express,
// with the values those checks resolved.
type checked struct {
	*input
	index       int
	link        any // normalised link, nil for none
	fontFamily  int // of a text element
	labelFamily int // of the label
}

// checkInput applies the rules that need more than one field or the
// scene: text limits, links, path rules, and references to files and
// frames.
func checkInput(index int, in *input, ctx Context, sc scene) (*checked, error) {
	c := &checked{input: in, index: index}
	if err := checkColors(index, in); err != nil {
		return nil, err
	}
	var err error
	if c.link, err = normalizeLink(in.Link); err != nil {
		return nil, badInput(index, "/link", "%v", err)
	}
	if in.Text != nil {
		if err := checkTextLength(index, "/text", *in.Text, ctx.MaxTextLength); err != nil {
			return nil, err
		}
		c.fontFamily, _ = parseFontFamily(in.FontFamily)
	}
	if in.Label != nil {
		if err := checkTextLength(index, "/label/text", in.Label.Text, ctx.MaxTextLength); err != nil {
			return nil, err
		}
		c.labelFamily, _ = parseFontFamily(in.Label.FontFamily)
	}
	if err := checkPath(index, in); err != nil {
		return nil, err
	}
	if in.FileID != nil && !ctx.FileIDs[*in.FileID] {
		return nil, inputError(sceneerr.InvalidReference, index, "/fileId",
			"file %q is not in the scene; add the file first", *in.FileID)
	}
	if in.FrameID != nil {
		if !isFrame(sc, *in.FrameID) {
			return nil, inputError(sceneerr.InvalidReference, index, "/frameId",
				"no frame with id %q in the scene", *in.FrameID)
		}
	}
	return c, nil
}

// checkColors refuses a colour the editor would not draw (ValidColor),
// which would leave the element or its label invisible.
func checkColors(index int, in *input) error {
	colors := map[string]*string{"/strokeColor": in.StrokeColor, "/backgroundColor": in.BackgroundColor}
	if in.Label != nil {
		colors["/label/strokeColor"] = in.Label.StrokeColor
	}
	for _, p := range []string{"/strokeColor", "/backgroundColor", "/label/strokeColor"} {
		if v := colors[p]; v != nil && !ValidColor(*v) {
			return badInput(index, p, "%s", ColorProblem(*v))
		}
	}
	return nil
}

// checkTextLength enforces the context's text limit, in characters.
func checkTextLength(index int, pointer, text string, limit int) error {
	if limit <= 0 {
		return nil
	}
	if n := utf8.RuneCountInString(text); n > limit {
		return locate(sceneerr.OverLimit(sceneerr.MaxTextLength, int64(n), int64(limit)), index, pointer)
	}
	return nil
}

// checkPath enforces the path rules of lines, arrows and freedraw.
func checkPath(index int, in *input) error {
	if !model.IsLinear(in.Type) && in.Type != "freedraw" {
		return nil
	}
	if in.Points != nil && (in.Width != nil || in.Height != nil) {
		return badInput(index, "/points", "give points or width/height, not both")
	}
	if in.Type == "freedraw" && in.Pressures != nil && len(in.Pressures) != len(in.Points) {
		return badInput(index, "/pressures", "%d pressures for %d points; give one per point", len(in.Pressures), len(in.Points))
	}
	if in.Type == "arrow" {
		if err := checkArrowEnds(index, in); err != nil {
			return err
		}
	}
	bound := in.StartElementID != nil || in.EndElementID != nil
	if model.IsLinear(in.Type) && !bound && (in.X != nil && in.Y != nil) {
		if w, h := inputPath(in).size(); w == 0 && h == 0 {
			return badInput(index, "/points", "the points all coincide; a %s needs some length", in.Type)
		}
	}
	return nil
}

// checkArrowEnds enforces when an arrow may leave out x/y, and that a
// straight arrow does not bind both ends to one element (Excalidraw
// refuses that binding).
func checkArrowEnds(index int, in *input) error {
	routed := in.StartElementID != nil && in.EndElementID != nil &&
		in.Points == nil && in.Width == nil && in.Height == nil
	if in.X == nil && !routed {
		return badInput(index, "/x", "x is required unless both ends bind and no points or size are given")
	}
	if in.Y == nil && !routed {
		return badInput(index, "/y", "y is required unless both ends bind and no points or size are given")
	}
	if (in.X == nil) != (in.Y == nil) {
		return badInput(index, "/x", "give both x and y, or neither")
	}
	if in.StartElementID != nil && in.EndElementID != nil && *in.StartElementID == *in.EndElementID && len(in.Points) < 3 {
		return badInput(index, "/endElementId",
			"a straight arrow cannot bind both ends to the same element; give at least 3 points to loop back")
	}
	return nil
}

// isFrame reports whether id names a live frame of the scene.
func isFrame(sc scene, id string) bool {
	f, ok := sc.live(id)
	if !ok {
		return false
	}
	t, _ := f.String("type")
	return t == "frame" || t == "magicframe"
}
