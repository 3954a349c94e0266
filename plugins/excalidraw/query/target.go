package query

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// The roles of [Target.Role]. Every live element has exactly one; they
// are checked in this order, so the first that fits is the element's:
const (
	// RoleFrame: a frame or magicframe.
	RoleFrame = "frame"
	// RoleLabel: a text bound to a container (its containerId names a live
	// element): the text shown inside a shape or on an arrow.
	RoleLabel = "label"
	// RoleConnector: an arrow or line with at least one end bound
	// (startBinding or endBinding names a live element). An arrow bound at
	// neither end connects nothing: it is standalone, so role standalone
	// with types ["arrow"] finds the floating arrows.
	RoleConnector = "connector"
	// RoleContainer: any other element (not an arrow or line) that has a
	// label.
	RoleContainer = "container"
	// RoleStandalone: everything else: shapes without a label, free text,
	// unbound arrows and lines, freedraw, images, embeds.
	RoleStandalone = "standalone"
)

var roles = []string{RoleContainer, RoleLabel, RoleConnector, RoleStandalone, RoleFrame}

// Region modes.
const (
	// ModeIntersects selects elements whose bounds overlap the region or
	// touch its edge (the default).
	ModeIntersects = "intersects"
	// ModeContains selects elements whose bounds lie entirely inside it.
	ModeContains = "contains"
)

// MaxRegexLength bounds [Target.TextRegex], in bytes. RE2 runs in time
// linear in the text, so the pattern's length is what bounds the work.
const MaxRegexLength = 256

// Region is a box in scene coordinates an element's rotation-aware
// bounds ([ElementBounds]) are compared with.
type Region struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Mode is ModeIntersects ("" means that) or ModeContains.
	Mode string `json:"mode,omitempty"`
}

// Target selects elements. Every field that is set must match (AND); an
// empty slice, an empty string and a nil pointer or map are not set, so
// the zero Target selects every live element. Field names in JSON are
// those of the tools' input (snake_case), and the seed's spellings are
// read as the same keys (see UnmarshalJSON); the pointers of errors are
// relative to the target object ("/text_regex"), for the caller to
// prefix with where the target sits in its input.
type Target struct {
	// IDs: the element's id is one of these.
	IDs []string `json:"ids,omitempty"`
	// FrameIDs: the element is inside one of these frames (its frameId is
	// one of them). The frames themselves are not their own members.
	FrameIDs []string `json:"frame_ids,omitempty"`
	// FrameName: the element is inside a frame whose name equals this,
	// ignoring case (several frames may share a name).
	FrameName string `json:"frame_name,omitempty"`
	// GroupID: the element belongs to this group at any nesting level
	// (its groupIds contain it).
	GroupID string `json:"group_id,omitempty"`
	// Region: the element's bounds intersect (or lie inside) this box.
	Region *Region `json:"region,omitempty"`
	// Types: the element's type is one of these (each a type the scene
	// model knows, see scene.SupportedTypes).
	Types []string `json:"types,omitempty"`
	// Role: one of the Role* values.
	Role string `json:"role,omitempty"`
	// TextContains: the element's text contains this, ignoring case. The
	// text is what the element shows: a text's originalText, the label of
	// a container or arrow, a frame's name (so a container and its label
	// both match their words).
	TextContains string `json:"text_contains,omitempty"`
	// TextRegex: the same text matches this RE2 regular expression (at
	// most MaxRegexLength bytes; (?i) makes it ignore case).
	TextRegex string `json:"text_regex,omitempty"`
	// HasLink: the element has a non-empty link (true) or none (false).
	HasLink *bool `json:"has_link,omitempty"`
	// Kind: the element belongs to a structure of this kind (one of
	// Kinds): a diagram create_diagram drew (customData.dshDiagram), or
	// a table, stack, slide or legend a planner drew (its tag's "kind",
	// in customData.dsh or beside it). An element may belong to several;
	// a label belongs to its container's.
	Kind string `json:"kind,omitempty"`
	// Slot: the element is this part of its structure (of the one Kind
	// names, if given): its tag's "slot" ("header", "cell", "item", "frame", "title", "swatch",
	// "label", "box"), or a diagram's part kind ("node", "edge",
	// "group", "participant", "message"...). Any string; one no element
	// has selects nothing.
	Slot string `json:"slot,omitempty"`
	// After: the element was changed by a commit after this revision of
	// the scene. The caller resolves it from the scene's history into
	// ChangedIDs before selecting (Select refuses it unresolved).
	After *int64 `json:"after,omitempty"`
	// ChangedIDs, filled by the caller (the ids changed after the
	// revision After names): the element's id is a key set to true. Nil
	// means not used; an empty map selects nothing.
	ChangedIDs map[string]bool `json:"-"`
	// IncludeDeleted: also select deleted elements (tombstones), which
	// are otherwise left out.
	IncludeDeleted bool `json:"include_deleted,omitempty"`

	// twice is the alias given beside its canonical spelling (see
	// UnmarshalJSON), refused by Check.
	twice string
}

