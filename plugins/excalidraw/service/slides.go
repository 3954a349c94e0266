package service

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// SlideKind is the tag kind of a deck's frames (slot "frame").
const SlideKind = "slide"

// SlideSizes are the named sizes of a slide or sheet, in pixels: screens
// at 1600 wide, paper at 96 dpi.
var SlideSizes = map[string]SlideSize{
	"16:9":             {Width: 1600, Height: 900},
	"4:3":              {Width: 1600, Height: 1200},
	"1:1":              {Width: 1200, Height: 1200},
	"a4":               {Width: 794, Height: 1123},
	"a4-landscape":     {Width: 1123, Height: 794},
	"letter":           {Width: 816, Height: 1056},
	"letter-landscape": {Width: 1056, Height: 816},
}

// SlidePresets are SlideSizes' names, in the order the tool lists them.
var SlidePresets = []string{"16:9", "4:3", "1:1", "a4", "a4-landscape", "letter", "letter-landscape"}

// slideLevels are the font sizes of the type scale's levels on a slide
// when the board's profile gives none.
var slideLevels = map[string]float64{"title": 56, "heading": 40, "subheading": 32, "body": 24, "caption": 18}

// SlideSize is a slide's width and height: given as {width, height}, or
// as the name of one of SlideSizes.
type SlideSize struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Preset is the name it was given by, if any.
	Preset string `json:"-"`
}

// UnmarshalJSON takes a preset's name or {width, height}.
func (s *SlideSize) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		*s = SlideSize{Preset: name}
		return nil
	}
	type plain SlideSize
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = SlideSize(p)
	return nil
}

// Slide is one new slide: its frame's name and its elements, element
// inputs placed relative to the slide's top-left.
type Slide struct {
	Name     string            `json:"name,omitempty"`
	Elements []json.RawMessage `json:"elements,omitempty"`
}

// LayoutFrames lays frames out as slides or sheets of one size, in a row
// or a grid, gap apart: new ones (Slides, each with its content), or the
// existing frames ids or target names (moved with their children and
// resized). The deck's frames are tagged, in order.
type LayoutFrames struct {
	engine.Selection
	Slides  []Slide       `json:"slides,omitempty"`
	Size    *SlideSize    `json:"size,omitempty"`
	Layout  string        `json:"layout,omitempty"`
	Columns int           `json:"columns,omitempty"`
	Gap     *float64      `json:"gap,omitempty"`
	At      *engine.Point `json:"at,omitempty"`

	profile profile.Profile
}

// WithProfile takes the board's type scale for the slides' texts and its
// spacing for the gap.
func (e LayoutFrames) WithProfile(p profile.Profile) Edit {
	e.profile = p
	return e
}

func (e LayoutFrames) Named() []string { return e.IDs }

func (e LayoutFrames) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		size, err := e.size(at)
		if err != nil {
			return PlanResult{}, err
		}
		if err := e.check(at); err != nil {
			return PlanResult{}, err
		}
		gap := e.profile.Gap() * 5
		if e.Gap != nil {
			gap = *e.Gap
		}
		deck := taggedID("dck_")
		var frames []string
		if len(e.Slides) > 0 {
			origin := besideContent(doc)
			if e.At != nil {
				origin.X, origin.Y = e.At.X, e.At.Y
			}
			for i, sl := range e.Slides {
				x, y := e.slot(i, len(e.Slides), size, gap)
				id, err := e.newSlide(tx, doc, sl, engine.Box{X: origin.X + x, Y: origin.Y + y, Width: size.Width, Height: size.Height}, fmt.Sprintf("%s/slides/%d", at, i))
				if err != nil {
					return PlanResult{}, err
				}
				frames = append(frames, id)
			}
		} else {
			if frames, err = e.existing(tx, doc, size, gap, at); err != nil {
				return PlanResult{}, err
			}
		}
		for i, id := range frames {
			tag := ojson.New().Set("kind", SlideKind).Set("id", deck).Set("slot", "frame").Set("index", i)
			if err := tx.Tag(id, SlideKind, tag, at); err != nil {
				return PlanResult{}, err
			}
		}
		return PlanResult{Targets: frames, Extra: map[string]any{
			"deck": deck, "frames": frames, "size": map[string]float64{"width": size.Width, "height": size.Height},
		}}, nil
	}
}

