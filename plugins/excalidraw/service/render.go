package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Render formats.
const (
	RenderPNG = "png"
	RenderSVG = "svg"
)

// Render budgets. A picture for a model defaults to about 1.5k image
// tokens (a model counts about 750 pixels a token) and a long edge a
// model's vision keeps; one for a person or a file may be as large as a
// browser canvas.
const (
	AgentPixels      = 1_150_000
	AgentLongEdge    = 1568
	MaxRenderPixels  = render.DefaultMaxPixels
	maxBadges        = 99
	badgeDiameterPx  = 18
	minAutoScale     = 0.01
	defaultExportPad = render.DefaultPadding
)

// RenderRequest is what to draw of a stored scene, and how.
type RenderRequest struct {
	Name string
	// Target selects the elements to draw (zero: all). A target that names
	// one frame (frame_name, frame_ids, or ids that are one frame's id) is
	// that frame exported as Excalidraw exports a frame (see exportedFrame);
	// several frames are drawn with their children, outlines and names.
	Target query.Target
	// Region is the part of the scene to draw (scene px); nil fits the
	// selected elements plus Padding.
	Region *geom.Rect
	// Format is png (default) or svg.
	Format string
	// Scale is output pixels per scene px; 0 picks the largest scale,
	// up to 2, that fits MaxPixels and MaxEdge.
	Scale float64
	// MaxPixels and MaxEdge bound the image (0: MaxRenderPixels, no edge).
	MaxPixels int
	MaxEdge   int
	// Padding around fitted elements (nil: Excalidraw's 10).
	Padding *float64
	// NoBackground leaves the background transparent.
	NoBackground bool
	// Dark draws in Excalidraw's dark theme.
	Dark bool
	// Badges numbers the drawn elements on the picture (PNG only), for a
	// model to point at them; the legend maps numbers to ids.
	Badges bool
	// tiles: an export that cuts a large PNG into tiles, so no pixel
	// budget applies to the whole (Export bounds the tiles instead).
	tiles bool
}

// RenderResult is a drawn scene.
type RenderResult struct {
	Name     string  `json:"name"`
	Revision int64   `json:"revision"`
	Format   string  `json:"format"`
	Width    int     `json:"width"`
	Height   int     `json:"height"`
	Scale    float64 `json:"scale"`
	// Origin is the scene point at pixel (0, 0): scene = origin + pixel/scale.
	Origin   [2]float64 `json:"origin"`
	Elements int        `json:"elements"`
	// Legend maps the badges drawn on the picture to element ids:
	// [number, id, type, label].
	Legend [][4]any `json:"legend,omitempty"`
	// BadgesOmitted counts drawn elements without a badge (over the cap).
	BadgesOmitted int    `json:"badgesOmitted,omitempty"`
	MIME          string `json:"-"`
	Data          []byte `json:"-"`
}

