// Package lint finds, deterministically and without I/O, what is broken,
// wrong-looking or probably unintended in an Excalidraw scene's
// elements, as findings an agent can act on.
//
// [Run] is a pure function of the elements (deleted ones ignored) and
// [Options]; its findings are sorted by severity, code and ids, and a
// finding's [Finding.Key] (code and ids) identifies it across revisions,
// so a staged write lints the scene before and after over the
// [Neighbours] of what it touched and reports [Diff]: the findings it
// introduced, resolved and left. Suggestions are machine-actionable
// (their vocabulary is documented on [Finding.Suggestion]).
//
// Rules (every threshold, and why it has its value, is in thresholds.go;
// [Rules] lists them at run time):
//
// Structural (errors; one info):
//
//	dangling_binding        startBinding/endBinding/containerId/frameId names a missing or deleted element
//	one_sided_binding       an arrow or label bound to an element whose boundElements does not list it
//	stale_bound_entry       (info) boundElements lists a missing or deleted element (restore drops it), or an
//	                        arrow or text not bound back (the editor leaves and ignores these)
//	degenerate_size         shape, text, image or frame with width or height ≤ 0; any non-finite position or size
//	empty_text              text (a label too) that is empty or whitespace
//
// Visual (warnings):
//
//	overlap                 shapes' rotated bounding boxes intersect by > 15% of the smaller; nested boxes
//	                        (inner ≤ 80% of the outer's area), same-group pairs, frames, text and lines excluded
//	text_overflow           a label needs a bigger container than it has (Excalidraw's bound-text box and
//	                        padding), or a fixed-width text stores lines wider than it or re-wraps (as the
//	                        editor does on open) taller than it; 1 px tolerance
//	label_wider_than_arrow  an arrow label's extent along the arrow exceeds the arrow's length
//	unbound_arrow_end       an unbound arrow end within Excalidraw 0.18.1's binding distance of a shape's
//	                        outline: max(16, min(0.25 × smaller side (diamond ÷ √2), 32)) px
//	zero_length             an arrow or line whose points all lie within 1 px
//	arrow_through_shape     an arrow segment enters > 4 px into a shape it is not bound to, does not start or
//	                        end in, and shares no group with
//	occlusion               an opaque solid fill (alpha × opacity ≥ 90%) drawn later covers an element entirely
//	off_canvas_outlier      an element more than max(4000 px, 2 × diagonal) from the box of all others (≥ 3)
//	near_duplicate          same type, x/y/width/height within 1.5 px, same colours and text
//	tiny_text               font size below 10 px at zoom 100%
//	low_contrast            WCAG contrast of text against the fills (or canvas) behind it below 4.5,
//	                        3.0 from 24 px
//
// Hints (info):
//
//	alignment_near_miss     shapes in one row or column (within 300 px) whose edges or centres differ by 0–4 px
//	too_many_fonts          more than 2 font families
//	too_many_stroke_colors  more than 6 stroke colours
//
// Drawing order is the fractional index when every element has a valid
// one, else array order; a container's text is drawn right after the
// container, as Excalidraw draws it. Text is measured with textmetrics
// and laid out with scene/build's label rules, so overflow means what the
// editor would show.
//
// The pairwise rules (overlap, near_duplicate, alignment_near_miss,
// arrow_through_shape, occlusion, unbound_arrow_end, low_contrast) look
// up partners in a uniform grid, so a Run is O(n) for ordinary scenes;
// with Options.Scope they examine only elements near the scope.
//
// Run only reads the elements, so concurrent Runs may share them (but
// not with a writer).
package lint
