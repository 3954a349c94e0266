package service

import (
	"cmp"
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// legendTagKey is the customData member every board-craft planner tags
// its parts with: {"kind", "id", "slot", …}; a legend's kind is
// "legend", its slots box, title, swatch (with entry, and role) and
// label (with entry).
const legendTagKey = "dsh"

// Bounds of a legend.
const (
	maxLegendEntries = 50
	maxLegendLabel   = 200
)

// The legend's look: a light box with a grey outline, dark ink.
const (
	legendFill   = "#f8f9fa"
	legendStroke = "#ced4da"
	legendInk    = "#1e1e1e"
)

// LegendEntry is one line of a legend: a swatch (a box in its stroke and
// fill, or a line in its stroke and stroke style) and its label. Role
// names a profile role: the swatch takes the role's colours unless given
// its own, and is tagged with it.
type LegendEntry struct {
	Label       string `json:"label"`
	Kind        string `json:"kind,omitempty"`
	Stroke      string `json:"stroke,omitempty"`
	Fill        string `json:"fill,omitempty"`
	StrokeStyle string `json:"strokeStyle,omitempty"`
	Role        string `json:"role,omitempty"`
}

// SetLegend draws a legend: its entries (or, with FromProfile, one per
// profile role with its meaning and one per stroke style with its
// meaning) as swatches with labels in a light box, an optional title on
// top, sized from the board's type scale, at At or beside the content.
// With Legend, the legend of that id is drawn again where it is: from
// what this call gives, or else from what it was drawn from (so a
// changed profile shows).
type SetLegend struct {
	Legend      string        `json:"legend,omitempty"`
	Entries     []LegendEntry `json:"entries,omitempty"`
	FromProfile bool          `json:"fromProfile,omitempty"`
	Title       *string       `json:"title,omitempty"`
	At          *engine.Point `json:"at,omitempty"`

	profile profile.Profile
}

// WithProfile gives the legend the board's profile (Profiled).
func (e SetLegend) WithProfile(p profile.Profile) Edit {
	e.profile = p
	return e
}

func (e SetLegend) Named() []string { return nil }

// legendSpec is what a legend is drawn from, kept on its box so that
// `legend: id` alone draws it again.
type legendSpec struct {
	Title       string        `json:"title,omitempty"`
	Entries     []LegendEntry `json:"entries,omitempty"`
	FromProfile bool          `json:"fromProfile,omitempty"`
}

func (e SetLegend) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		id := e.Legend
		spec := legendSpec{Entries: e.Entries, FromProfile: e.FromProfile}
		if e.Title != nil {
			spec.Title = strings.TrimSpace(*e.Title)
		}
		origin := besideContent(doc)
		if e.At != nil {
			origin = geom.V(e.At.X, e.At.Y)
		}
		var old []string
		if id != "" {
			parts, box := legendParts(doc, id)
			if box == nil {
				return PlanResult{}, sceneerr.New(sceneerr.NotFound, "no legend %q in this scene; set_legend answers its id", id).With("pointer", at+"/legend")
			}
			was := legendSpecOf(box)
			if len(e.Entries) == 0 && !e.FromProfile {
				spec.Entries, spec.FromProfile = was.Entries, was.FromProfile
			}
			if e.Title == nil {
				spec.Title = was.Title
			}
			if e.At == nil {
				origin = geom.V(scene.NumberOf(box, "x"), scene.NumberOf(box, "y"))
			}
			old = parts
		} else {
			id = newLegendID(doc, "lgd_")
		}
		entries, err := e.entries(at, spec)
		if err != nil {
			return PlanResult{}, err
		}
		if utf8.RuneCountInString(spec.Title) > maxLegendLabel {
			return PlanResult{}, opError(at+"/title", "a title has at most %d characters", maxLegendLabel)
		}
		if len(old) > 0 {
			if err := tx.Delete(old, at+"/legend"); err != nil {
				return PlanResult{}, err
			}
		}
		l := layLegend(e.profile, spec.Title, entries, origin, id)
		ids, err := tx.Add(l.inputs, at+"/entries")
		if err != nil {
			return PlanResult{}, err
		}
		for i, t := range l.tags {
			if i == 0 {
				raw, _ := json.Marshal(spec)
				v, err := ojson.Decode(raw, ojson.Limits{})
				if err != nil {
					return PlanResult{}, err
				}
				t.Set("spec", v)
			}
			if err := tx.SetCustom(ids[i], legendTagKey, t, at); err != nil {
				return PlanResult{}, err
			}
		}
		return PlanResult{Targets: ids[:1], Extra: map[string]any{
			"legend":  id,
			"entries": len(entries),
			"box":     map[string]float64{"x": origin.X, "y": origin.Y, "width": l.w, "height": l.h},
		}}, nil
	}
}

