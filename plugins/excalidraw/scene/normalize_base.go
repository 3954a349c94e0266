package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// Excalidraw's defaults for the style every element has
// (DEFAULT_ELEMENT_PROPS in constants.ts): what restore fills in and what
// the builder gives new elements.
const (
	DefaultStrokeColor     = "#1e1e1e"
	DefaultBackgroundColor = "transparent"
	DefaultFillStyle       = "solid"
	DefaultStrokeWidth     = 2
	DefaultStrokeStyle     = "solid"
	DefaultRoughness       = 1
	DefaultOpacity         = 100
)

// Roundness types (ROUNDNESS in constants.ts).
const (
	roundnessLegacy       = 1
	roundnessProportional = 2
)

// restorableTypes are the types restoreElement handles; it drops every
// other element (returns null), legacy "selection" elements included.
var restorableTypes = map[string]bool{
	"rectangle": true, "ellipse": true, "diamond": true, "iframe": true, "embeddable": true,
	"text": true, "freedraw": true, "image": true, "line": true, "draw": true, "arrow": true,
	"frame": true, "magicframe": true,
}

// restoreElements applies restoreElement to each element in order, then
// makes ids unique as restoreElements does. Elements of types restore
// drops are left as they are, and so are frozen elements: a sealed
// document's, restored when it was written.
func (n *normalizer) restoreElements() {
	var claimed map[string]bool // a scoped run claims in scope
	if !n.scoped {
		claimed = make(map[string]bool, len(n.els))
	}
	for i, el := range n.els {
		if n.sealedVisible(i, el) {
			continue // a sealed element in place: its visibility was recorded
		}
		if el == nil || !restorableTypes[elementType(el)] {
			continue
		}
		f := elemFix{n: n, i: i, el: el}
		if !el.Frozen() { // a frozen element is a fixed point already (fork.go)
			n.restoreElement(f)
		}
		n.visible[i] = !invisiblySmall(el)
		if n.visible[i] && !n.scoped { // a scoped run claims in scope (normalize_scope.go)
			n.claimID(f, claimed)
		}
	}
}

// restoreElement mirrors restore's restoreElement: it works out the
// type-specific fields from the element as read (restore computes its
// `extra` argument before anything is defaulted), applies the base
// defaults, then the type-specific fields. Adding members in that order
// gives them restore's key order.
func (n *normalizer) restoreElement(f elemFix) {
	typ := elementType(f.el)
	dropNonFinite(f)
	extra := n.extra[:0]
	switch typ {
	case "text":
		f.remove("rawText", FixLegacyField)
		if v, ok := peek(f.el, "font"); ok && !isString(v) {
			f.remove("font", FixLegacyField) // restore crashes splitting it
		}
		extra = n.textFields(extra, f)
	case "freedraw":
		extra = freedrawFields(extra, f.el)
	case "image":
		extra = imageFields(extra, f.el)
	case "line", "draw", "arrow":
		extra = n.linearFields(extra, f, typ)
	case "frame", "magicframe":
		extra = append(extra, nullishField(f.el, "name", nil))
	}
	n.extra = extra
	n.restoreBase(f, typ, IsLinear(typ) || typ == "draw")
	for _, a := range extra {
		if a.skip {
			continue
		}
		f.set(a.key, a.val, a.kind)
	}
	if typ == "text" {
		n.deleteEmptyText(f)
	}
}

// assignment is one field of restore's `extra`: the value it ends up with
// and the kind of fix when that differs from what the element holds. skip
// leaves the member as it is (restore passes it through unchanged).
type assignment struct {
	key  string
	val  any
	kind string
	skip bool
}

// keep passes a member through.
func keep(key string) assignment { return assignment{key: key, skip: true} }

// nullishField is `el[key] ?? def` as an assignment.
func nullishField(el *ojson.Object, key string, def any) assignment {
	if v, ok := el.Get(key); !jsNullish(v, ok) {
		return keep(key)
	}
	return assignment{key: key, val: def, kind: FixDefaultField}
}

// orField is `el[key] || def` as an assignment.
func orField(el *ojson.Object, key string, def any) assignment {
	if v, ok := el.Get(key); !jsFalsy(v, ok) {
		return keep(key)
	}
	return assignment{key: key, val: def, kind: FixDefaultField}
}

