package lint

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// opaque: a shape whose fill hides what is below it.
func opaque(e *el) bool {
	if !fillable(e) {
		return false
	}
	c, _ := parseColor(e.bg)
	return c.a*e.opacity/100 >= opaqueAlpha
}

// content: what occlusion can hide. A box's label counts as its
// container (which is reported instead); frames are not drawn content.
func (s *scene) content(e *el) bool {
	if isFrame(e.typ) {
		return false
	}
	if c := s.containerOf(e); c != nil && c.typ != "arrow" {
		return false
	}
	return true
}

// occlusions: an opaque shape drawn over an element it covers entirely.
func (s *scene) occlusions() {
	for _, e := range s.subjects() {
		i := e.idx
		if !e.finite || !opaque(e) || !s.subject(i) {
			continue
		}
		poly := e.outline()
		s.query(e.box, s.content, func(o *el) {
			if o == e || o.z >= e.z || !e.box.Contains(o.box) {
				return
			}
			for _, p := range []geom.Vec{geom.V(o.box.MinX, o.box.MinY), geom.V(o.box.MaxX, o.box.MinY), geom.V(o.box.MaxX, o.box.MaxY), geom.V(o.box.MinX, o.box.MaxY)} {
				if d, in := geom.BoundaryDistance(poly, p); !in && d > 1e-6 {
					return
				}
			}
			s.report(CodeOcclusion, []string{e.id, o.id},
				map[string]any{"action": "reorder", "id": o.id, "above": e.id},
				"%s is hidden under the opaque fill of %s, which is drawn above it", s.name(o), s.name(e))
		})
	}
}

// outliers: elements far away from all the others.
func (s *scene) outliers() {
	// The two most extreme items (finite elements that are not labels)
	// on each side give, for every item, the box of all the others in
	// O(1). An item that is not the most extreme on any side lies within
	// the box of the others, so only those can be far from the rest.
	type ext struct {
		best, second int
		v1, v2       float64 // their values: -MinX, -MinY, MaxX, MaxY
	}
	sides := [4]ext{{-1, -1, 0, 0}, {-1, -1, 0, 0}, {-1, -1, 0, 0}, {-1, -1, 0, 0}}
	n := 0
	for i, e := range s.els {
		if !e.finite || s.isLabel(e) {
			continue
		}
		n++
		b := e.box
		for k, v := range [4]float64{-b.MinX, -b.MinY, b.MaxX, b.MaxY} {
			x := &sides[k]
			switch {
			case x.best < 0 || v > x.v1:
				x.second, x.v2, x.best, x.v1 = x.best, x.v1, i, v
			case x.second < 0 || v > x.v2:
				x.second, x.v2 = i, v
			}
		}
	}
	if n < outlierMinElements {
		return
	}
	var extremes []int
	for _, x := range sides {
		extremes = append(extremes, x.best)
	}
	slices.Sort(extremes)
	for _, i := range slices.Compact(extremes) {
		e := s.els[i]
		if !s.inScope(e.id) {
			continue
		}
		var v [4]float64
		for k, x := range sides {
			v[k] = x.v1
			if x.best == i {
				v[k] = x.v2
			}
		}
		others := geom.R(-v[0], -v[1], v[2], v[3])
		gap := e.box.Gap(others)
		limit := math.Max(outlierMinGap, outlierDiagonalFactor*others.Diagonal())
		if gap <= limit {
			continue
		}
		var dx, dy float64
		switch {
		case e.box.MaxX < others.MinX:
			dx = others.MinX - outlierMoveMargin - e.box.MaxX
		case e.box.MinX > others.MaxX:
			dx = others.MaxX + outlierMoveMargin - e.box.MinX
		}
		switch {
		case e.box.MaxY < others.MinY:
			dy = others.MinY - outlierMoveMargin - e.box.MaxY
		case e.box.MinY > others.MaxY:
			dy = others.MaxY + outlierMoveMargin - e.box.MinY
		}
		s.report(CodeOffCanvas, []string{e.id}, map[string]any{"action": "move", "id": e.id, "dx": round2(dx), "dy": round2(dy)},
			"%s is %.0f px away from the rest of the drawing", s.name(e), gap)
	}
}

