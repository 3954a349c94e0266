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
//	                        arrow or text not bound back (the editor leaves and ignores these); one finding
//	                        per scene naming up to 20 elements that carry them, counting the entries:
//	                        Normalize drops them all on any write (repair_scene)
//	degenerate_size         shape, text, image or frame with width or height ≤ 0; any non-finite position or size
//	empty_text              text (a label too) that is empty or whitespace
//
// Visual (warnings):
//
//	overlap                 shapes' rotated bounding boxes intersect by > 15% of the smaller; nested boxes
//	                        (inner ≤ 80% of the outer's area), same-group pairs, frames, text and lines excluded;
//	                        with Options.Touched, two shapes overlapping by less than 80% of the larger and
//	                        clear of their labels (a composed picture) only when one is touched
//	text_overflow           a label needs a bigger container than it has (Excalidraw's bound-text box and
//	                        padding), or a fixed-width text stores lines wider than it or re-wraps (as the
//	                        editor does on open) taller than it; 1 px tolerance
//	label_wider_than_arrow  an arrow label's extent along the arrow exceeds the arrow's length
//	unbound_arrow_end       an unbound arrow end within Excalidraw 0.18.1's binding distance of a shape's
//	                        outline: max(16, min(0.25 × smaller side (diamond ÷ √2), 32)) px; with
//	                        Options.Touched, only a touched arrow's ends or ends beside a touched shape
//	zero_length             an arrow or line whose points all lie within 1 px
//	arrow_through_shape     an arrow segment enters > 4 px into a shape it is not bound to, does not start or
//	                        end in, and shares no group with
//	occlusion               an opaque solid fill (alpha × opacity ≥ 90%) drawn later covers an element entirely
//	off_canvas_outlier      an element more than max(4000 px, 2 × diagonal) from the box of all others (≥ 3)
//	near_duplicate          same type, x/y/width/height within 1.5 px, same colours and text
//	tiny_text               font size below 10 px at zoom 100% and below 3/4 of the median size of the texts
//	                        within 300 px (else of the scene's): a table all in 8 px is read zoomed in
//	low_contrast            contrast of text against the fills (or canvas) behind it below 2:1 at any size,
//	                        below 1.5:1 for a shade of the fill's own hue (not WCAG AA's 4.5: Excalidraw's
//	                        palette pairs a stroke shade with its hue's light fill, down to 1.85:1, and people
//	                        pick those on purpose); the fix reaches 4.5:1, or is opacity 100 for faded ink
//	arrow_over_text         an arrow's path passes more than 0.1 × the font size into the letters of a text
//	                        (free, or a shape's or another arrow's label): each line's measured width placed
//	                        by textAlign, its line height less 0.2 × the font size above and below; not its
//	                        own label, a text it binds to, starts or ends on
//	text_overlap            two texts' letters (as arrow_over_text has them) overlap by more than 0.1 × the
//	                        smaller font size (near duplicates excepted)
//	collinear_arrows        two arrows with segments within 4 px of one line (at most 2° apart) for more
//	                        than 10 px: they read as one
//	label_broken_mid_word   a text's stored text has a line break, not in originalText, between two
//	                        letters or digits of a word (scripts without spaces excepted)
//
// Hints (info):
//
//	alignment_near_miss     shapes in one row or column (within 300 px) whose edges or centres differ by 0–4 px;
//	                        with Options.Touched (a write's lint: Delta), only pairs with a touched shape
//	arrow_crossing          one finding per arrow whose path crosses other arrows', naming each and how
//	                        often; not a touch (an end on the other path, within 4 px; a corner that
//	                        turns back), nor within 32 px of two ends bound to one element (a fan-out)
//	too_many_fonts          more than 2 font families
//	too_many_stroke_colors  more than 6 stroke colours
//
// Drawing order is the fractional index when every element has a valid
// one, else array order; a container's text is drawn right after the
// container, as Excalidraw draws it. Text is measured with textmetrics
// and laid out with scene/build's label rules, so overflow means what the
// editor would show.
//
// A path is an arrow's points joined by straight segments, or for a
// rounded arrow of three points or more the curve Excalidraw draws through
// them (unbound_arrow_end uses the end points). An
// arrow's label is where the editor draws it, on the arrow's middle, not
// at its stored x and y.
//
// The pairwise rules (overlap, near_duplicate, alignment_near_miss,
// arrow_through_shape, occlusion, unbound_arrow_end, low_contrast,
// arrow_over_text, text_overlap, collinear_arrows, arrow_crossing) look
// up partners in a uniform grid, so a Run is O(n) for ordinary scenes;
// with Options.Scope they examine only elements near the scope.
//
// Run only reads the elements, so concurrent Runs may share them (but
// not with a writer).
package lint