// size is the slides' size: given, a preset's, or 16:9.
func (e LayoutFrames) size(at string) (SlideSize, error) {
	switch {
	case e.Size == nil:
		return SlideSizes["16:9"], nil
	case e.Size.Preset != "":
		s, ok := SlideSizes[e.Size.Preset]
		if !ok {
			return SlideSize{}, opError(at+"/size", "size is {width, height} or one of %v, not %q", SlidePresets, e.Size.Preset)
		}
		return s, nil
	case e.Size.Width < 50 || e.Size.Height < 50 || e.Size.Width > 20000 || e.Size.Height > 20000:
		return SlideSize{}, opError(at+"/size", "a slide's width and height are from 50 to 20000")
	}
	return *e.Size, nil
}

// check refuses what cannot make a deck, before anything changes.
func (e LayoutFrames) check(at string) error {
	hasFrames := len(e.IDs) > 0 || e.Target != nil
	switch {
	case len(e.Slides) == 0 && !hasFrames:
		return opError(at+"/slides", "give slides (new ones) or ids or target (existing frames)")
	case len(e.Slides) > 0 && hasFrames:
		return opError(at+"/slides", "give slides or existing frames (ids or target), not both")
	case e.Layout != "" && e.Layout != "row" && e.Layout != "grid":
		return opError(at+"/layout", "layout is row or grid, not %q", e.Layout)
	case e.Columns < 0 || e.Columns > 100:
		return opError(at+"/columns", "columns are from 1 to 100")
	case e.Columns > 0 && e.Layout == "row":
		return opError(at+"/columns", "columns go with layout grid")
	case e.Gap != nil && (*e.Gap < 0 || *e.Gap > 10000):
		return opError(at+"/gap", "gap must be between 0 and 10000")
	}
	return nil
}

// slot is where slide i of n goes, relative to the deck's top-left.
func (e LayoutFrames) slot(i, n int, size SlideSize, gap float64) (float64, float64) {
	cols := n
	if e.Layout == "grid" || e.Columns > 0 {
		cols = e.Columns
		if cols == 0 {
			cols = int(math.Ceil(math.Sqrt(float64(n))))
		}
	}
	return float64(i%cols) * (size.Width + gap), float64(i/cols) * (size.Height + gap)
}

// newSlide makes one slide: its frame at box and its elements inside it.
// An element that does not fit in the slide is refused at its place.
func (e LayoutFrames) newSlide(tx *engine.Txn, doc *scene.Document, sl Slide, box engine.Box, at string) (string, error) {
	id, err := tx.CreateFrame(sl.Name, &box, nil, 0, at)
	if err != nil {
		return "", err
	}
	if len(sl.Elements) == 0 {
		return id, nil
	}
	inputs := make([]json.RawMessage, len(sl.Elements))
	for j, raw := range sl.Elements {
		if inputs[j], err = e.slideInput(raw, box, at+"/elements/"+strconv.Itoa(j)); err != nil {
			return "", err
		}
	}
	res, err := tx.Create(inputs, at+"/elements")
	if err != nil {
		return "", err
	}
	for j, eid := range res.IDs {
		if err := fits(doc, eid, box, at+"/elements/"+strconv.Itoa(j)); err != nil {
			return "", err
		}
	}
	if err := tx.FrameAdd(id, res.IDs, at+"/elements"); err != nil {
		return "", err
	}
	return id, nil
}

// slideInput is an element input of a slide moved onto the board (x and
// y are the slide's, 0 where not given) and its text sized by its level
// (the type scale's: title, heading, subheading, body, caption; a text
// without one is body text when the profile sizes body text).
func (e LayoutFrames) slideInput(raw json.RawMessage, box engine.Box, at string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, opError(at, "an element is an object")
	}
	for _, k := range []string{"x", "y"} {
		var v float64
		if r, ok := m[k]; ok {
			if err := json.Unmarshal(r, &v); err != nil {
				return nil, opError(at+"/"+k, "%s is a number", k)
			}
		}
		if k == "x" {
			v += box.X
		} else {
			v += box.Y
		}
		m[k], _ = json.Marshal(v)
	}
	level := ""
	if r, ok := m["level"]; ok {
		if json.Unmarshal(r, &level) != nil || !slices.Contains(profile.Levels, level) {
			return nil, opError(at+"/level", "level is one of %v", profile.Levels)
		}
		delete(m, "level")
	}
	var typ string
	_ = json.Unmarshal(m["type"], &typ)
	if _, given := m["fontSize"]; typ == "text" && !given {
		switch {
		case level != "":
			m["fontSize"], _ = json.Marshal(e.profile.Size(level, slideLevels[level]))
		case e.profile.TypeScale["body"] > 0:
			m["fontSize"], _ = json.Marshal(e.profile.TypeScale["body"])
		}
	}
	return json.Marshal(m)
}

