package lint

import "math"

// Every number a rule compares against lives here, with the reason for
// its value. Distances are scene pixels, which are screen pixels at zoom
// 100%.

// Overlap.
const (
	// overlapRatio: two shapes overlap when the intersection of their
	// rotated bounding boxes exceeds this fraction of the smaller box.
	// Below it the contact is a corner or an edge touching, which hand
	// layouts do on purpose (adjacent cells, a badge on a corner).
	overlapRatio = 0.15
	// nestedAreaRatio: a box lying wholly inside another whose area is at
	// most this fraction of the outer one is nested (a lane, a zone, a
	// card on a panel), not overlapping. Above it the two are nearly the
	// same box, which is a collision, not a composition.
	nestedAreaRatio = 0.8
	// coincideRatio: two shapes whose intersection is at least this
	// fraction of the larger one's box lie on one spot (one hides the
	// other). Below it, two shapes overlapping in part clear of their
	// labels are a composed picture unless a write just placed one of
	// them: on people's drawings every such overlap (a stack of sheets
	// at 59%, heads on bodies at 30–50%, a badge on a labelled circle at
	// 47%, a speech bubble's tail on a box at 18%) was drawn on purpose.
	coincideRatio = 0.8
	// separationMargin is the clearance a "move" suggestion leaves
	// between two shapes it pulls apart: Excalidraw's own snapping
	// distance for a visible gap.
	separationMargin = 10
)

// Text.
const (
	// overflowTolerance: text may stick out of its box by this much before
	// it is reported. Measurement is exact for Excalidraw's fonts, so the
	// tolerance only absorbs float rounding and whole-pixel glyph
	// rounding on some browsers.
	overflowTolerance = 1.0
	// labelArrowFactor: an arrow label whose extent along the arrow is
	// more than this fraction of the arrow's length leaves no shaft
	// visible on either side, so the label hides what it names.
	labelArrowFactor = 1.0
	// minReadableFontSize: text smaller than this (in scene px, i.e. as it
	// reads at zoom 100%) is below what people read comfortably on
	// screen; Excalidraw's smallest preset is 16.
	minReadableFontSize = 10
	// tinyPeerRatio and tinyPeerReach: a text below minReadableFontSize
	// is tiny only when it is also below 3/4 of the median size of the
	// texts within 300 px of it (of the scene's texts when none is that
	// near). A table or a note set all in 8 px is drawn to be read
	// zoomed in, as people's boards are (cells of 8.2 px among headers
	// of 8.2 px; a 7.5 px caption under 9 px lines); a 6.5 px footnote
	// under 16 px lines is not read at the zoom they are.
	tinyPeerRatio = 0.75
	tinyPeerReach = 300
	// suggestedFontSize is the size a tiny_text suggestion proposes:
	// Excalidraw's "S" preset.
	suggestedFontSize = 16
	// contrastMin: text whose contrast against what is behind it is
	// below this is hard to read at any size (pale grey #ced4da on white
	// is 1.49:1, light red #ffc9c9 1.45:1, yellow #ffd43b 1.43:1). It is
	// not WCAG AA's 4.5 (3.0 from 24 px): Excalidraw's palette pairs a
	// stroke shade with the light fill of its hue, and people write in
	// that shade on that fill on purpose and read it fine; its pairs are
	// 1.85:1 to 3.8:1 (orange #f08c00 on #ffd8a8 1.85, on yellow #ffec99
	// 2.09; green #2f9e44 on #b2f2bb 2.7; blue #1971c2 on #a5d8ff 3.3),
	// its grey #868e96 on white 3.3. On people's drawings every AA
	// finding from 2:1 up that was checked by eye was such a choice.
	contrastMin = 2.0
	// contrastPairMin is contrastMin for text in a shade of the hue of
	// the fill behind it (sameHue): such a pair is chosen, and reads, to
	// 1.6:1 (the Excalidraw MCP app's amber #f59e0b on Excalidraw's
	// #ffd8a8 1.60, green #22c55e on #b2f2bb 1.77, blue #4a9eed on
	// #a5d8ff 1.87, all read without effort in renders of people's
	// boards). Below 1.5 the letters fade into the fill.
	contrastPairMin = 1.5
	// minPairChroma and maxPairHueGap: two colours are shades of one hue
	// when both have a chroma (largest channel less smallest) of at least
	// 0.1, so neither is a grey, and hues at most 30° apart (a palette's
	// stroke shade and light fill of one hue differ by under 20°; red and
	// orange are 30° apart).
	minPairChroma = 0.1
	maxPairHueGap = 30.0
	// contrastFix is what a low_contrast suggestion's ink reaches: WCAG
	// AA for normal text, so the fix is plainly readable, not just over
	// the line.
	contrastFix = 4.5
	// opaqueAlpha: a colour or element whose effective alpha (colour alpha
	// × opacity/100) is at least this hides what is below it; 90 is the
	// opacity at which a fill no longer lets shapes beneath show through
	// legibly.
	opaqueAlpha = 0.9
)

// Binding and arrows.
const (
	// maxStaleIDs: the one stale_bound_entry finding of a scene names at
	// most this many of the elements carrying leftover entries (its
	// message counts them all): enough to find them, few enough that a
	// scene an old editor left with hundreds costs a line.
	maxStaleIDs = 20
	// bindingDistanceMin, bindingDistanceMax and bindingDistanceFraction
	// are Excalidraw 0.18.1's maxBindingGap at zoom 1: an arrow end within
	// max(16, min(0.25 × the smaller side, 32)) px of a shape's outline
	// (inside or outside; a diamond's side scaled by 1/√2) binds when a
	// person draws it, so an unbound end that close was meant to bind.
	bindingDistanceMin      = 16
	bindingDistanceMax      = 32
	bindingDistanceFraction = 0.25
	// minLinearLength: an arrow or line whose points all lie within this
	// distance of the first has no visible length (the builder's
	// minimum arrow length).
	minLinearLength = 1
	// crossingInset: an arrow passes through a shape when one of its
	// segments enters the shape deeper than this; a shallower cut is an
	// arrow grazing a corner, which reads as touching, not crossing.
	crossingInset = 4
)

