package query

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

const (
	// MaxRowText bounds a row's "text", in characters: longer texts end
	// with "…". The whole text is one full read away.
	MaxRowText = 48
	// maxEndText bounds the label naming an arrow's end in "ends" and a
	// node in a graph.
	maxEndText = 24
	// smallSize: an element whose width and height are both under this is
	// small, and its numbers keep one decimal.
	smallSize = 10
)

// The fields of a row, in the order a row lists them. See [Rows].
const (
	FieldID              = "id"
	FieldType            = "type"
	FieldRole            = "role"
	FieldX               = "x"
	FieldY               = "y"
	FieldW               = "w"
	FieldH               = "h"
	FieldAngle           = "angle"
	FieldText            = "text"
	FieldEnds            = "ends"
	FieldIn              = "in"
	FieldLabelID         = "labelId"
	FieldFrameID         = "frameId"
	FieldGroupIDs        = "groupIds"
	FieldLink            = "link"
	FieldLocked          = "locked"
	FieldStrokeColor     = "strokeColor"
	FieldBackgroundColor = "backgroundColor"
	FieldFillStyle       = "fillStyle"
	FieldStrokeWidth     = "strokeWidth"
	FieldStrokeStyle     = "strokeStyle"
	FieldRoughness       = "roughness"
	FieldOpacity         = "opacity"
	FieldFontSize        = "fontSize"
	FieldFontFamily      = "fontFamily"
	FieldPoints          = "points"
	FieldDeleted         = "deleted"
)

// Field sets that fields may name instead of single fields.
const (
	// SetStyle names every style field (strokeColor … fontFamily).
	SetStyle = "style"
	// SetAll names every field.
	SetAll = "all"
)

// allFields is every field in row order.
var allFields = []string{
	FieldID, FieldType, FieldRole, FieldX, FieldY, FieldW, FieldH, FieldAngle, FieldText, FieldEnds, FieldIn,
	FieldLabelID, FieldFrameID, FieldGroupIDs, FieldLink, FieldLocked,
	FieldStrokeColor, FieldBackgroundColor, FieldFillStyle, FieldStrokeWidth, FieldStrokeStyle, FieldRoughness,
	FieldOpacity, FieldFontSize, FieldFontFamily, FieldPoints, FieldDeleted,
}

var styleFields = []string{
	FieldStrokeColor, FieldBackgroundColor, FieldFillStyle, FieldStrokeWidth, FieldStrokeStyle, FieldRoughness,
	FieldOpacity, FieldFontSize, FieldFontFamily,
}

// defaultFields are the fields of a row when none are asked for. The
// fill stays (diagrams mark roles by it); strokeColor is one of "style".
// They keep a read within the agent-surface budget of 120 bytes per
// element on every scene of the corpus (TestCorpusRowBudget).
var defaultFields = []string{
	FieldID, FieldType, FieldX, FieldY, FieldW, FieldH, FieldAngle, FieldText, FieldEnds, FieldIn,
	FieldLink, FieldLocked, FieldBackgroundColor,
}

// DefaultFields lists the fields of a row when none are asked for: id,
// type, geometry, text, ends, in, link, locked and the fill.
func DefaultFields() []string { return append([]string{}, defaultFields...) }

// Fields lists every field name and set name Rows accepts.
func Fields() []string { return append(append([]string{}, allFields...), SetStyle, SetAll) }

// fieldSet is a parsed fields list: which fields a row shows, and
// whether it was the default list (then labels fold into their
// containers' rows).
type fieldSet struct {
	on       [27]bool
	defaults bool
}

var fieldPos = func() map[string]int {
	m := make(map[string]int, len(allFields))
	for i, f := range allFields {
		m[f] = i
	}
	return m
}()

func (s *fieldSet) has(f string) bool { return s.on[fieldPos[f]] }

// parseFields checks the names; nil or empty means the default fields. The id
// (and for a tombstone, deleted) is always shown.
func parseFields(fields []string) (*fieldSet, error) {
	var s fieldSet
	if len(fields) == 0 {
		fields = defaultFields
		s.defaults = true
	}
	for i, f := range fields {
		switch f {
		case SetAll:
			for j := range s.on {
				s.on[j] = true
			}
		case SetStyle:
			for _, g := range styleFields {
				s.on[fieldPos[g]] = true
			}
		default:
			p, ok := fieldPos[f]
			if !ok {
				return nil, invalid("/fields/"+strconv.Itoa(i), "unknown row field %q; the fields are %s, or %q or %q",
					f, strings.Join(allFields, ", "), SetStyle, SetAll)
			}
			s.on[p] = true
		}
	}
	s.on[fieldPos[FieldID]] = true
	s.on[fieldPos[FieldDeleted]] = true
	return &s, nil
}

