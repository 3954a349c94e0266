package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// Normalize repairs the document in place the way Excalidraw 0.18.1's
// restoreElements would (with repairBindings), so that restoring the
// written file changes nothing; it never drops an element (deleted
// tombstones stay), never drops unknown fields, keeps element order, and is
// idempotent (Normalize twice == once). It returns what it changed.
//
// Why: every editor that opens a scene runs restore on it (data/restore.ts).
// What restore changes on load is either lost on the next save of a
// program that does not restore, or shows up as a spurious change in
// collaboration and version control. Writing the restored form makes a
// scene a fixed point of the editor.
//
// It follows restore step by step (see normalize_*.go): per element the
// defaults and legacy migrations of restoreElement, then the fractional
// indices of syncInvalidIndices, then the reference repairs of
// repairBindings. Where restore draws on randomness or the clock it is
// made deterministic, so that Normalize is a pure function of the
// document:
//
//   - a missing or duplicate id (or, beyond restore, one that is not a
//     string) gets one derived from the element's position
//     (newElementID), not nanoid's randomId;
//   - a missing `updated`, and the `updated` of an element whose version
//     restore bumps (a re-indexed element, an empty text it deletes), is
//     the latest `updated` of the document (1 in a document that has
//     none), not Date.now();
//   - a bumped version gets a versionNonce derived from the element's id
//     and new version, not Math.random().
//
// Like restore it removes the one member restore deletes, the rawText of
// obsidian-excalidraw, and keeps the legacy members it only reads
// (strokeSharpness, font).
//
// Where restore would lose data, Normalize does less or more than restore:
//
//   - it keeps the elements restore drops (unknown types, legacy
//     "selection" elements, and "invisibly small" ones: zero-size shapes,
//     freedraw with fewer than two points); Validate reports them;
//   - a line or arrow with fewer than two points, which restore drops, gets
//     restore's two-point segment from its width and height instead;
//   - it fills fields restore leaves undefined where the editor expects
//     them (a text's fontSize and fontFamily, an unknown fontFamily, a
//     freedraw's pressures and simulatePressure, an arrow's elbowed, an
//     image's fileId) with what newElement gives new elements;
//   - it completes the back-references restore's repair leaves one-sided:
//     an arrow bound to a live element is listed in that element's
//     boundElements, and entries naming an arrow that does not bind the
//     element, or a text bound elsewhere, are dropped;
//   - it drops the legacy boundElementIds once migrated: restore rebuilds
//     boundElements from it on every load, undoing any repair.
//
// Values of the wrong JSON type are left for Validate to report, except
// where restore would crash on them (the editor then cannot open the file)
// or mangle them: a link that is not a string becomes null, a legacy font
// that is not a string is removed, a boundElements that is not an array
// becomes [], a binding that is not an object null, points that are not
// [x, y] numbers restore's segment (a freedraw's []), and numbers that
// overflow a float64 null. Restore's re-routing of an unbound elbow
// arrow whose segments are not axis-aligned is reproduced for the common
// case only (see rerouteElbow): where it differs, the route taken is as
// valid, and a fixed point.
func Normalize(d *Document) NormalizeReport {
	if d == nil {
		return NormalizeReport{Fixes: map[string]int{}}
	}
	n := newNormalizer(d.elements)
	n.doc = d
	n.dirty, n.scoped = d.forkDirty()
	n.restoreElements()
	n.scope(d)
	n.syncIndices()
	n.repairBindings()
	n.fixElbowArrows()
	return n.report()
}

// NormalizeReport says what Normalize changed.
type NormalizeReport struct {
	// Changed is the number of elements touched.
	Changed int `json:"changed"`
	// Fixes counts the repairs by kind (the Fix constants): one per field
	// filled or rewritten (a boundElements list once, however many of its
	// entries change), per index regenerated.
	Fixes map[string]int `json:"fixes"`
	// Repairs lists, in the order they were made, the repairs that change
	// what the scene says rather than how it is spelled: ids, references
	// between elements, texts deleted, numbers nulled (see [Repair]). The
	// defaults and legacy migrations restore applies to every file it
	// opens are only counted, in Fixes. At most maxRepairs are listed.
	Repairs []Repair `json:"repairs,omitempty"`
	// RepairsOmitted counts the repairs made past maxRepairs.
	RepairsOmitted int `json:"repairsOmitted,omitempty"`
}