// restoreBase applies restoreElementWithProperties' base fields, in its
// order. For linear elements x, y, width and height are then overridden by
// the type-specific fields, so their sizes are not normalized here.
func (n *normalizer) restoreBase(f elemFix, typ string, linear bool) {
	f.or("version", jsNumber(1))
	f.nullish("versionNonce", jsNumber(0))
	f.nullish("index", nil)
	f.nullish("isDeleted", false)
	n.restoreID(f)
	f.or("fillStyle", DefaultFillStyle)
	f.or("strokeWidth", jsNumber(DefaultStrokeWidth))
	f.nullish("strokeStyle", DefaultStrokeStyle)
	f.nullish("roughness", jsNumber(DefaultRoughness))
	f.nullish("opacity", jsNumber(DefaultOpacity))
	f.or("angle", jsNumber(0))
	f.nullish("x", jsNumber(0))
	f.nullish("y", jsNumber(0))
	f.or("strokeColor", DefaultStrokeColor)
	f.or("backgroundColor", DefaultBackgroundColor)
	f.or("width", jsNumber(0))
	f.or("height", jsNumber(0))
	f.nullish("seed", jsNumber(1))
	f.nullish("groupIds", []any{})
	f.nullish("frameId", nil)
	restoreRoundness(f, typ)
	restoreBoundElements(f)
	if v, ok := f.el.Get("updated"); jsNullish(v, ok) {
		f.set("updated", n.latest(), FixDefaultField)
	}
	restoreLink(f)
	f.nullish("locked", false)
	if !linear {
		normalizeDimensions(f)
	}
}

// restoreRoundness keeps a set roundness; otherwise it derives one from
// the legacy strokeSharpness (kept, as restore keeps it) or sets null.
// Old rounded rectangles get the legacy radius algorithm so that they look
// as they did.
func restoreRoundness(f elemFix, typ string) {
	if v, ok := f.el.Get("roundness"); !jsFalsy(v, ok) {
		return
	}
	if s, _ := peek(f.el, "strokeSharpness"); s != "round" {
		f.set("roundness", nil, FixDefaultField)
		return
	}
	kind := roundnessProportional
	if usesAdaptiveRadius(typ) {
		kind = roundnessLegacy
	}
	f.set("roundness", ojson.New().Set("type", jsNumber(float64(kind))), FixLegacyRoundness)
}

// usesAdaptiveRadius: the types whose rounded corners now use a fixed
// radius (isUsingAdaptiveRadius).
func usesAdaptiveRadius(typ string) bool {
	return typ == "rectangle" || typ == "embeddable" || typ == "iframe" || typ == "image"
}

// restoreBoundElements migrates the legacy boundElementIds (every id
// becomes an arrow entry, as restore maps them) or defaults boundElements
// to []. Restore keeps boundElementIds and rebuilds boundElements from it
// on every load, which would undo any later repair of boundElements, so
// it is removed once migrated. A boundElements that is not an array, on
// which restore's repair would crash, becomes [].
func restoreBoundElements(f elemFix) {
	if v, ok := peek(f.el, "boundElementIds"); !jsFalsy(v, ok) {
		ids, _ := v.([]any)
		list := make([]any, 0, len(ids))
		for _, id := range ids {
			list = append(list, ojson.New().Set("type", "arrow").Set("id", id))
		}
		f.put("boundElements", list)
		f.remove("boundElementIds", FixLegacyBoundElements)
		return
	}
	v, ok := f.el.Get("boundElements")
	if jsNullish(v, ok) {
		f.set("boundElements", []any{}, FixDefaultField)
		return
	}
	if _, isArray := v.([]any); !isArray {
		f.set("boundElements", []any{}, FixBoundElements)
	}
}

// restoreLink applies `link ? normalizeLink(link) : null`, repeated until
// it settles (see fixedLink). A link that is not a string, on which
// restore crashes (the editor then cannot open the file), becomes null.
func restoreLink(f elemFix) {
	v, ok := f.el.Get("link")
	if jsFalsy(v, ok) {
		f.set("link", nil, FixDefaultField)
		return
	}
	s, isString := v.(string)
	if !isString {
		f.set("link", nil, FixLink)
		return
	}
	if l := fixedLink(s); l == "" {
		f.set("link", nil, FixLink)
	} else {
		f.set("link", l, FixLink)
	}
}

// normalizeDimensions makes a negative width or height positive, moving x
// or y so the box stays where it was drawn (getNormalizedDimensions).
func normalizeDimensions(f elemFix) {
	for _, dim := range [][2]string{{"width", "x"}, {"height", "y"}} {
		size, ok := finite(f.el, dim[0])
		if !ok || size >= 0 {
			continue
		}
		f.set(dim[0], jsNumber(-size), FixDimensions)
		if pos, ok := finite(f.el, dim[1]); ok {
			f.set(dim[1], jsNumber(pos+size), FixDimensions)
		}
	}
}

// invisiblySmall mirrors isInvisiblySmallElement, which restore uses to
// drop elements: a linear or freedraw element with fewer than two points,
// any other with zero width and height.
func invisiblySmall(el *ojson.Object) bool {
	switch elementType(el) {
	case "arrow", "line", "freedraw":
		pts, ok := el.Array("points")
		return ok && len(pts) < 2
	}
	w, okW := finite(el, "width")
	h, okH := finite(el, "height")
	return okW && okH && w == 0 && h == 0
}