// Rows describes the selected elements els (from [Select]) of the scene
// all, one row per element in the order given, each an ordered JSON
// object (ojson.Marshal, or [EncodeRows], writes the members in order;
// encoding/json does too but escapes <, > and &). fields chooses the
// members (nil: [DefaultFields]; "style" and "all" name sets); a row
// leaves out a member that does not apply or holds its default, so
// rows differ in shape:
//
//	{"id":"box1","type":"rectangle","x":100,"y":40,"w":220,"h":80,"text":"API gateway","backgroundColor":"#a5d8ff"}
//	{"id":"lbl1","type":"text","in":"box1"}
//	{"id":"arr1","type":"arrow","x":320,"y":80,"w":180,"h":0,"text":"HTTPS","ends":"API gateway → box2"}
//
// The members:
//
//   - id: always, even if fields leaves it out.
//   - type: the element's type.
//   - role: the element's role (see [Target.Role]); only when asked.
//   - x, y, w, h: the element's own x, y, width and height (for arrows
//     and lines, the box of their points, from the first point at x, y).
//     Rounded to integers; for a small element (width and height both
//     under 10) to one decimal.
//   - angle: the rotation in radians, 3 decimals, when not 0.
//   - text: what the element shows: a text's originalText, a container's
//     or an arrow's label, a frame's name; white space collapsed to single
//     spaces and cut at MaxRowText characters with "…".
//   - ends: for an arrow or line bound at one end or both, "A → B": each
//     bound end named by its text (white space collapsed, cut at 24
//     characters) if no other live element but arrows and lines reads
//     the same, by its id otherwise; an unbound end is left out ("A →").
//     The sign shows the arrowheads: → at the end, ← at the start, ↔
//     both, — none.
//   - in: for a label, its container's id. When the container is among
//     els, the label's row is only {id, type, in}: the container already
//     shows its text and the label's geometry follows the container's.
//     With the default fields such a label has no row at all (ask for
//     fields naming "in" or "labelId" to list it).
//   - labelId: a container's label's id; only when asked.
//   - frameId, groupIds, link, locked: membership, when set (locked
//     only when true); groupIds innermost first, as Excalidraw stores them.
//   - strokeColor … fontFamily: style, each only where it differs from
//     Excalidraw's default (#1e1e1e, transparent, solid, 2, solid, 1, 100,
//     20, 5) and affects how this element is drawn (no fill on a text,
//     fillStyle only under a background, font only on text).
//   - points: an arrow's, line's or freedraw's points, rounded like x, y;
//     only when asked.
//   - deleted: true on a tombstone (see [Target.IncludeDeleted]).
//
// An unknown field name is an invalid_operation error (pointer
// "/fields/i"); nothing else fails.
func Rows(els, all []*ojson.Object, fields []string) ([]*ojson.Object, error) {
	fs, err := parseFields(fields)
	if err != nil {
		return nil, err
	}
	if len(els) == 0 {
		return []*ojson.Object{}, nil // no rows: no index of the scene
	}
	ix := newIndex(all)
	selected := make(map[*ojson.Object]bool, len(els))
	for _, el := range els {
		selected[el] = true
	}
	rows := make([]*ojson.Object, 0, len(els))
	for _, el := range els {
		if el == nil {
			continue
		}
		if fs.defaults && !scene.IsDeleted(el) {
			if c := ix.containerOf(el); c != nil && selected[c] {
				continue // folded into its container's row
			}
		}
		rows = append(rows, ix.row(el, fs, selected))
	}
	return rows, nil
}