// entries are the legend's entries, checked (errors under at), with
// their colours: the given ones, else their role's, else ink on no fill.
func (e SetLegend) entries(at string, spec legendSpec) ([]LegendEntry, error) {
	p := e.profile
	in := spec.Entries
	ptr := at + "/entries"
	if spec.FromProfile {
		if len(spec.Entries) > 0 {
			return nil, opError(at+"/fromProfile", "give entries or fromProfile, not both")
		}
		in = nil
		for _, name := range slices.Sorted(maps.Keys(p.Roles)) {
			in = append(in, LegendEntry{Label: cmp.Or(p.Roles[name].Meaning, name), Role: name})
		}
		for _, style := range profile.StrokeStyles {
			if m := p.Strokes[style]; m != "" {
				in = append(in, LegendEntry{Label: m, Kind: "line", StrokeStyle: style})
			}
		}
		if len(in) == 0 {
			return nil, opError(at+"/fromProfile", "the board's profile gives no role or stroke style a meaning; set one with set_board_profile, or give entries")
		}
		ptr = at + "/fromProfile"
	}
	if len(in) == 0 {
		return nil, opError(at+"/entries", "give entries (label, and a swatch: fill, stroke, strokeStyle, kind box|line, or a profile role), or fromProfile: true")
	}
	if len(in) > maxLegendEntries {
		return nil, opError(at+"/entries", "a legend has at most %d entries (got %d)", maxLegendEntries, len(in))
	}
	out := make([]LegendEntry, len(in))
	for i, en := range in {
		at := ptr
		if !spec.FromProfile {
			at = ptr + "/" + strconv.Itoa(i)
		}
		en.Label = strings.TrimSpace(en.Label)
		if en.Label == "" || utf8.RuneCountInString(en.Label) > maxLegendLabel {
			return nil, opError(at+"/label", "a label is 1 to %d characters", maxLegendLabel)
		}
		switch en.Kind {
		case "":
			en.Kind = "box"
		case "box", "line":
		default:
			return nil, opError(at+"/kind", "kind is box or line (got %q)", en.Kind)
		}
		if en.Role != "" {
			r, ok := p.Roles[en.Role]
			if !ok {
				return nil, opError(at+"/role", "the board's profile has no role %q", en.Role)
			}
			en.Stroke, en.Fill = cmp.Or(en.Stroke, r.Stroke), cmp.Or(en.Fill, r.Fill)
		}
		en.Stroke = cmp.Or(en.Stroke, legendInk)
		if en.Kind == "box" {
			en.Fill = cmp.Or(en.Fill, "transparent")
		}
		for field, c := range map[string]string{"stroke": en.Stroke, "fill": en.Fill} {
			if c != "" && !build.ValidColor(c) {
				return nil, opError(at+"/"+field, "%q is no colour Excalidraw draws: use #rgb, #rgba, #rrggbb, #rrggbbaa, a CSS colour name or transparent", c)
			}
		}
		switch en.StrokeStyle {
		case "":
			en.StrokeStyle = "solid"
		case "solid", "dashed", "dotted":
		default:
			return nil, opError(at+"/strokeStyle", "strokeStyle is solid, dashed or dotted (got %q)", en.StrokeStyle)
		}
		out[i] = en
	}
	return out, nil
}

// legendLayout is a legend's element inputs in drawing order (the box
// first), each with its tag, and the box's size.
type legendLayout struct {
	inputs []json.RawMessage
	tags   []*ojson.Object
	w, h   float64
}