// compiled is a checked Target, ready to test elements against.
type compiled struct {
	t      Target
	ids    map[string]bool
	frames map[string]bool // nil: not used
	types  map[string]bool
	lower  string
	re     *regexp.Regexp
}

// IsZero reports whether t selects by nothing (so, every live element).
func (t Target) IsZero() bool {
	return len(t.IDs) == 0 && len(t.FrameIDs) == 0 && t.FrameName == "" && t.GroupID == "" && t.Region == nil &&
		len(t.Types) == 0 && t.Role == "" && t.TextContains == "" && t.TextRegex == "" && t.HasLink == nil &&
		t.Kind == "" && t.Slot == "" && t.After == nil && t.ChangedIDs == nil && !t.IncludeDeleted && t.twice == ""
}

// Check reports whether the target is well formed: known types and role,
// a region with finite numbers and no negative size, a known region mode,
// a regular expression that compiles within MaxRegexLength. Its errors
// are *sceneerr.Error with code invalid_operation and details "pointer".
func (t Target) Check() error {
	_, err := compile(t, nil)
	return err
}

func compile(t Target, ix *index) (*compiled, error) {
	if t.twice != "" {
		return nil, invalid("/"+t.twice, "%s and %s are one key spelled two ways; give one", aliasOf[t.twice], t.twice)
	}
	if t.Kind != "" && !slices.Contains(Kinds, t.Kind) {
		return nil, invalid("/kind", "unknown kind %q; the kinds are %s", t.Kind, strings.Join(Kinds, ", "))
	}
	if t.After != nil && *t.After < 0 {
		return nil, invalid("/after", "after is a revision: 0 or more")
	}
	c := &compiled{t: t}
	if len(t.IDs) > 0 {
		c.ids = make(map[string]bool, len(t.IDs))
		for _, id := range t.IDs {
			c.ids[id] = true
		}
	}
	if len(t.Types) > 0 {
		c.types = make(map[string]bool, len(t.Types))
		for i, typ := range t.Types {
			if !scene.IsSupported(typ) {
				return nil, invalid("/types/"+strconv.Itoa(i), "unknown element type %q; the types are %s",
					typ, strings.Join(scene.SupportedTypes(), ", "))
			}
			c.types[typ] = true
		}
	}
	if t.Role != "" && !slices.Contains(roles, t.Role) {
		return nil, invalid("/role", "unknown role %q; the roles are %s", t.Role, strings.Join(roles, ", "))
	}
	if r := t.Region; r != nil {
		for _, f := range []struct {
			name string
			v    float64
		}{{"x", r.X}, {"y", r.Y}, {"width", r.Width}, {"height", r.Height}} {
			if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
				return nil, invalid("/region/"+f.name, "region %s must be a finite number", f.name)
			}
			if (f.name == "width" || f.name == "height") && f.v < 0 {
				return nil, invalid("/region/"+f.name, "region %s %g is negative", f.name, f.v)
			}
		}
		if r.Mode != "" && r.Mode != ModeIntersects && r.Mode != ModeContains {
			return nil, invalid("/region/mode", "region mode must be %q or %q, not %q", ModeIntersects, ModeContains, r.Mode)
		}
	}
	if t.TextRegex != "" {
		if len(t.TextRegex) > MaxRegexLength {
			return nil, invalid("/text_regex", "text_regex is %d bytes; the limit is %d", len(t.TextRegex), MaxRegexLength).
				With("max", MaxRegexLength).With("actual", len(t.TextRegex))
		}
		re, err := regexp.Compile(t.TextRegex)
		if err != nil {
			return nil, invalid("/text_regex", "text_regex does not compile (RE2 syntax): %s", reason(err))
		}
		c.re = re
	}
	c.lower = strings.ToLower(t.TextContains)
	switch {
	case t.FrameName != "" && ix == nil:
		// Only checking: the frames are looked up in a scene's index.
	case t.FrameName != "":
		// A frame must have the name, and be one of FrameIDs if given too.
		c.frames = map[string]bool{}
		for _, el := range ix.all {
			typ := ""
			if el != nil && !scene.IsDeleted(el) {
				typ = scene.StringOf(el, "type")
			}
			if typ != "frame" && typ != "magicframe" || !strings.EqualFold(scene.StringOf(el, "name"), t.FrameName) {
				continue
			}
			if id := scene.StringOf(el, "id"); len(t.FrameIDs) == 0 || slices.Contains(t.FrameIDs, id) {
				c.frames[id] = true
			}
		}
	case len(t.FrameIDs) > 0:
		// Ids of frames not (or no longer) in the scene still name the
		// elements that say they are in them.
		c.frames = make(map[string]bool, len(t.FrameIDs))
		for _, id := range t.FrameIDs {
			c.frames[id] = true
		}
	}
	return c, nil
}

