package lint

import (
	"fmt"
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// scopedTexts are what a per-text rule looks at: every element without a
// scope (the rules check the type), else the texts in scope themselves
// or through their container, in array order, found from the scope and
// the reference index and listed on first use.
func (s *scene) scopedTexts() []*el {
	if s.opts.Scope == nil {
		return s.els
	}
	if s.texts == nil {
		to := s.references().to
		s.texts = s.inOrder(func(yield func(int)) {
			for id := range s.opts.Scope {
				if i, ok := s.byID[id]; ok && s.els[i].typ == "text" {
					yield(i)
				}
				for _, i := range to[id] {
					if e := s.els[i]; e.typ == "text" && e.container == id {
						yield(i)
					}
				}
			}
		})
	}
	return s.texts
}

// fontOf is a text's family and size as the editor falls back: an
// unknown family is measured as the default one, a missing size as 20.
func fontOf(e *el) (textmetrics.FontFamily, float64) {
	fam := textmetrics.FontFamily(e.fontFamily)
	if !textmetrics.Known(fam) {
		fam = textmetrics.DefaultFamily
	}
	fs := e.fontSize
	if !e.hasFontSize || !(fs > 0) || !finite(fs) {
		fs = textmetrics.DefaultFontSize
	}
	return fam, fs
}

// textOverflows: text that needs more room than its box gives it.
func (s *scene) textOverflows() {
	for _, e := range s.scopedTexts() {
		if e.typ != "text" || !e.finite || e.blank {
			continue
		}
		if c := s.containerOf(e); c != nil {
			if (c.typ != "rectangle" && c.typ != "ellipse" && c.typ != "diamond") || !c.finite || c.w <= 0 || c.h <= 0 {
				continue
			}
			lay := build.LayoutLabel(c.o, e.o)
			if lay.ContainerWidth <= c.w+overflowTolerance && lay.ContainerHeight <= c.h+overflowTolerance {
				continue
			}
			w, h := math.Max(c.w, lay.ContainerWidth), math.Max(c.h, lay.ContainerHeight)
			s.report(CodeTextOverflow, []string{c.id, e.id},
				map[string]any{"action": "resize", "id": c.id, "width": round2(w), "height": round2(h)},
				"the label of %s needs a %g × %g container, but it is %g × %g", s.name(c), round2(w), round2(h), round2(c.w), round2(c.h))
			continue
		}
		if ar, ok := e.o.Bool("autoResize"); !ok || ar || e.w <= 0 {
			continue // an auto-sized text's box follows its text
		}
		// A fixed-width text: the editor re-wraps originalText to the
		// width on open (FitText). It overflows when the lines it stores
		// are wider than the box (what it shows will change) or when the
		// re-wrapped text is taller than the box.
		fam, fs := fontOf(e)
		m := textmetrics.MeasureLineHeight(e.txt, fam, fs, build.LineHeightOf(e.o))
		fit := build.FitText(e.o)
		if m.Width <= e.w+overflowTolerance && fit.Height <= e.h+overflowTolerance {
			continue
		}
		w, h := math.Max(e.w, math.Ceil(m.Width)), math.Max(e.h, m.Height)
		if m.Width <= e.w+overflowTolerance {
			h = math.Max(e.h, fit.Height)
		}
		s.report(CodeTextOverflow, []string{e.id},
			map[string]any{"action": "resize", "id": e.id, "width": round2(w), "height": round2(h)},
			"%s has a fixed width of %g but needs %g × %g for its text", s.name(e), round2(e.w), round2(w), round2(h))
	}
}

// labelsWiderThanArrows: an arrow label that hides its arrow.
func (s *scene) labelsWiderThanArrows() {
	for _, e := range s.scopedTexts() {
		c := s.containerOf(e)
		if c == nil || c.typ != "arrow" || len(c.pts) < 2 || e.blank {
			continue
		}
		length := geom.PolylineLength(c.pts)
		chord := c.pts[len(c.pts)-1].Sub(c.pts[0])
		if length < minLinearLength || chord.Len() == 0 {
			continue // zero_length says it
		}
		lay := build.LayoutLabel(c.o, e.o)
		cos, sin := math.Abs(chord.X/chord.Len()), math.Abs(chord.Y/chord.Len())
		extent := lay.Width*cos + lay.Height*sin
		if extent <= labelArrowFactor*length {
			continue
		}
		s.report(CodeLabelWiderThanArrow, []string{c.id, e.id}, nil,
			"the label of %s is %g px long along the arrow, which is only %g px long", s.name(c), round2(extent), round2(length))
	}
}

// tinyTexts: text too small to read at zoom 100% and at the zoom the
// texts around it are read at: below minReadableFontSize and below
// tinyPeerRatio of their median size. A small table or a board shrunk as
// a whole, every text the same small size, is drawn to be read zoomed in.
func (s *scene) tinyTexts() {
	var all []float64 // every text's size, when a text has no peer near
	sceneSizes := func() []float64 {
		if all == nil {
			all = []float64{}
			for _, e := range s.els {
				if sized(e) {
					all = append(all, e.fontSize)
				}
			}
		}
		return all
	}
	for _, e := range s.scopedTexts() {
		if e.typ != "text" || e.blank {
			continue
		}
		fs := e.fontSize
		if !e.hasFontSize || !finite(fs) || fs <= 0 || fs >= minReadableFontSize {
			continue
		}
		var peers []float64
		s.query(e.box.Expand(tinyPeerReach), func(p *el) bool { return p != e && sized(p) }, func(p *el) {
			peers = append(peers, p.fontSize)
		})
		around := "the texts around it"
		if len(peers) == 0 {
			peers, around = slices.Clone(sceneSizes()), "the scene's texts"
			if i := slices.Index(peers, fs); i >= 0 {
				peers = slices.Delete(peers, i, i+1) // itself
			}
		}
		typical := median(peers)
		if len(peers) > 0 && fs >= tinyPeerRatio*typical {
			continue
		}
		ids := []string{e.id}
		if c := s.containerOf(e); c != nil {
			ids = append(ids, c.id)
		}
		why := "too small to read at 100%"
		if len(peers) > 0 {
			why = fmt.Sprintf("too small to read at 100%% and well below the %g of %s", round2(typical), around)
		}
		s.report(CodeTinyText, ids, map[string]any{"action": "set", "id": e.id, "field": "fontSize", "value": suggestedFontSize},
			"%s has font size %g, %s", s.name(e), round2(fs), why)
	}
}

// sized: a text with something to show and a usable font size.
func sized(e *el) bool {
	return e.typ == "text" && !e.blank && e.hasFontSize && finite(e.fontSize) && e.fontSize > 0
}

// median is the middle of xs (the mean of the two middle ones), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	c := slices.Clone(xs)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

// fillable: shapes whose solid fill is a backdrop for text.
func fillable(e *el) bool {
	if e.typ != "rectangle" && e.typ != "ellipse" && e.typ != "diamond" {
		return false
	}
	if e.fill != "solid" || e.w <= 0 || e.h <= 0 {
		return false
	}
	c, ok := parseColor(e.bg)
	return ok && c.a > 0 && e.opacity > 0
}

// backdrop is the colour drawn at p beneath z: the solid fills of the
// shapes under it composited over the canvas, and the topmost of those
// shapes (nil for the bare canvas).
func (s *scene) backdrop(p geom.Vec, z float64, depth int) (rgba, *el) {
	if depth > 4 {
		return s.canvas, nil
	}
	var top *el
	s.query(geom.R(p.X, p.Y, p.X, p.Y), fillable, func(f *el) {
		if f.z >= z || (top != nil && f.z <= top.z) {
			return
		}
		if _, in := geom.BoundaryDistance(f.outline(), p); in {
			top = f
		}
	})
	if top == nil {
		return s.canvas, nil
	}
	c, _ := parseColor(top.bg)
	under, _ := s.backdrop(p, top.z, depth+1)
	return c.fade(top.opacity).over(under), top
}

// inks are the colours a low_contrast suggestion picks from: Excalidraw's
// default ink, white, then black. Against any backdrop black or white
// reaches 4.58:1, above contrastFix.
var inks = []string{"#1e1e1e", "#ffffff", "#000000"}

// inkFor is the first ink that reaches need on bg at the text's opacity,
// else the one with the most contrast.
func inkFor(bg rgba, opacity, need float64) string {
	best, bestRatio := inks[0], 0.0
	for _, ink := range inks {
		c, _ := parseColor(ink)
		r := contrast(c.fade(opacity).over(bg), bg)
		if r >= need {
			return ink
		}
		if r > bestRatio {
			best, bestRatio = ink, r
		}
	}
	return best
}

// lowContrast: text hard to tell from what is behind it: below
// contrastMin whatever its size (see there why not WCAG AA), below
// contrastPairMin for a shade of the hue of the fill behind it.
func (s *scene) lowContrast() {
	for _, e := range s.subjects() {
		i := e.idx
		if e.typ != "text" || !e.finite || e.blank || !s.subject(i) {
			continue
		}
		tc, ok := parseColor(e.stroke)
		if !ok {
			continue
		}
		bg, behind := s.backdrop(e.box.Center(), e.z, 0)
		shown := tc.fade(e.opacity).over(bg)
		ratio := contrast(shown, bg)
		need := contrastMin
		if behind != nil && sameHue(tc, bg) {
			need = contrastPairMin
		}
		if ratio >= need {
			continue
		}
		ids := []string{e.id}
		against := "the canvas"
		if behind != nil {
			ids = append(ids, behind.id)
			against = "the fill of " + s.name(behind)
		}
		sug := map[string]any{"action": "set", "id": e.id, "field": "strokeColor", "value": inkFor(bg, e.opacity, contrastFix)}
		if e.opacity < 100 && contrast(tc.over(bg), bg) >= contrastFix {
			sug["field"], sug["value"] = "opacity", 100 // its colour reads; the fading does not
		}
		faded := ""
		if e.opacity < 100 {
			faded = fmt.Sprintf(" at opacity %g", round2(e.opacity))
		}
		s.report(CodeLowContrast, ids, sug,
			"%s (colour %s%s) has contrast %.2f:1 against %s, below %g:1: hard to read; set its %s to %v",
			s.name(e), e.stroke, faded, ratio, against, need, sug["field"], sug["value"])
	}
}