// layLegend lays a legend out at origin: a box holding the title and one
// row per entry, a swatch then its label, each row's swatch and label
// centred on one line. Text is measured as the editor measures it; sizes
// come from the profile's type scale (labels body, the title the next
// size up), spacing from its gap.
func layLegend(p profile.Profile, title string, entries []LegendEntry, origin geom.Vec, id string) legendLayout {
	fam := textmetrics.DefaultFamily
	if p.FontFamily != 0 {
		fam = textmetrics.FontFamily(p.FontFamily)
	}
	labelSize := scaleSize(p, "body", 16)
	titleSize := labelSize
	for _, s := range p.Sizes() {
		if s > labelSize {
			titleSize = s
			break
		}
	}
	if len(p.TypeScale) == 0 {
		titleSize = 20
	}
	gap := p.Gap()
	pad := math.Round(gap * 0.8)
	rowGap := math.Round(max(8, gap/2))
	swW, swH := math.Round(labelSize*2.5), math.Round(labelSize*1.25)

	var l legendLayout
	add := func(in map[string]any, tag *ojson.Object) {
		in["groupIds"] = []string{id}
		raw, _ := json.Marshal(in)
		l.inputs = append(l.inputs, raw)
		l.tags = append(l.tags, tag)
	}
	tag := func(slot string) *ojson.Object {
		return ojson.New().Set("kind", "legend").Set("id", id).Set("slot", slot)
	}
	round := func(v float64) float64 { return math.Round(v*100) / 100 }

	// Measure first: the box fits its widest row.
	var titleM textmetrics.Size
	width := 0.0
	if title != "" {
		titleM = textmetrics.Measure(title, fam, titleSize)
		width = titleM.Width
	}
	labels := make([]textmetrics.Size, len(entries))
	for i, en := range entries {
		labels[i] = textmetrics.Measure(en.Label, fam, labelSize)
		width = max(width, swW+rowGap+labels[i].Width)
	}
	y := pad
	if title != "" {
		y += titleM.Height + rowGap
	}
	rows := y
	for i := range entries {
		rows += max(swH, labels[i].Height)
		if i < len(entries)-1 {
			rows += rowGap
		}
	}
	l.w, l.h = math.Ceil(width+2*pad), math.Ceil(rows+pad)
	add(map[string]any{"type": "rectangle", "x": origin.X, "y": origin.Y, "width": l.w, "height": l.h,
		"strokeColor": legendStroke, "backgroundColor": legendFill, "fillStyle": "solid", "strokeWidth": 1, "roughness": 0, "roundness": "round"}, tag("box"))
	if title != "" {
		add(map[string]any{"type": "text", "x": round(origin.X + pad), "y": round(origin.Y + pad), "text": title,
			"fontSize": titleSize, "fontFamily": int(fam), "strokeColor": legendInk}, tag("title"))
	}
	for i, en := range entries {
		rowH := max(swH, labels[i].Height)
		mid := origin.Y + y + rowH/2
		x := origin.X + pad
		sw := tag("swatch").Set("entry", float64(i))
		if en.Role != "" {
			sw.Set("role", en.Role)
		}
		if en.Kind == "line" {
			add(map[string]any{"type": "line", "x": round(x), "y": round(mid), "points": [][2]float64{{0, 0}, {swW, 0}},
				"strokeColor": en.Stroke, "strokeStyle": en.StrokeStyle, "strokeWidth": 2, "roughness": 0, "roundness": "sharp"}, sw)
		} else {
			add(map[string]any{"type": "rectangle", "x": round(x), "y": round(mid - swH/2), "width": swW, "height": swH,
				"strokeColor": en.Stroke, "backgroundColor": en.Fill, "fillStyle": "solid", "strokeStyle": en.StrokeStyle,
				"strokeWidth": 1, "roughness": 0, "roundness": "sharp"}, sw)
		}
		add(map[string]any{"type": "text", "x": round(x + swW + rowGap), "y": round(mid - labels[i].Height/2), "text": en.Label,
			"fontSize": labelSize, "fontFamily": int(fam), "strokeColor": legendInk}, tag("label").Set("entry", float64(i)))
		y += rowH + rowGap
	}
	return l
}

// scaleSize is the profile's size of level; without one, def, or the
// size on the profile's scale nearest to def.
func scaleSize(p profile.Profile, level string, def float64) float64 {
	if s, ok := p.TypeScale[level]; ok {
		return s
	}
	return p.Nearest(def)
}

// legendParts are the live elements of legend id that are no label of
// another (deleting those takes their labels), and its box.
func legendParts(doc *scene.Document, id string) (ids []string, box *ojson.Object) {
	for _, el := range doc.Elements() {
		if scene.IsDeleted(el) || scene.StringOf(el, "containerId") != "" {
			continue
		}
		t, ok := legendTagOf(el)
		if !ok || scene.StringOf(t, "kind") != "legend" || scene.StringOf(t, "id") != id {
			continue
		}
		ids = append(ids, scene.StringOf(el, "id"))
		if scene.StringOf(t, "slot") == "box" {
			box = el
		}
	}
	return ids, box
}

// legendSpecOf is the spec a legend's box keeps.
func legendSpecOf(box *ojson.Object) legendSpec {
	var spec legendSpec
	t, _ := legendTagOf(box)
	if v, ok := t.Object("spec"); ok {
		if raw, err := ojson.Marshal(v); err == nil {
			_ = json.Unmarshal(raw, &spec)
		}
	}
	return spec
}

// craftTag is an element's customData.dsh.
func legendTagOf(el *ojson.Object) (*ojson.Object, bool) {
	cd, ok := el.Object("customData")
	if !ok {
		return nil, false
	}
	return cd.Object(legendTagKey)
}

// newLegendID is a structure id with prefix ("lgd_") that no element of
// doc is tagged with.
func newLegendID(doc *scene.Document, prefix string) string {
	const letters = "abcdefghijkmnpqrstuvwxyz23456789"
	for {
		b := []byte(prefix)
		for range 8 {
			b = append(b, letters[rand.IntN(len(letters))])
		}
		id := string(b)
		taken := false
		for _, el := range doc.Elements() {
			if t, ok := legendTagOf(el); ok && scene.StringOf(t, "id") == id {
				taken = true
				break
			}
		}
		if !taken {
			return id
		}
	}
}
