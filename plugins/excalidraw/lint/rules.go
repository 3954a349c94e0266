package lint

import "slices"

// Category groups rules, so that Options.Disabled can switch a whole
// kind off.
type Category string

const (
	// Structural rules find inconsistencies Excalidraw repairs on load.
	Structural Category = "structural"
	// Visual rules find what looks wrong when drawn.
	Visual Category = "visual"
	// Hint rules find what was probably not meant.
	Hint Category = "hint"
)

// Rule describes one lint rule.
type Rule struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Category Category `json:"category"`
	// Summary says what the rule reports and at which threshold.
	Summary string `json:"summary"`
	run     func(*scene)
}

// Rule codes.
const (
	CodeDanglingBinding     = "dangling_binding"
	CodeOneSidedBinding     = "one_sided_binding"
	CodeStaleBoundEntry     = "stale_bound_entry"
	CodeDegenerateSize      = "degenerate_size"
	CodeEmptyText           = "empty_text"
	CodeOverlap             = "overlap"
	CodeTextOverflow        = "text_overflow"
	CodeLabelWiderThanArrow = "label_wider_than_arrow"
	CodeUnboundArrowEnd     = "unbound_arrow_end"
	CodeZeroLength          = "zero_length"
	CodeArrowThroughShape   = "arrow_through_shape"
	CodeOcclusion           = "occlusion"
	CodeOffCanvas           = "off_canvas_outlier"
	CodeNearDuplicate       = "near_duplicate"
	CodeTinyText            = "tiny_text"
	CodeLowContrast         = "low_contrast"
	CodeAlignmentNearMiss   = "alignment_near_miss"
	CodeTooManyFonts        = "too_many_fonts"
	CodeTooManyStrokeColors = "too_many_stroke_colors"
	CodeArrowOverText       = "arrow_over_text"
	CodeTextOverlap         = "text_overlap"
	CodeCollinearArrows     = "collinear_arrows"
	CodeLabelBrokenMidWord  = "label_broken_mid_word"
	CodeArrowCrossing       = "arrow_crossing"
)

// rules are run in this order; the output is sorted afterwards.
var rules = []Rule{
	{CodeDanglingBinding, Error, Structural,
		"startBinding, endBinding, containerId or frameId names a missing or deleted element", (*scene).danglingBindings},
	{CodeOneSidedBinding, Error, Structural,
		"an arrow or label is bound to an element whose boundElements does not list it (the element moves without it)", (*scene).oneSidedBindings},
	{CodeStaleBoundEntry, Info, Structural,
		"boundElements lists a missing or deleted element, or an arrow or text not bound back (leftovers the editor ignores)", (*scene).staleBoundEntries},
	{CodeDegenerateSize, Error, Structural,
		"a shape, text, image or frame with width or height ≤ 0, or a non-finite position or size", (*scene).degenerateSizes},
	{CodeEmptyText, Error, Structural,
		"a text element (a label too) whose text is empty or whitespace", (*scene).emptyTexts},
	{CodeOverlap, Warning, Visual,
		"two shapes whose rotated bounding boxes intersect by more than 15% of the smaller (nested boxes, a container and its label, frames and shapes of one group excepted)", (*scene).overlaps},
	{CodeTextOverflow, Warning, Visual,
		"a label needs more room than its container's text box, or a fixed-width text stores lines wider than its width or re-wraps taller than its height (by more than 1 px)", (*scene).textOverflows},
	{CodeLabelWiderThanArrow, Warning, Visual,
		"an arrow's label is longer, along the arrow, than the arrow itself", (*scene).labelsWiderThanArrows},
	{CodeUnboundArrowEnd, Warning, Visual,
		"an unbound arrow end lies within Excalidraw's binding distance of a shape's outline (max(16, min(¼ of the smaller side, 32)) px)", (*scene).unboundArrowEnds},
	{CodeZeroLength, Warning, Visual,
		"an arrow or line whose points all coincide (within 1 px)", (*scene).zeroLength},
	{CodeArrowThroughShape, Warning, Visual,
		"an arrow's path enters more than 4 px into a shape it is not bound to and does not start or end in", (*scene).arrowsThroughShapes},
	{CodeOcclusion, Warning, Visual,
		"an opaque solid-filled shape (alpha × opacity ≥ 90%) above an element covers it completely", (*scene).occlusions},
	{CodeOffCanvas, Warning, Visual,
		"an element more than max(4000 px, 2 × the others' diagonal) from the bounding box of all the others (with 3 or more elements)", (*scene).outliers},
	{CodeNearDuplicate, Warning, Visual,
		"two elements of one type with x, y, width and height within 1.5 px, the same colours and the same text", (*scene).twins},
	{CodeTinyText, Warning, Visual,
		"text with a font size below 10 px at zoom 100%", (*scene).tinyTexts},
	{CodeLowContrast, Warning, Visual,
		"text whose colour has a WCAG contrast ratio below 4.5 (3.0 from 24 px) against the fill or canvas behind it", (*scene).lowContrast},
	{CodeArrowOverText, Warning, Visual,
		"an arrow's path passes over the letters of a text (free, or a shape's or another arrow's label) that is not its own label, its bound end, or where it starts or ends", (*scene).arrowsOverText},
	{CodeTextOverlap, Warning, Visual,
		"two texts (free texts, shape or arrow labels) whose letters overlap by more than a tenth of the smaller font size", (*scene).textsOverlap},
	{CodeCollinearArrows, Warning, Visual,
		"two arrows with segments on one line (within 4 px) for more than 10 px, which read as one arrow", (*scene).collinearArrows},
	{CodeLabelBrokenMidWord, Warning, Visual,
		"a text's stored lines break a word between two letters (a line break its originalText does not have): its box is narrower than the word", (*scene).midWordBreaks},
	{CodeAlignmentNearMiss, Info, Hint,
		"two shapes in one row or column whose edges or centres differ by more than 0 and at most 4 px", (*scene).alignment},
	{CodeArrowCrossing, Info, Hint,
		"an arrow whose path crosses other arrows' (one finding per arrow, with how often it crosses each; touching ends and fan-outs from one bound element are not crossings)", (*scene).arrowCrossings},
	{CodeTooManyFonts, Info, Hint,
		"more than 2 font families among the scene's text", (*scene).fonts},
	{CodeTooManyStrokeColors, Info, Hint,
		"more than 6 distinct stroke colours", (*scene).strokeColors},
}

// ruleByCode indexes rules. It is filled in init because the rules'
// functions report through it.
var ruleByCode map[string]Rule

func init() {
	ruleByCode = make(map[string]Rule, len(rules))
	for _, r := range rules {
		ruleByCode[r.Code] = r
	}
}

// Rules lists the rules, in a stable order.
func Rules() []Rule {
	out := slices.Clone(rules)
	for i := range out {
		out[i].run = nil
	}
	return out
}

// Codes lists the rule codes, in Rules' order.
func Codes() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.Code
	}
	return out
}
