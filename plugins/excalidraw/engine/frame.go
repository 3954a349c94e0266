package engine

import (
	"encoding/json"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Box is an axis-aligned box in scene coordinates (query.Box: as JSON
// {"x":100,"y":40,"width":220,"height":80}).
type Box = query.Box

// DefaultFramePadding is how far a frame made around its children
// reaches past them when the call gives no padding.
const DefaultFramePadding = 20

// maxFrameName bounds a frame's name, in characters: a title, one line.
const maxFrameName = 256

// frameStyle is what Excalidraw 0.18.1's frame tool gives a new frame
// (FRAME_STYLE; the editor draws a frame's border and name with its own
// colours, so these matter only to other renderers), as an element input
// to build a rectangle by, which becomes the frame: a frame is the
// common element of newElement plus a name.
var frameStyle = map[string]any{
	"type": "rectangle", "strokeColor": "#bbb", "backgroundColor": "transparent", "fillStyle": "solid",
	"strokeWidth": 2, "strokeStyle": "solid", "roughness": 0, "opacity": 100, "roundness": "sharp",
}

// CreateFrame adds a frame element named name (an empty name is none,
// null, as in the editor) and puts the elements children names into it
// (see FrameAdd), and returns the frame's id. box is the frame's box;
// nil means the box around the children (labels and arrows joining with
// them included, rotation-aware) grown by padding on every side (0 means
// DefaultFramePadding). The frame is drawn below its children: it goes
// directly below the lowest of them in z-order (at the top with none).
// Children the box does not cover stay children; the editor clips them
// to the frame.
//
// pointer locates the call's arguments: name at pointer/name, box at
// pointer/box (its members under it), children at pointer/children/<i>,
// padding at pointer/padding; errors are those of FrameAdd (located
// under children), invalid_operation for a bad box, name or padding,
// and for a call with neither box nor children.
func (tx *Txn) CreateFrame(name string, box *Box, children []string, padding float64, pointer string) (string, error) {
	var id string
	err := tx.do(func() (err error) {
		id, err = tx.createFrame(name, box, children, padding, pointer)
		return err
	})
	return id, err
}

func (tx *Txn) createFrame(name string, box *Box, children []string, padding float64, pointer string) (string, error) {
	if utf8.RuneCountInString(name) > maxFrameName {
		return "", opError(pointer+"/frame_name", "a frame name holds at most %d characters", maxFrameName)
	}
	if padding < 0 || math.IsNaN(padding) || padding > maxCoord {
		return "", opError(pointer+"/padding", "padding must be a number from 0 to 1e6")
	}
	if padding == 0 {
		padding = DefaultFramePadding
	}
	tx.index()
	named, err := tx.named(children, pointer+"/ids")
	if err != nil {
		return "", err
	}
	joining, err := tx.joiners("", named, children, pointer+"/ids")
	if err != nil {
		return "", err
	}
	var b Box
	switch {
	case box != nil:
		if err := checkBox(*box, pointer+"/box"); err != nil {
			return "", err
		}
		b = *box
	case len(joining) == 0:
		return "", opError(pointer, "give the frame a box or children to frame")
	default:
		around, _ := query.Bounds(joining)
		b = Box{X: around.X - padding, Y: around.Y - padding, Width: around.Width + 2*padding, Height: around.Height + 2*padding}
		if err := checkBox(b, pointer+"/padding"); err != nil {
			return "", err
		}
	}
	frame, err := tx.newFrame(name, b, pointer)
	if err != nil {
		return "", err
	}
	id := scene.StringOf(frame, "id")
	tx.index()
	tx.joinFrame(frame, joining)
	tx.result.Added++
	tx.note(id)
	for _, el := range named {
		tx.note(scene.StringOf(el, "id"))
	}
	return id, nil
}

// checkBox refuses a box beyond the coordinates the element input
// allows, or without area.
func checkBox(b Box, ptr string) error {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch {
	case !finite(b.X) || !finite(b.Y) || math.Abs(b.X) > maxCoord || math.Abs(b.Y) > maxCoord:
		return opError(ptr, "the frame's x and y must be numbers within ±1e6")
	case !finite(b.Width) || !finite(b.Height) || b.Width <= 0 || b.Height <= 0 || b.Width > maxCoord || b.Height > maxCoord:
		return opError(ptr, "the frame's width and height must be numbers above 0, at most 1e6")
	}
	return nil
}

// newFrame builds the frame element as the builder builds a rectangle
// (ids, seed, nonce and index drawn as for every new element) and makes
// it a frame.
func (tx *Txn) newFrame(name string, b Box, pointer string) (*ojson.Object, error) {
	in := map[string]any{"x": b.X, "y": b.Y, "width": b.Width, "height": b.Height}
	for k, v := range frameStyle {
		in[k] = v
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	ids, err := tx.add([]json.RawMessage{raw}, func(int) string { return pointer + "/box" })
	if err != nil {
		return nil, err
	}
	_, frame := tx.doc.Find(ids[0])
	frame.Set("type", "frame")
	if name == "" {
		frame.Set("name", nil)
	} else {
		frame.Set("name", name)
	}
	return frame, nil
}

// FrameAdd puts the elements ids name into frame frameID, as dragging
// them into it in the editor does:
//
//   - a label stands for its container, and a container's label joins
//     with it; an element's outermost group joins whole (a group lies in
//     one frame or none);
//   - an arrow bound at both ends to elements of the frame joins too,
//     with its label;
//   - the frame goes directly below its lowest child in z-order when a
//     new child was below it (a frame is drawn under its children).
//
// An element of another frame is refused rather than moved: a selection
// that reaches into another frame is more likely a mistake than a move,
// and FrameRemove then FrameAdd in one Txn moves it (one version step
// still). Elements already in the frame are left as they are.
//
// pointer locates the call's arguments: frameID at pointer/frameId
// (not_found when no live element has it, invalid_operation when it is
// not a frame), ids at pointer/ids/<i> (not_found; invalid_operation for
// a frame, a member of a group holding a frame, or an element of another
// frame).
func (tx *Txn) FrameAdd(frameID string, ids []string, pointer string) error {
	return tx.do(func() error {
		named, err := tx.selection(ids, pointer+"/ids", "put into the frame")
		if err != nil {
			return err
		}
		frame, err := tx.liveAt(frameID, pointer+"/frame_id")
		if err != nil {
			return err
		}
		if !isFrameType(scene.StringOf(frame, "type")) {
			return opError(pointer+"/frame_id", "%q is a %s, not a frame", frameID, scene.StringOf(frame, "type"))
		}
		joining, err := tx.joiners(frameID, named, ids, pointer+"/ids")
		if err != nil {
			return err
		}
		tx.joinFrame(frame, joining)
		for _, el := range named {
			tx.note(scene.StringOf(el, "id"))
		}
		tx.result.Updated += len(named)
		return nil
	})
}

// joiners are the elements that joining frame (the id of the frame, ""
// for one not yet made) takes in for named: holders, their outermost
// groups whole, labels, and arrows bound at both ends to elements in the
// frame afterwards. ids and ptr locate named in the request, for errors.
func (tx *Txn) joiners(frame string, named []*ojson.Object, ids []string, ptr string) ([]*ojson.Object, error) {
	in := map[*ojson.Object]bool{}
	for _, el := range named {
		h := tx.holderOf(el)
		at := idPointer(ids, el, ptr)
		members := []*ojson.Object{h}
		if gs := stringsOf(h, "groupIds"); len(gs) > 0 {
			members = tx.groupMembers(gs[len(gs)-1])
		}
		for _, m := range members {
			id := scene.StringOf(m, "id")
			switch f := tx.liveFrameOf(m); {
			case isFrameType(scene.StringOf(m, "type")) && m == h:
				return nil, opError(at, "%q is a frame; a frame cannot go into a frame", id).With("id", id)
			case isFrameType(scene.StringOf(m, "type")):
				return nil, opError(at, "%q is in a group with frame %q; such a group cannot go into a frame", scene.StringOf(h, "id"), id).With("id", id)
			case f != "" && f != frame:
				return nil, opError(at, "%q is in frame %q; take it out first (FrameRemove) to move it to another frame", id, f).
					With("id", id).With("frameId", f)
			}
			in[m] = true
		}
	}
	all := tx.withLabels(tx.inOrder(in))
	joins := setOf(all)
	inFrame := func(id string) bool {
		el := tx.byID.Get(id)
		return el != nil && !scene.IsDeleted(el) && (joins[el] || frame != "" && tx.liveFrameOf(el) == frame)
	}
	for _, el := range slices.Clone(all) {
		for _, aid := range boundArrowIDs(el) {
			a := tx.byID.Get(aid)
			if a == nil || scene.IsDeleted(a) || joins[a] || tx.liveFrameOf(a) != "" {
				continue
			}
			if s, e := bindingTarget(a, "startBinding"), bindingTarget(a, "endBinding"); s != "" && e != "" && inFrame(s) && inFrame(e) {
				for _, o := range tx.withLabels([]*ojson.Object{a}) {
					all = append(all, o)
					joins[o] = true
				}
			}
		}
	}
	return all, nil
}

// joinFrame sets frame as the frameId of els, then keeps the frame below
// its children.
func (tx *Txn) joinFrame(frame *ojson.Object, els []*ojson.Object) {
	id := scene.StringOf(frame, "id")
	for _, el := range els {
		if scene.StringOf(el, "frameId") != id {
			el.Set("frameId", id)
			tx.bump(el)
		}
	}
	order := tx.doc.Elements()
	at, lowest := slices.Index(order, frame), -1
	for i, el := range order {
		if el != nil && !scene.IsDeleted(el) && scene.StringOf(el, "frameId") == id {
			lowest = i
			break
		}
	}
	if lowest < 0 || lowest > at {
		return
	}
	moved := slices.Delete(slices.Clone(order), at, at+1)
	moved = slices.Insert(moved, lowest, frame)
	tx.setOrder(moved, map[*ojson.Object]bool{frame: true})
}

// FrameRemove takes the elements ids name out of their frames, as
// dragging them out of a frame in the editor does: a label stands for
// its container and leaves with it, an element's outermost group leaves
// whole, and an arrow in the frame bound at both ends whose ends are no
// longer both in it leaves too. Elements in no frame are passed over.
// pointer locates the call's arguments: an unknown or deleted id is
// not_found at pointer/ids/<i>, a frame is invalid_operation there, and
// no ids at all is invalid_operation at pointer/ids.
func (tx *Txn) FrameRemove(ids []string, pointer string) error {
	return tx.do(func() error {
		named, err := tx.selection(ids, pointer+"/ids", "take out of their frames")
		if err != nil {
			return err
		}
		in := map[*ojson.Object]bool{}
		for _, el := range named {
			h := tx.holderOf(el)
			if isFrameType(scene.StringOf(h, "type")) {
				return opError(idPointer(ids, el, pointer+"/ids"), "%q is a frame, not in one", scene.StringOf(h, "id")).With("id", scene.StringOf(h, "id"))
			}
			members := []*ojson.Object{h}
			if gs := stringsOf(h, "groupIds"); len(gs) > 0 {
				members = tx.groupMembers(gs[len(gs)-1])
			}
			for _, m := range members {
				if !isFrameType(scene.StringOf(m, "type")) {
					in[m] = true
				}
			}
		}
		leaving := tx.withLabels(tx.inOrder(in))
		left := map[string]bool{}
		for _, el := range leaving {
			if f := scene.StringOf(el, "frameId"); f != "" {
				left[f] = true
				el.Set("frameId", nil)
				tx.bump(el)
			}
		}
		for _, el := range leaving {
			for _, aid := range boundArrowIDs(el) {
				a := tx.byID.Get(aid)
				if a == nil || scene.IsDeleted(a) || !left[scene.StringOf(a, "frameId")] {
					continue
				}
				f := scene.StringOf(a, "frameId")
				s, e := tx.byID.Get(bindingTarget(a, "startBinding")), tx.byID.Get(bindingTarget(a, "endBinding"))
				if s != nil && e != nil && (scene.StringOf(s, "frameId") != f || scene.StringOf(e, "frameId") != f) {
					for _, o := range tx.withLabels([]*ojson.Object{a}) {
						o.Set("frameId", nil)
						tx.bump(o)
					}
				}
			}
		}
		for _, el := range named {
			tx.note(scene.StringOf(el, "id"))
		}
		tx.result.Updated += len(named)
		return nil
	})
}
