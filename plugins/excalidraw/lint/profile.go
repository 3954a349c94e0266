package lint

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// VisualQACategory is the category of the rules that check a board
// against its profile (validate_scene {profile:"visual-qa"}). They run
// only through VisualQA, with the board's profile, never in Run: without
// a profile there is nothing to check against, and nothing is guessed.
const VisualQACategory Category = "visual-qa"

// The visual-qa rule codes.
const (
	CodeFontSizeOffProfile = "style_font_size_off_profile"
	CodeTypeScaleViolation = "type_scale_violation"
	CodeHierarchyInverted  = "hierarchy_inverted"
	CodeSemanticConflict   = "semantic_conflict"
	CodeRoleColorMismatch  = "role_color_mismatch"
)

// The customData members planners tag their parts with: "dsh"
// {kind, id, slot, …} (tables, stacks, legends, slides) and
// create_diagram's "dshDiagram" {diagram, kind, key, piece, role}.
const (
	tagKey        = "dsh"
	diagramTagKey = "dshDiagram"
)

var profileRules = []Rule{
	{CodeFontSizeOffProfile, Warning, VisualQACategory,
		"a text's font size is not on the profile's type scale (fix: the nearest size on it)", nil},
	{CodeTypeScaleViolation, Warning, VisualQACategory,
		"peers of one structure use more than one font size: a table's body cells, a stack's items, a legend's labels, one diagram's node labels (fix: the most common size)", nil},
	{CodeHierarchyInverted, Warning, VisualQACategory,
		"a heading smaller than what it heads: a table's header cells than its body cells (most common sizes), a frame's title (its topmost standalone text) than the largest other text in the frame, a legend's title than its largest label", nil},
	{CodeSemanticConflict, Warning, VisualQACategory,
		"one colour or stroke style with two meanings: a legend entry whose swatch colour (a box's fill, else its stroke) or line style the profile gives another meaning, or two legend swatches alike with different labels", nil},
	{CodeRoleColorMismatch, Warning, VisualQACategory,
		"an element tagged with a profile role (a diagram node's role, a legend swatch's) drawn in other colours than the profile's for that role", nil},
}

// ProfileRules lists the visual-qa rules, in a stable order.
func ProfileRules() []Rule { return slices.Clone(profileRules) }

// VisualQA checks elements against a board's profile p with the
// visual-qa rules (ProfileRules) and returns their findings, sorted as
// Run sorts. A rule whose part of the profile is empty (no type scale,
// no roles) finds nothing. Deleted elements are ignored.
func VisualQA(elements []*ojson.Object, p profile.Profile) []Finding {
	q := newQA(elements, p)
	q.offScale()
	q.peers()
	q.hierarchy()
	q.semantics()
	q.roleColors()
	sortFindings(q.out)
	return q.out
}

// qaTag is what a planner's tag says of an element.
type qaTag struct {
	kind, id, slot, role string
	entry                int
}

// qa is one VisualQA run: the live elements, their tags and labels.
type qa struct {
	p     profile.Profile
	els   []*ojson.Object
	byID  map[string]*ojson.Object
	label map[string]*ojson.Object // a container's id → its bound text
	out   []Finding
}

func newQA(elements []*ojson.Object, p profile.Profile) *qa {
	q := &qa{p: p, byID: map[string]*ojson.Object{}, label: map[string]*ojson.Object{}}
	for _, el := range elements {
		if el == nil || model.IsDeleted(el) {
			continue
		}
		q.els = append(q.els, el)
		q.byID[model.StringOf(el, "id")] = el
	}
	for _, el := range q.els {
		if c := model.StringOf(el, "containerId"); c != "" && model.StringOf(el, "type") == "text" {
			q.label[c] = el
		}
	}
	return q
}

func (q *qa) add(code string, ids []string, suggestion map[string]any, format string, args ...any) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	q.out = append(q.out, Finding{Code: code, Severity: Warning, IDs: ids, Message: fmt.Sprintf(format, args...), Suggestion: suggestion})
}

// tag is the element's planner tag ("dsh"), ok false for none.
func tag(el *ojson.Object) (qaTag, bool) {
	cd, ok := el.Object("customData")
	if !ok {
		return qaTag{}, false
	}
	t, ok := cd.Object(tagKey)
	if !ok {
		return qaTag{}, false
	}
	out := qaTag{kind: model.StringOf(t, "kind"), id: model.StringOf(t, "id"), slot: model.StringOf(t, "slot"), role: model.StringOf(t, "role"), entry: -1}
	if n, ok := t.Number("entry"); ok {
		out.entry = int(n)
	}
	return out, out.kind != ""
}