// familyNames are Excalidraw's font family ids.
var familyNames = map[int]string{1: "Virgil", 2: "Helvetica", 3: "Cascadia", 4: "Assistant", 5: "Excalifont",
	6: "Nunito", 7: "Lilita One", 8: "Comic Shanns", 9: "Liberation Sans"}

func familyName(f int) string {
	if n, ok := familyNames[f]; ok {
		return n
	}
	return fmt.Sprintf("family %d", f)
}

// tally counts keys and orders them by count (most first), then key.
func tally[K ~int | ~string](keys iter.Seq[K]) ([]K, map[K]int) {
	n := map[K]int{}
	var order []K
	for k := range keys {
		if n[k] == 0 {
			order = append(order, k)
		}
		n[k]++
	}
	slices.SortFunc(order, func(a, b K) int {
		if n[a] != n[b] {
			return n[b] - n[a]
		}
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	})
	return order, n
}

// fontKey is the font family fonts counts of an element, ok false for
// none (not a text, blank, or no finite fontFamily).
func fontKey(e *elData) (family int, ok bool) {
	if e.typ != "text" || e.blank || !e.hasFontFamily || !finite(e.fontFamily) {
		return 0, false
	}
	return int(e.fontFamily), true
}

// fonts: too many typefaces.
func (s *scene) fonts() {
	var texts []*el
	var fams []int
	for _, e := range s.els {
		if f, ok := fontKey(e.elData); ok {
			texts = append(texts, e)
			fams = append(fams, f)
		}
	}
	order, n := tally(slices.Values(fams))
	if len(order) <= maxFontFamilies {
		return
	}
	keep := order[:maxFontFamilies]
	var ids []string
	for i, e := range texts {
		if !slices.Contains(keep, fams[i]) {
			ids = append(ids, e.id)
		}
	}
	var parts []string
	for _, f := range order {
		parts = append(parts, fmt.Sprintf("%s ×%d", familyName(f), n[f]))
	}
	parts = capList(parts)
	s.report(CodeTooManyFonts, ids, map[string]any{"action": "set", "ids": sortedClone(ids), "field": "fontFamily", "value": order[0]},
		"the text uses %d font families (%s); %d texts use other than the %d most common", len(order), strings.Join(parts, ", "), len(ids), maxFontFamilies)
}

// strokeColors: too many colours.
func (s *scene) strokeColors() {
	order, n := tally(func(yield func(string) bool) {
		for _, e := range s.els {
			if e.strokeKey != "" && !yield(e.strokeKey) {
				return
			}
		}
	})
	if len(order) <= maxStrokeColors {
		return
	}
	keep := order[:maxStrokeColors]
	var ids []string
	for _, e := range s.els {
		if e.strokeKey != "" && !slices.Contains(keep, e.strokeKey) {
			ids = append(ids, e.id)
		}
	}
	var parts []string
	for _, c := range order {
		parts = append(parts, fmt.Sprintf("%s ×%d", c, n[c]))
	}
	parts = capList(parts)
	s.report(CodeTooManyStrokeColors, ids, nil,
		"%d stroke colours are used (%s); %d elements use other than the %d most common", len(order), strings.Join(parts, ", "), len(ids), maxStrokeColors)
}

// capList keeps a message's list to eight entries.
func capList(parts []string) []string {
	if len(parts) <= 8 {
		return parts
	}
	return append(parts[:8:8], fmt.Sprintf("%d more", len(parts)-8))
}

func sortedClone(ids []string) []string {
	c := slices.Clone(ids)
	slices.Sort(c)
	return slices.Compact(c)
}