// Kinds of fixes, the keys of NormalizeReport.Fixes.
const (
	// FixDefaultField: an absent (or null, or, where restore uses ||,
	// falsy) field set to restore's default.
	FixDefaultField = "default_field"
	// FixNonFinite: numbers that overflow a float64 (1e999), which the
	// editor reads as Infinity and saves as null, set to null.
	FixNonFinite = "non_finite"
	// FixID: a missing, duplicate or non-string id replaced.
	FixID = "id"
	// FixIndex: a missing, invalid or out-of-order fractional index
	// regenerated.
	FixIndex = "index"
	// FixLegacyType: the pre-2020 "draw" type migrated to "line".
	FixLegacyType = "legacy_type"
	// FixLegacyRoundness: roundness derived from the legacy
	// strokeSharpness.
	FixLegacyRoundness = "legacy_roundness"
	// FixLegacyBoundElements: boundElements migrated from the legacy
	// boundElementIds, which is removed.
	FixLegacyBoundElements = "legacy_bound_elements"
	// FixLegacyField: a field restore removes (the rawText of
	// obsidian-excalidraw), or a legacy font that is not a string, on
	// which it crashes.
	FixLegacyField = "legacy_field"
	// FixDimensions: a negative width or height made positive, x or y
	// moved to keep the box in place.
	FixDimensions = "dimensions"
	// FixLink: a link sanitized as restore's normalizeLink does, or one
	// that is not a string nulled.
	FixLink = "link"
	// FixFont: a text's fontSize or fontFamily taken from the legacy font
	// string, or an unknown fontFamily replaced by the default.
	FixFont = "font"
	// FixLineHeight: a missing lineHeight derived from the text's height,
	// or the font's.
	FixLineHeight = "line_height"
	// FixEmptyText: a live text with no text marked deleted.
	FixEmptyText = "empty_text"
	// FixPoints: a linear element's points made to start at the origin
	// (x and y moved), synthesized, or its size recomputed from them; a
	// lastCommittedPoint cleared; a crooked unbound elbow arrow re-routed,
	// a runaway self-bound one redrawn; a freedraw's points that are not
	// an array emptied.
	FixPoints = "points"
	// FixBinding: a start/endBinding repaired (focus defaulted, elbow
	// fixedPoint nudged off 0.5) or nulled (target missing, or on a line).
	FixBinding = "binding"
	// FixBoundElements: a boundElements entry dropped (target missing or
	// deleted, listed twice, not pointing back) or added (a bound text or
	// arrow missing from its container's or target's list).
	FixBoundElements = "bound_elements"
	// FixContainer: a text's containerId nulled (container missing) or set
	// (a container lists it and it has none).
	FixContainer = "container"
	// FixFrame: a frameId naming no element nulled.
	FixFrame = "frame"
)

// normalizer holds the state of one Normalize run.
type normalizer struct {
	els     []*ojson.Object
	touched []bool
	fixes   map[string]int
	// now stands in for Date.now() where restore stamps `updated`
	// (latest() computes it on first need).
	now any
	// In a scoped run (a fork's, see normalize_scope.go) the passes over
	// what elements share visit only cand: the elements not shared with
	// the sealed base (dirty) and those related to them.
	scoped bool
	dirty  []int
	cand   []int
	all    []int
	byID   map[string]int // visibleByID, once built
	doc    *Document
	// ids holds every string id in the document and every id generated,
	// so that generated ids are unique; built when the first is needed.
	ids map[string]bool
	// visible marks the elements restore keeps (restorable type, not
	// invisibly small); only they take part in binding repair.
	visible []bool
	// extra is restoreElement's buffer for the type-specific fields.
	extra []assignment
	// lists tracks the boundElements lists the repair edits.
	lists boundLists
	// repairs and omitted are the report's Repairs and RepairsOmitted.
	repairs []Repair
	omitted int
}

func newNormalizer(els []*ojson.Object) *normalizer {
	return &normalizer{
		els:     els,
		touched: make([]bool, len(els)),
		fixes:   map[string]int{},
		visible: make([]bool, len(els)),
	}
}

// latest is n.now: the latest `updated` of the document, 1 in one that
// has none.
func (n *normalizer) latest() any {
	if n.now != nil {
		return n.now
	}
	latest, found := 0.0, false
	for _, el := range n.els {
		if el == nil {
			continue
		}
		if u, st := toNumber(mustGet(el, "updated")); st == numOK && (!found || u > latest) {
			latest, found = u, true
		}
	}
	n.now = jsNumber(1)
	if found {
		n.now = jsNumber(latest)
	}
	return n.now
}

// fix records one repair of element i.
func (n *normalizer) fix(i int, kind string) {
	n.touched[i] = true
	n.fixes[kind]++
}

func (n *normalizer) report() NormalizeReport {
	r := NormalizeReport{Fixes: n.fixes, Repairs: n.repairs, RepairsOmitted: n.omitted}
	for _, t := range n.touched {
		if t {
			r.Changed++
		}
	}
	return r
}