// diagramTag is create_diagram's tag: the diagram, the part's kind and
// piece, and a node's role.
func diagramTag(el *ojson.Object) (diagram, kind, piece, role string, ok bool) {
	cd, ok := el.Object("customData")
	if !ok {
		return "", "", "", "", false
	}
	t, ok := cd.Object(diagramTagKey)
	if !ok {
		return "", "", "", "", false
	}
	return model.StringOf(t, "diagram"), model.StringOf(t, "kind"), model.StringOf(t, "piece"), model.StringOf(t, "role"), true
}

// text is the text an element shows: itself if a text, else its label;
// nil for none.
func (q *qa) text(el *ojson.Object) *ojson.Object {
	if model.StringOf(el, "type") == "text" {
		return el
	}
	return q.label[model.StringOf(el, "id")]
}

func fontSize(t *ojson.Object) float64 { return model.NumberOf(t, "fontSize") }

func px(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// offScale: every text's font size is on the type scale.
func (q *qa) offScale() {
	if len(q.p.TypeScale) == 0 {
		return
	}
	scale := make([]string, 0, len(q.p.TypeScale))
	for _, s := range q.p.Sizes() {
		scale = append(scale, px(s))
	}
	for _, el := range q.els {
		if model.StringOf(el, "type") != "text" {
			continue
		}
		size := fontSize(el)
		if q.p.OnScale(size) {
			continue
		}
		id := model.StringOf(el, "id")
		to := q.p.Nearest(size)
		q.add(CodeFontSizeOffProfile, []string{id}, map[string]any{"action": "set", "id": id, "field": "fontSize", "value": to},
			"text %s is %s px, not on the board's type scale (%s px); the nearest is %s", id, px(size), strings.Join(scale, ", "), px(to))
	}
}

// sizeGroup is texts of one structure's peers.
type sizeGroup struct {
	what  string
	texts []*ojson.Object
}

// peers: the texts of one structure's peers share one font size.
func (q *qa) peers() {
	groups := map[string]*sizeGroup{}
	var order []string
	put := func(key, what string, t *ojson.Object) {
		if t == nil {
			return
		}
		g := groups[key]
		if g == nil {
			g = &sizeGroup{what: what}
			groups[key] = g
			order = append(order, key)
		}
		g.texts = append(g.texts, t)
	}
	for _, el := range q.els {
		if t, ok := tag(el); ok {
			switch {
			case t.kind == "table" && t.slot == "cell":
				put("table "+t.id, "body cells of table "+t.id, q.text(el))
			case t.kind == "stack" && t.slot == "item":
				put("stack "+t.id, "items of stack "+t.id, q.text(el))
			case t.kind == "legend" && t.slot == "label":
				put("legend "+t.id, "labels of legend "+t.id, q.text(el))
			}
			continue
		}
		if d, kind, piece, _, ok := diagramTag(el); ok && kind == "node" && piece == "" {
			put("diagram "+d, "node labels of diagram "+d, q.text(el))
		}
	}
	for _, key := range order {
		g := groups[key]
		common, sizes := modeSize(g.texts)
		if sizes < 2 {
			continue
		}
		var off []string
		for _, t := range g.texts {
			if fontSize(t) != common {
				off = append(off, model.StringOf(t, "id"))
			}
		}
		q.add(CodeTypeScaleViolation, off, map[string]any{"action": "set", "ids": sorted(off), "field": "fontSize", "value": common},
			"the %s use %d font sizes; %d of %d are not the most common %s px", g.what, sizes, len(off), len(g.texts), px(common))
	}
}

// modeSize is the most common font size of texts (of two as common,
// the larger) and how many sizes they use.
func modeSize(texts []*ojson.Object) (float64, int) {
	count := map[float64]int{}
	for _, t := range texts {
		count[fontSize(t)]++
	}
	best, n := 0.0, 0
	for s, c := range count {
		if c > n || c == n && s > best {
			best, n = s, c
		}
	}
	return best, len(count)
}

func sorted(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// hierarchy: a heading is larger than what it heads.
func (q *qa) hierarchy() {
	type table struct{ header, body []*ojson.Object }
	tables := map[string]*table{}
	legendTitle := map[string]*ojson.Object{}
	legendLabels := map[string][]*ojson.Object{}
	var tableOrder, legendOrder []string
	for _, el := range q.els {
		t, ok := tag(el)
		if !ok {
			continue
		}
		txt := q.text(el)
		if txt == nil {
			continue
		}
		switch {
		case t.kind == "table" && (t.slot == "header" || t.slot == "cell"):
			tb := tables[t.id]
			if tb == nil {
				tb = &table{}
				tables[t.id] = tb
				tableOrder = append(tableOrder, t.id)
			}
			if t.slot == "header" {
				tb.header = append(tb.header, txt)
			} else {
				tb.body = append(tb.body, txt)
			}
		case t.kind == "legend" && t.slot == "title":
			if _, seen := legendTitle[t.id]; !seen && legendLabels[t.id] == nil {
				legendOrder = append(legendOrder, t.id)
			}
			legendTitle[t.id] = txt
		case t.kind == "legend" && t.slot == "label":
			if _, seen := legendTitle[t.id]; !seen && legendLabels[t.id] == nil {
				legendOrder = append(legendOrder, t.id)
			}
			legendLabels[t.id] = append(legendLabels[t.id], txt)
		}
	}
	for _, id := range tableOrder {
		tb := tables[id]
		if len(tb.header) == 0 || len(tb.body) == 0 {
			continue
		}
		head, _ := modeSize(tb.header)
		body, _ := modeSize(tb.body)
		if head >= body {
			continue
		}
		var small []string
		for _, h := range tb.header {
			if fontSize(h) < body {
				small = append(small, model.StringOf(h, "id"))
			}
		}
		q.add(CodeHierarchyInverted, small, map[string]any{"action": "set", "ids": sorted(small), "field": "fontSize", "value": body},
			"table %s's header cells (%s px) are smaller than its body cells (%s px)", id, px(head), px(body))
	}
	for _, id := range legendOrder {
		title, labels := legendTitle[id], legendLabels[id]
		if title == nil || len(labels) == 0 {
			continue
		}
		largest := slices.MaxFunc(labels, func(a, b *ojson.Object) int { return cmp.Compare(fontSize(a), fontSize(b)) })
		if fontSize(title) >= fontSize(largest) {
			continue
		}
		tid := model.StringOf(title, "id")
		q.add(CodeHierarchyInverted, []string{tid, model.StringOf(largest, "id")}, map[string]any{"action": "set", "id": tid, "field": "fontSize", "value": fontSize(largest)},
			"legend %s's title %s (%s px) is smaller than its label %s (%s px)", id, tid, px(fontSize(title)), model.StringOf(largest, "id"), px(fontSize(largest)))
	}
	q.frameTitles()
}

// frameTitles: a frame's title, its topmost standalone text, is no
// smaller than the largest other text in the frame.
func (q *qa) frameTitles() {
	inFrame := map[string][]*ojson.Object{}
	var frames []string
	for _, el := range q.els {
		switch model.StringOf(el, "type") {
		case "frame", "magicframe":
			frames = append(frames, model.StringOf(el, "id"))
		case "text":
			f := model.StringOf(el, "frameId")
			if c := model.StringOf(el, "containerId"); c != "" {
				f = cmp.Or(model.StringOf(q.byID[c], "frameId"), f)
			}
			if f != "" {
				inFrame[f] = append(inFrame[f], el)
			}
		}
	}
	for _, f := range frames {
		var title *ojson.Object
		for _, t := range inFrame[f] {
			if model.StringOf(t, "containerId") != "" {
				continue
			}
			if title == nil || model.NumberOf(t, "y") < model.NumberOf(title, "y") ||
				model.NumberOf(t, "y") == model.NumberOf(title, "y") && model.NumberOf(t, "x") < model.NumberOf(title, "x") {
				title = t
			}
		}
		if title == nil {
			continue
		}
		var largest *ojson.Object
		for _, t := range inFrame[f] {
			if t != title && (largest == nil || fontSize(t) > fontSize(largest)) {
				largest = t
			}
		}
		if largest == nil || fontSize(title) >= fontSize(largest) {
			continue
		}
		tid, lid := model.StringOf(title, "id"), model.StringOf(largest, "id")
		q.add(CodeHierarchyInverted, []string{tid, lid}, map[string]any{"action": "set", "id": tid, "field": "fontSize", "value": fontSize(largest)},
			"frame %s's title %s (%s px) is smaller than its text %s (%s px)", f, tid, px(fontSize(title)), lid, px(fontSize(largest)))
	}
}

// legendEntry is one swatch of a legend and its label.
type legendEntry struct {
	legend        string
	swatch, label *ojson.Object
	role          string
}

// legendEntries are the board's legend entries, in scene order of their
// swatches.
func (q *qa) legendEntries() []legendEntry {
	type key struct {
		legend string
		entry  int
	}
	entries := map[key]*legendEntry{}
	var order []key
	for _, el := range q.els {
		t, ok := tag(el)
		if !ok || t.kind != "legend" || t.entry < 0 || (t.slot != "swatch" && t.slot != "label") {
			continue
		}
		k := key{t.id, t.entry}
		e := entries[k]
		if e == nil {
			e = &legendEntry{legend: t.id}
			entries[k] = e
			order = append(order, k)
		}
		if t.slot == "swatch" {
			e.swatch, e.role = el, t.role
		} else {
			e.label = q.text(el)
		}
	}
	var out []legendEntry
	for _, k := range order {
		if e := entries[k]; e.swatch != nil && e.label != nil {
			out = append(out, *e)
		}
	}
	return out
}

// swatchKey is what a legend swatch shows: a box's colour (its fill,
// else its stroke) or a line's stroke style.
func swatchKey(sw *ojson.Object) (kind, key string) {
	if isLine(sw) {
		return "line", cmp.Or(model.StringOf(sw, "strokeStyle"), "solid")
	}
	if fill := colorKey(model.StringOf(sw, "backgroundColor")); fill != "" && fill != "transparent" {
		return "box", fill
	}
	return "box", colorKey(model.StringOf(sw, "strokeColor"))
}

func isLine(el *ojson.Object) bool {
	t := model.StringOf(el, "type")
	return t == "line" || t == "arrow"
}

// roleKey is the colour a role is known by: its fill, else its stroke.
func roleKey(r profile.Role) string {
	if f := colorKey(r.Fill); f != "" && f != "transparent" {
		return f
	}
	return colorKey(r.Stroke)
}

// semantics: a colour or a stroke style has one meaning on the board.
func (q *qa) semantics() {
	entries := q.legendEntries()
	roles := slices.Sorted(maps.Keys(q.p.Roles))
	seen := map[string]legendEntry{}
	for _, e := range entries {
		kind, key := swatchKey(e.swatch)
		label := labelText(e.label)
		sid, lid := model.StringOf(e.swatch, "id"), model.StringOf(e.label, "id")
		meaning, what := "", ""
		if kind == "line" {
			meaning, what = q.p.Strokes[key], "the "+key+" stroke"
		} else {
			for _, name := range roles {
				if r := q.p.Roles[name]; r.Meaning != "" && roleKey(r) == key && !sameText(r.Meaning, label) {
					meaning, what = r.Meaning, "colour "+key+" (role "+name+")"
					break
				}
			}
		}
		if meaning != "" && !sameText(meaning, label) {
			q.add(CodeSemanticConflict, []string{sid, lid}, map[string]any{"action": "set", "id": lid, "field": "text", "value": meaning},
				"legend %s says %q for %s, which the board's profile says means %q", e.legend, label, what, meaning)
			continue
		}
		k := kind + " " + key
		if first, ok := seen[k]; ok && !sameText(labelText(first.label), label) {
			q.add(CodeSemanticConflict, []string{model.StringOf(first.swatch, "id"), model.StringOf(first.label, "id"), sid, lid}, nil,
				"two legend entries show the same %s swatch (%s) with different labels: %q and %q", kind, key, labelText(first.label), label)
			continue
		}
		if _, ok := seen[k]; !ok {
			seen[k] = e
		}
	}
}

func labelText(t *ojson.Object) string {
	if s, ok := t.String("originalText"); ok && s != "" {
		return s
	}
	return model.StringOf(t, "text")
}

func sameText(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// roleColors: an element tagged with a role is drawn in the role's
// colours.
func (q *qa) roleColors() {
	if len(q.p.Roles) == 0 {
		return
	}
	for _, el := range q.els {
		role := ""
		if t, ok := tag(el); ok {
			role = t.role
		} else if _, kind, piece, r, ok := diagramTag(el); ok && kind == "node" && piece == "" {
			role = r
		}
		r, ok := q.p.Roles[role]
		if role == "" || !ok {
			continue
		}
		id := model.StringOf(el, "id")
		var wrong []string
		var fix map[string]any
		if r.Fill != "" && !isLine(el) && colorKey(model.StringOf(el, "backgroundColor")) != colorKey(r.Fill) {
			wrong = append(wrong, fmt.Sprintf("fill %s, not %s", model.StringOf(el, "backgroundColor"), r.Fill))
			fix = map[string]any{"action": "set", "id": id, "field": "backgroundColor", "value": r.Fill}
		}
		if r.Stroke != "" && colorKey(model.StringOf(el, "strokeColor")) != colorKey(r.Stroke) {
			wrong = append(wrong, fmt.Sprintf("stroke %s, not %s", model.StringOf(el, "strokeColor"), r.Stroke))
			if fix == nil {
				fix = map[string]any{"action": "set", "id": id, "field": "strokeColor", "value": r.Stroke}
			}
		}
		if len(wrong) > 0 {
			q.add(CodeRoleColorMismatch, []string{id}, fix, "%s has role %s but is drawn with %s", id, role, strings.Join(wrong, " and "))
		}
	}
}

// colorKey is a colour in one spelling, so that "#ABC", "#aabbcc" and
// "#aabbccff" are one colour: every transparent colour is
// "transparent", a colour parseColor does not read its lower-case self.
func colorKey(c string) string {
	v, ok := parseColor(c)
	switch {
	case !ok:
		return normColor(c)
	case v.a == 0:
		return "transparent"
	}
	ch := func(f float64) int { return int(math.Round(f * 255)) }
	return fmt.Sprintf("#%02x%02x%02x%02x", ch(v.r), ch(v.g), ch(v.b), ch(v.a))
}