// Render draws a stored scene as PNG or SVG without a browser.
func (s *Service) Render(ctx context.Context, r RenderRequest) (res *RenderResult, err error) {
	done := s.store.obs.render(r.Format)
	defer func() { done(err) }()
	pic, res, err := s.draw(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := s.encode(pic, res); err != nil {
		return nil, err
	}
	return res, nil
}

// draw checks a render request, reads the scene and lays its picture out
// at the scale that fits (badges added): everything but the encoding.
func (s *Service) draw(ctx context.Context, r RenderRequest) (*render.Picture, *RenderResult, error) {
	switch r.Format {
	case "":
		r.Format = RenderPNG
	case RenderPNG, RenderSVG:
	default:
		return nil, nil, opError("/format", "format must be %q or %q", RenderPNG, RenderSVG)
	}
	if r.Scale < 0 || math.IsNaN(r.Scale) || math.IsInf(r.Scale, 0) || r.Scale > 8 {
		return nil, nil, opError("/scale", "scale must be between 0 (automatic) and 8")
	}
	if r.MaxPixels < 0 || r.MaxPixels > MaxRenderPixels {
		return nil, nil, opError("/max_pixels", "max_pixels must be at most %d", MaxRenderPixels)
	}
	if r.MaxPixels == 0 || r.tiles {
		r.MaxPixels = MaxRenderPixels
	}
	if r.Padding != nil && (*r.Padding < 0 || *r.Padding > 1000 || math.IsNaN(*r.Padding)) {
		return nil, nil, opError("/padding", "padding must be between 0 and 1000")
	}
	if g := r.Region; g != nil {
		if !finiteRect(*g) || g.W() <= 0 || g.H() <= 0 {
			return nil, nil, opError("/region", "region must have finite coordinates and a positive width and height")
		}
	}
	if err := r.Target.Check(); err != nil {
		return nil, nil, prefixPointer(err, "/target")
	}
	if err := store.ValidName(r.Name); err != nil {
		return nil, nil, mapError(err)
	}
	sc, err := s.store.Read(ctx, r.Name)
	if err != nil {
		return nil, nil, mapError(err)
	}
	doc, err := s.viewStored(sc.Data)
	if err != nil {
		return nil, nil, sceneerr.New(sceneerr.CorruptScene, "stored scene %s does not parse", r.Name).With("cause", err.Error())
	}
	if err := s.resolveAfter(ctx, r.Name, sc.Revision, doc, []targetAt{{"/target", &r.Target}}); err != nil {
		return nil, nil, err
	}
	o := render.DefaultOptions()
	o.Dark, o.Background, o.Region, o.MaxPixels = r.Dark, !r.NoBackground, r.Region, r.MaxPixels
	if r.Padding != nil {
		o.Padding = *r.Padding
	}
	if !r.Target.IsZero() {
		frames, onlyFrames := exportedFrames(doc, r.Target)
		var els []*ojson.Object
		if !onlyFrames || len(frames) != 1 {
			if els, err = query.Select(doc.Elements(), r.Target); err != nil {
				return nil, nil, prefixPointer(err, "/target")
			}
			if len(els) == 0 {
				return nil, nil, sceneerr.New(sceneerr.NotFound, "the target selects no element of %s", r.Name)
			}
		}
		switch {
		case len(frames) == 1:
			o.Frame = frames[0] // with onlyFrames, the whole scene overlapping it
		case len(frames) > 1 && onlyFrames:
			els = nil
			o.IDs = frames // each brings its children
		}
		for _, e := range els {
			id, _ := e.String("id")
			o.IDs = append(o.IDs, id)
		}
	}
	// Lay out at scale 1 to learn the size, then pick the scale.
	o.Scale, o.MaxPixels = 1, math.MaxInt
	pic, err := render.Draw(doc, o)
	if errors.Is(err, render.ErrEmpty) {
		// Its cause (render.ErrEmpty) tells it from a reader's not_found.
		e := sceneerr.New(sceneerr.NotFound, "nothing to draw in %s: it has no visible element there", r.Name)
		e.Err = err
		return nil, nil, e
	}
	if err != nil {
		return nil, nil, sceneerr.New(sceneerr.InvalidOperation, "%s", err.Error())
	}
	scale := r.Scale
	if scale == 0 {
		scale = fitScale(pic.View, r.MaxPixels, r.MaxEdge)
	}
	pic.Scale = scale
	if w, h := pic.PixelSize(); r.Format == RenderPNG && !r.tiles && (float64(w)*float64(h) > float64(r.MaxPixels) || (r.MaxEdge > 0 && max(w, h) > r.MaxEdge)) {
		return nil, nil, sceneerr.New(sceneerr.TooLarge, "%d × %d px at scale %g is over the limit of %d pixels%s; lower the scale, draw a region or a target",
			w, h, scale, r.MaxPixels, edgeNote(r.MaxEdge)).With("width", w).With("height", h)
	}
	res := &RenderResult{Name: r.Name, Revision: sc.Revision, Format: r.Format, Scale: round3(scale),
		Origin: [2]float64{round2(pic.View.MinX), round2(pic.View.MinY)}, Elements: len(pic.Order)}
	res.Width, res.Height = pic.PixelSize()
	if r.Badges && r.Format == RenderPNG {
		res.Legend, res.BadgesOmitted = addBadges(pic, doc)
	}
	return pic, res, nil
}

// exportedFrames are the ids of the live frames a target names, in scene
// order: by frame_name (within frame_ids when both are given), by
// frame_ids, or by ids that are all frames. onlyFrames reports that the
// target selects by nothing else. One frame named alone is exported as
// Excalidraw exports a selected frame: whatever overlaps it, in no other
// frame, clipped to it, the picture exactly its bounds.
func exportedFrames(doc *scene.Document, t query.Target) (ids []string, onlyFrames bool) {
	rest := t
	rest.FrameName, rest.FrameIDs, rest.IncludeDeleted = "", nil, false
	idsOnly := rest.IDs != nil && t.FrameName == "" && t.FrameIDs == nil
	if idsOnly {
		rest.IDs = nil
	}
	onlyFrames = rest.IsZero()
	if t.FrameName == "" && t.FrameIDs == nil && !idsOnly {
		return nil, onlyFrames
	}
	want := map[string]bool{}
	for _, id := range t.FrameIDs {
		want[id] = true
	}
	if idsOnly {
		for _, id := range t.IDs {
			want[id] = true
		}
	}
	for _, el := range doc.Elements() {
		typ, _ := el.String("type")
		if (typ != "frame" && typ != "magicframe") || scene.IsDeleted(el) {
			continue
		}
		id, _ := el.String("id")
		name, _ := el.String("name")
		if t.FrameName != "" && !strings.EqualFold(name, t.FrameName) {
			continue
		}
		if len(want) > 0 && !want[id] {
			continue
		}
		ids = append(ids, id)
	}
	if idsOnly && len(ids) != len(t.IDs) {
		return nil, false // ids that are not all frames: a selection
	}
	return ids, onlyFrames
}

// encode writes pic in res's format into res.Data.
func (s *Service) encode(pic *render.Picture, res *RenderResult) error {
	var buf bytes.Buffer
	var err error
	switch res.Format {
	case RenderSVG:
		err = svg.Write(&buf, pic, s.fonts)
		res.MIME = "image/svg+xml"
	default:
		err = raster.PNG(&buf, pic, s.fonts)
		res.MIME = "image/png"
	}
	if err != nil {
		return fmt.Errorf("render %s: %w", res.Name, err)
	}
	res.Data = buf.Bytes()
	return nil
}

// fitScale is the largest scale up to 2 that fits the budgets: a small
// drawing is enlarged so its text stays legible, a large one shrunk.
func fitScale(view geom.Rect, maxPixels, maxEdge int) float64 {
	w, h := math.Max(view.W(), 1), math.Max(view.H(), 1)
	scale := 2.0
	if p := w * h * scale * scale; p > float64(maxPixels) {
		scale = math.Sqrt(float64(maxPixels) / (w * h))
	}
	if maxEdge > 0 && math.Max(w, h)*scale > float64(maxEdge) {
		scale = float64(maxEdge) / math.Max(w, h)
	}
	// A little under, so rounding up to whole pixels stays in budget.
	scale = math.Floor(scale*1000) / 1000
	return math.Max(scale, minAutoScale)
}

func edgeNote(edge int) string {
	if edge <= 0 {
		return ""
	}
	return fmt.Sprintf(" or %d px on its long edge", edge)
}

func finiteRect(r geom.Rect) bool {
	for _, v := range []float64{r.MinX, r.MinY, r.MaxX, r.MaxY} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// addBadges draws a numbered badge at the top-left corner of each drawn
// element (labels are their containers') and returns the legend.
func addBadges(pic *render.Picture, doc *scene.Document) ([][4]any, int) {
	byID := map[string]*ojson.Object{}
	for _, e := range doc.Elements() {
		if id, ok := e.String("id"); ok {
			byID[id] = e
		}
	}
	var legend [][4]any
	omitted := 0
	d := badgeDiameterPx / pic.Scale
	for _, id := range pic.Order {
		e := byID[id]
		if e == nil {
			continue
		}
		if c, _ := e.String("containerId"); c != "" && byID[c] != nil {
			continue // a label: its container has the badge
		}
		if len(legend) == maxBadges {
			omitted++
			continue
		}
		n := len(legend) + 1
		b := pic.Bounds[id]
		typ, _ := e.String("type")
		legend = append(legend, [4]any{n, id, typ, badgeLabel(e, byID)})
		pic.Items = append(pic.Items, badgeItem(n, b.MinX, b.MinY, d))
	}
	return legend, omitted
}

// badgeLabel is the short text an element shows: its own text, its
// label's, or a frame's name; "" when none.
func badgeLabel(e *ojson.Object, byID map[string]*ojson.Object) string {
	t, _ := e.String("type")
	var s string
	switch t {
	case "text":
		s, _ = e.String("text")
	case "frame", "magicframe":
		s, _ = e.String("name")
	default:
		if list, ok := e.Array("boundElements"); ok {
			for _, v := range list {
				if b, ok := v.(*ojson.Object); ok && b != nil {
					if bt, _ := b.String("type"); bt == "text" {
						id, _ := b.String("id")
						if l := byID[id]; l != nil {
							s, _ = l.String("text")
						}
					}
				}
			}
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	return s
}

// badgeItem is a badge: a filled circle of diameter d (scene px) with its
// number, its centre at the element's corner.
func badgeItem(n int, x, y, d float64) render.Item {
	r := d / 2
	var p render.Path
	const k = 0.5522847498
	p.MoveTo(x+r, y)
	p.CubicTo(x+r, y+r*k, x+r*k, y+r, x, y+r)
	p.CubicTo(x-r*k, y+r, x-r, y+r*k, x-r, y)
	p.CubicTo(x-r, y-r*k, x-r*k, y-r, x, y-r)
	p.CubicTo(x+r*k, y-r, x+r, y-r*k, x+r, y)
	p.Close()
	fill := render.Color{R: 0xe0, G: 0x31, B: 0x31, A: 0xff}
	white := render.Color{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	size := d * 0.62
	if n >= 10 {
		size = d * 0.5
	}
	return render.Item{
		ID: fmt.Sprintf("badge-%d", n), Type: "badge", Transform: render.Identity, Opacity: 1, NoFilter: true,
		Shapes: []render.Shape{{Path: p, Paint: render.Paint{Fill: &fill, Stroke: &white, Width: d / 12}}},
		Text: &render.Text{Lines: []render.TextLine{{Text: fmt.Sprint(n), X: x, Y: y + size*0.36}},
			Family: 9, Size: size, Color: white, Anchor: render.AnchorMiddle},
	}
}