// reason is a regexp error without the package's prefix.
func reason(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%s: `%s`", se.Code, se.Expr)
	}
	return err.Error()
}

func invalid(pointer, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}

// Select returns the elements of a scene (all its elements, in array
// order) that the target selects, in scene order. Its errors are those
// of [Target.Check].
func Select(elements []*ojson.Object, t Target) ([]*ojson.Object, error) {
	// The index costs a pass over the scene with maps of its ids; only a
	// role, a text or a frame name needs it.
	var ix *index
	if t.needsIndex() {
		ix = newIndex(elements)
	}
	c, err := compile(t, ix)
	if err != nil {
		return nil, err
	}
	if t.After != nil && t.ChangedIDs == nil {
		return nil, invalid("/after", "after is not resolved here: the scene's history was not read")
	}
	out := []*ojson.Object{}
	for _, el := range elements {
		if el != nil && c.match(ix, el) {
			out = append(out, el)
		}
	}
	return out, nil
}

// needsIndex reports whether matching t looks beyond the element itself:
// at its label or container (role, text) or at frames (frame name).
func (t *Target) needsIndex() bool {
	return t.Role != "" || t.TextContains != "" || t.TextRegex != "" || t.FrameName != "" || t.Kind != "" || t.Slot != ""
}

// match tests the cheap fields first. ix may be nil when the target does
// not need it (see needsIndex).
func (c *compiled) match(ix *index, el *ojson.Object) bool {
	t := &c.t
	if !t.IncludeDeleted && scene.IsDeleted(el) {
		return false
	}
	id := scene.StringOf(el, "id")
	if c.ids != nil && !c.ids[id] {
		return false
	}
	if t.ChangedIDs != nil && !t.ChangedIDs[id] {
		return false
	}
	if c.types != nil && !c.types[scene.StringOf(el, "type")] {
		return false
	}
	if c.frames != nil && !c.frames[scene.StringOf(el, "frameId")] {
		return false
	}
	if t.GroupID != "" && !inGroup(el, t.GroupID) {
		return false
	}
	if t.HasLink != nil && (scene.StringOf(el, "link") != "") != *t.HasLink {
		return false
	}
	if r := t.Region; r != nil {
		b, ok := ElementBounds(el)
		region := Box{X: r.X, Y: r.Y, Width: r.Width, Height: r.Height}
		if !ok {
			return false
		}
		if r.Mode == ModeContains {
			if !region.rect().Contains(b.rect()) {
				return false
			}
		} else if !region.rect().Intersects(b.rect()) {
			return false
		}
	}
	if t.Role != "" && ix.role(el) != t.Role {
		return false
	}
	if (t.Kind != "" || t.Slot != "") && !ix.partOf(el, t.Kind, t.Slot) {
		return false
	}
	if t.TextContains != "" || c.re != nil {
		text := ix.text(el)
		if t.TextContains != "" && !strings.Contains(strings.ToLower(text), c.lower) {
			return false
		}
		if c.re != nil && !c.re.MatchString(text) {
			return false
		}
	}
	return true
}

func inGroup(el *ojson.Object, g string) bool {
	arr, _ := el.Array("groupIds")
	for _, v := range arr {
		if s, _ := v.(string); s == g {
			return true
		}
	}
	return false
}