func (ix *index) row(el *ojson.Object, fs *fieldSet, selected map[*ojson.Object]bool) *ojson.Object {
	r := ojson.NewSized(8)
	typ := scene.StringOf(el, "type")
	r.Set(FieldID, scene.StringOf(el, "id"))
	if fs.has(FieldType) {
		r.Set(FieldType, typ)
	}
	if fs.has(FieldRole) {
		r.Set(FieldRole, ix.role(el))
	}
	container := ix.containerOf(el)
	if container != nil && selected[container] {
		if fs.has(FieldIn) {
			r.Set(FieldIn, scene.StringOf(container, "id"))
		}
		if scene.IsDeleted(el) {
			r.Set(FieldDeleted, true)
		}
		return r
	}
	w, _ := scene.Finite(el, "width")
	h, _ := scene.Finite(el, "height")
	round := rounder(w, h)
	for _, f := range [...]string{FieldX, FieldY, FieldW, FieldH} {
		if !fs.has(f) {
			continue
		}
		var v float64
		switch f {
		case FieldX:
			v, _ = scene.Finite(el, "x")
		case FieldY:
			v, _ = scene.Finite(el, "y")
		case FieldW:
			v = w
		case FieldH:
			v = h
		}
		r.Set(f, round(v))
	}
	if a, _ := scene.Finite(el, "angle"); a != 0 && fs.has(FieldAngle) {
		if a = roundTo(a, 1000); a != 0 {
			r.Set(FieldAngle, a)
		}
	}
	if fs.has(FieldText) {
		if t := truncate(collapse(ix.text(el)), MaxRowText); t != "" {
			r.Set(FieldText, t)
		}
	}
	if fs.has(FieldEnds) && scene.IsLinear(typ) {
		if e := ix.ends(el); e != "" {
			r.Set(FieldEnds, e)
		}
	}
	if fs.has(FieldIn) && container != nil {
		r.Set(FieldIn, scene.StringOf(container, "id"))
	}
	if fs.has(FieldLabelID) {
		if l := ix.label[scene.StringOf(el, "id")]; l != nil {
			r.Set(FieldLabelID, scene.StringOf(l, "id"))
		}
	}
	if fs.has(FieldFrameID) {
		if f := scene.StringOf(el, "frameId"); f != "" {
			r.Set(FieldFrameID, f)
		}
	}
	if fs.has(FieldGroupIDs) {
		if g, _ := el.Array("groupIds"); len(g) > 0 {
			r.Set(FieldGroupIDs, ojson.CloneValue(g))
		}
	}
	if fs.has(FieldLink) {
		if l := scene.StringOf(el, "link"); l != "" {
			r.Set(FieldLink, l)
		}
	}
	if fs.has(FieldLocked) {
		if l, _ := el.Bool("locked"); l {
			r.Set(FieldLocked, true)
		}
	}
	style(r, el, typ, fs)
	if fs.has(FieldPoints) && scene.HasPoints(typ) {
		var pts []any
		for _, p := range scene.Points(el) {
			pts = append(pts, []any{round(p[0]), round(p[1])})
		}
		if pts != nil {
			r.Set(FieldPoints, pts)
		}
	}
	if scene.IsDeleted(el) {
		r.Set(FieldDeleted, true)
	}
	return r
}

// style adds the style members that differ from the defaults and affect
// how an element of type typ is drawn.
func style(r, el *ojson.Object, typ string, fs *fieldSet) {
	text := typ == "text"
	setStr := func(f, def string, applies bool) {
		if !applies || !fs.has(f) {
			return
		}
		if v, ok := el.String(f); ok && v != def {
			r.Set(f, v)
		}
	}
	setNum := func(f string, def float64, applies bool) {
		if !applies || !fs.has(f) {
			return
		}
		if v, ok := scene.Finite(el, f); ok && v != def {
			r.Set(f, roundTo(v, 100))
		}
	}
	bg, ok := el.String("backgroundColor")
	filled := ok && bg != scene.DefaultBackgroundColor && !text && typ != "arrow"
	setStr(FieldStrokeColor, scene.DefaultStrokeColor, true)
	setStr(FieldBackgroundColor, scene.DefaultBackgroundColor, filled)
	setStr(FieldFillStyle, scene.DefaultFillStyle, filled && typ != "freedraw")
	setNum(FieldStrokeWidth, scene.DefaultStrokeWidth, !text)
	setStr(FieldStrokeStyle, scene.DefaultStrokeStyle, !text && typ != "freedraw")
	setNum(FieldRoughness, scene.DefaultRoughness, !text && typ != "freedraw" && typ != "image")
	setNum(FieldOpacity, scene.DefaultOpacity, true)
	setNum(FieldFontSize, defaultFontSize, text)
	setNum(FieldFontFamily, defaultFontFamily, text)
}

// Excalidraw 0.18.1's text defaults (DEFAULT_FONT_SIZE, DEFAULT_FONT_FAMILY:
// Excalifont).
const (
	defaultFontSize   = 20
	defaultFontFamily = 5
)

// ends is an arrow's or line's "A → B", "" when neither end is bound.
func (ix *index) ends(el *ojson.Object) string {
	start, end := ix.boundEnd(el, "startBinding"), ix.boundEnd(el, "endBinding")
	if start == nil && end == nil {
		return ""
	}
	var b strings.Builder
	if start != nil {
		b.WriteString(ix.name(start))
		b.WriteByte(' ')
	}
	b.WriteString(arrowSign(el))
	if end != nil {
		b.WriteByte(' ')
		b.WriteString(ix.name(end))
	}
	return b.String()
}

// arrowSign shows which ends carry arrowheads.
func arrowSign(el *ojson.Object) string {
	s, e := scene.StringOf(el, "startArrowhead") != "", scene.StringOf(el, "endArrowhead") != ""
	switch {
	case s && e:
		return "↔"
	case e:
		return "→"
	case s:
		return "←"
	}
	return "—"
}

// rounder is how a row rounds an element's numbers: to integers, or to
// one decimal for a small element (width and height both under 10).
func rounder(w, h float64) func(float64) float64 {
	if math.Abs(w) < smallSize && math.Abs(h) < smallSize {
		return func(f float64) float64 { return roundTo(f, 10) }
	}
	return func(f float64) float64 { return roundTo(f, 1) }
}

// roundTo rounds f to 1/scale, never giving -0.
func roundTo(f, scale float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*scale)/scale + 0
}

// truncate cuts s to n characters, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	return s[:i] + "…"
}