// bindingDistance is the distance at which Excalidraw 0.18.1 binds an
// arrow end to a shape of this type and size (maxBindingGap at zoom 1).
func bindingDistance(typ string, w, h float64) float64 {
	ratio := 1.0
	if typ == "diamond" {
		ratio = 1 / math.Sqrt2
	}
	smaller := ratio * math.Min(math.Abs(w), math.Abs(h))
	return math.Max(bindingDistanceMin, math.Min(bindingDistanceFraction*smaller, bindingDistanceMax))
}

// Layout.
const (
	// outlierMinGap and outlierDiagonalFactor: an element is off-canvas
	// when the gap between it and the bounding box of all the others is
	// more than max(outlierMinGap, outlierDiagonalFactor × that box's
	// diagonal): far enough that "zoom to fit" shrinks the real drawing
	// to a speck. Only scenes with at least outlierMinElements elements
	// (labels not counted) have a cluster to be far from.
	outlierMinGap         = 4000
	outlierDiagonalFactor = 2
	outlierMinElements    = 3
	// outlierMoveMargin is how far beside the cluster a suggestion puts
	// an outlier back.
	outlierMoveMargin = 100
	// twinTolerance: two elements of the same type whose x, y, width and
	// height all differ by at most this (and that look the same) are one
	// element pasted or created twice; 1.5 px is invisible at any zoom a
	// person edits at.
	twinTolerance = 1.5
	// alignTolerance: edges or centres of two shapes in the same row or
	// column that differ by more than alignEpsilon and at most this were
	// probably meant to line up (Excalidraw snaps within a few px; a
	// hand-placed miss is 1–4 px).
	alignTolerance = 4.0
	// alignEpsilon: differences below this are float noise: aligned.
	alignEpsilon = 0.01
	// alignReach: shapes are in the same row (column) when their vertical
	// (horizontal) ranges overlap and they are at most this far apart
	// sideways; further apart, lining them up is not what the eye checks.
	alignReach = 300
	// nearMargin: with a scope, the spatial rules look at elements whose
	// box comes within this distance of a scoped element's box. It is at
	// least the largest binding distance, the farthest any spatial rule
	// but alignment (which queries with alignReach) relates two elements.
	nearMargin = bindingDistanceMax + 8
)

// Reading: what the eye trips on.
const (
	// crossingMerge: intersections of two paths closer than this are one
	// crossing (a corner of one path on the other is found on both
	// segments that meet there).
	crossingMerge = 1.0
	// crossingEndTolerance: where a path meets another within this of
	// either one's first or last point, it ends on it (an arrow pointing
	// at an arrow, two arrows meeting); it does not cross it. The same
	// depth as crossingInset: a shallower overshoot reads as touching.
	crossingEndTolerance = crossingInset
	// crossingSharedEndReach: two arrows bound at one end each to the
	// same element that cross within this of both those ends fan out of
	// (or into) that element side by side; the reader sees a fan, not a
	// crossing. It is the largest binding distance, the zone around an
	// outline where an end counts as at the element.
	crossingSharedEndReach = bindingDistanceMax
	// textInkInsetX and textInkInsetY, fractions of the font size: each
	// line of a text takes its measured width times the line height; its
	// letters leave the line gap above and below (a quarter of the size
	// at Excalidraw's 1.25 line height, less for accents and descenders)
	// and a side bearing. Arrows over text and texts over texts are
	// judged on each line's box less these insets, so stacked lines that
	// touch, and an arrow in the gap between lines, are not reported.
	textInkInsetX = 0.05
	textInkInsetY = 0.2
	// textDepthFraction: an arrow is over a text when it passes more
	// than this fraction of the font size (at least 1 px) inside its
	// letters' box, and two texts overlap when their letters' boxes
	// overlap by more than it (of the smaller font): less is an arrow
	// grazing a serif, or two letters' boxes touching where their
	// shapes leave room (a V over an S).
	textDepthFraction = 0.1
	// collinearDistance: two segments within this of each other on one
	// line draw one stroke (two 2 px strokes with Excalidraw's hand-drawn
	// wobble merge); collinearSine is the sine of the largest angle (2°)
	// between segments compared so, beyond which they cross instead.
	collinearDistance = 4.0
	collinearSine     = 0.035
	// collinearMinOverlap: two arrows on one line for more than this
	// read as one; less is two arrows meeting end to end or a touch at a
	// shared point.
	collinearMinOverlap = 10.0
	// collinearSeparation is the gap a collinear_arrows message asks for:
	// Excalidraw's visible-gap snapping distance, as separationMargin.
	collinearSeparation = float64(separationMargin)
	// pathSamples: each cubic piece of a curved arrow is followed with
	// this many straight segments; a piece of a diagram's arrow (a few
	// hundred px, bent less than a right angle) is then within about a
	// pixel of the curve.
	pathSamples = 12
)

// Style.
const (
	// maxFontFamilies: more font families than this among a scene's text
	// reads as accidental (a diagram usually has one, plus a code font).
	maxFontFamilies = 2
	// maxStrokeColors: more distinct stroke colours than this dilutes
	// colour as a signal; Excalidraw's quick palette offers five plus
	// black.
	maxStrokeColors = 6
)