// fits refuses element id when its box (as built: a label grows its
// container) reaches out of the slide's box.
func fits(doc *scene.Document, id string, box engine.Box, at string) error {
	_, el := doc.Find(id)
	if el == nil {
		return nil
	}
	b, ok := scene.ElementBounds(el)
	if !ok {
		return nil
	}
	const slack = 0.5
	if b.MinX < box.X-slack || b.MinY < box.Y-slack || b.MaxX > box.X+box.Width+slack || b.MaxY > box.Y+box.Height+slack {
		return opError(at, "the element reaches from (%g, %g) to (%g, %g) on its slide, which is %g × %g: move it in or give a bigger size",
			math.Round(b.MinX-box.X), math.Round(b.MinY-box.Y), math.Round(b.MaxX-box.X), math.Round(b.MaxY-box.Y), box.Width, box.Height)
	}
	return nil
}

// existing lays out the frames ids or target names, in that order, from
// the first one's place (or At): each is moved with its children and
// given the size; a frame whose children would not fit is refused.
func (e LayoutFrames) existing(tx *engine.Txn, doc *scene.Document, size SlideSize, gap float64, at string) ([]string, error) {
	ids, err := tx.Resolve(e.Selection, true)
	if err != nil {
		return nil, prefixPointer(err, at)
	}
	ptr := at + e.Pointer()
	var frames []*ojson.Object
	for i, id := range ids {
		_, el := doc.Find(id)
		if el == nil || scene.IsDeleted(el) {
			return nil, sceneerr.New(sceneerr.NotFound, "no live element with id %q", id).With("pointer", ptr+"/"+strconv.Itoa(i)).With("id", id)
		}
		if t := scene.StringOf(el, "type"); t != "frame" && t != "magicframe" {
			return nil, opError(ptr+"/"+strconv.Itoa(i), "%q is a %s, not a frame: layout_frames lays out frames (create_frame makes one)", id, t)
		}
		if !slices.Contains(frames, el) {
			frames = append(frames, el)
		}
	}
	origin := engine.Point{X: scene.NumberOf(frames[0], "x"), Y: scene.NumberOf(frames[0], "y")}
	if e.At != nil {
		origin = *e.At
	}
	out := make([]string, len(frames))
	for i, f := range frames {
		id := scene.StringOf(f, "id")
		out[i] = id
		fx, fy := scene.NumberOf(f, "x"), scene.NumberOf(f, "y")
		for _, c := range doc.Elements() {
			if c == nil || scene.IsDeleted(c) || scene.StringOf(c, "frameId") != id {
				continue
			}
			if b, ok := scene.ElementBounds(c); ok && (b.MaxX > fx+size.Width+0.5 || b.MaxY > fy+size.Height+0.5) {
				return nil, opError(ptr+"/"+strconv.Itoa(i), "frame %q holds %q reaching to (%g, %g) from its top-left, past the size %g × %g: give a bigger size",
					id, scene.StringOf(c, "id"), math.Round(b.MaxX-fx), math.Round(b.MaxY-fy), size.Width, size.Height)
			}
		}
		x, y := e.slot(i, len(frames), size, gap)
		if _, err := tx.Move([]string{id}, origin.X+x-fx, origin.Y+y-fy, ptr); err != nil {
			return nil, err
		}
		patch, _ := json.Marshal(map[string]float64{"width": size.Width, "height": size.Height})
		if err := tx.Update([]engine.Update{{ID: id, Patch: patch}}, ptr); err != nil {
			return nil, err
		}
	}
	return out, nil
}
