package engine

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Clip is a block of elements copied out of a scene (CopyOut), to paste
// into the same scene or another one (Paste). Its elements are copies,
// in scene order; Files are the attachments its images show, by file id,
// so that a paste into another scene can bring them along.
type Clip struct {
	Elements []*ojson.Object
	Files    map[string]*ojson.Object
}

// Pasted is what a Paste made: IDs maps each pasted element's id in the
// clip to its new id (labels included); Files lists the attachments it
// added to the scene (those its images show that the scene lacked).
type Pasted struct {
	IDs   map[string]string `json:"ids"`
	Files []string          `json:"files"`
}

// Copy duplicates the elements ids name, with their labels and, for a
// frame, its children, offset by dx, dy: Paste(CopyOut(ids)) on this
// scene. It returns each copied element's new id by its old one.
func (tx *Txn) Copy(ids []string, dx, dy float64, pointer string) (map[string]string, error) {
	var out map[string]string
	err := tx.do(func() error {
		clip, err := tx.copyOut(ids, pointer)
		if err != nil {
			return err
		}
		p, err := tx.paste(clip, dx, dy, pointer)
		out = p.IDs
		return err
	})
	return out, err
}

// CopyOut copies the elements ids name out of the scene, leaving it as
// it is: each with its label (a named label brings its container), a
// frame with its children, in scene order, and the attachments their
// images show. pointer locates the ids array in the caller's request (an
// unknown or deleted id is not_found at pointer/<i>).
func (tx *Txn) CopyOut(ids []string, pointer string) (*Clip, error) {
	var clip *Clip
	err := tx.do(func() (err error) {
		clip, err = tx.copyOut(ids, pointer)
		return err
	})
	return clip, err
}

func (tx *Txn) copyOut(ids []string, pointer string) (*Clip, error) {
	named, err := tx.selection(ids, pointer, "copy")
	if err != nil {
		return nil, err
	}
	in := map[*ojson.Object]bool{}
	for _, el := range tx.block(named) {
		in[el] = true
		if l := tx.labelOf(el); l != nil {
			in[l] = true
		}
	}
	clip := &Clip{Files: map[string]*ojson.Object{}}
	for _, el := range tx.doc.Elements() {
		if el == nil || !in[el] {
			continue
		}
		in[el] = false
		clip.Elements = append(clip.Elements, el.Clone())
		if fid := scene.StringOf(el, "fileId"); fid != "" && scene.StringOf(el, "type") == "image" {
			if f, ok := tx.doc.Files().Object(fid); ok {
				clip.Files[fid] = f.Clone()
			}
		}
	}
	return clip, nil
}

// Paste puts copies of the clip's elements into the scene, after its
// last element, offset by dx, dy, as the editor pastes or duplicates:
//
//   - every element gets a fresh id, seed and versionNonce (version 1,
//     as a new element), and each group of the clip a fresh group id;
//   - references inside the clip are remapped to the copies (a label's
//     containerId and its container's boundElements, arrow bindings
//     between copied elements, frameId to a copied frame); bindings to
//     elements outside the clip are dropped, a frameId outside it is kept
//     only if it names a live frame of this scene, and a label without
//     its container becomes free text;
//   - attachments the copied images show that the scene lacks are added.
//
// Deleted elements and elements without an id in the clip are skipped.
// pointer locates the offset in the caller's request: a paste that would
// put an element beyond ±1e6 is invalid_operation there.
func (tx *Txn) Paste(clip *Clip, dx, dy float64, pointer string) (Pasted, error) {
	var out Pasted
	err := tx.do(func() (err error) {
		out, err = tx.paste(clip, dx, dy, pointer)
		return err
	})
	return out, err
}

func (tx *Txn) paste(clip *Clip, dx, dy float64, pointer string) (Pasted, error) {
	tx.index()
	out := Pasted{IDs: map[string]string{}, Files: []string{}}
	if math.IsNaN(dx) || math.IsNaN(dy) || math.IsInf(dx, 0) || math.IsInf(dy, 0) {
		return out, opError(pointer, "the offset must be finite")
	}
	taken := tx.takenIDs()
	var els []*ojson.Object
	for _, el := range clip.Elements {
		id := ""
		if el != nil {
			id = scene.StringOf(el, "id")
		}
		if id == "" || scene.IsDeleted(el) || out.IDs[id] != "" {
			continue
		}
		x, y := scene.NumberOf(el, "x")+dx, scene.NumberOf(el, "y")+dy
		if math.Abs(x) > maxCoord || math.Abs(y) > maxCoord {
			return out, opError(pointer, "the offset (%s, %s) takes the copy of %q to (%s, %s), beyond ±1e6",
				fmtNum(dx), fmtNum(dy), id, fmtNum(x), fmtNum(y))
		}
		out.IDs[id] = tx.freshID(taken)
		els = append(els, el.Clone())
	}
	if len(els) == 0 {
		return out, nil
	}
	keys, err := findex.N(tx.lastIndex(), "", len(els))
	if err != nil {
		return out, sceneerr.New(sceneerr.InvalidOperation, "no room for %d more elements after index %q: %v", len(els), tx.lastIndex(), err)
	}
	groups := map[string]string{}
	byNew := make(map[string]*ojson.Object, len(els))
	for i, el := range els {
		tx.remap(el, out.IDs, groups, taken)
		el.Set("x", scene.NumberOf(el, "x")+dx)
		el.Set("y", scene.NumberOf(el, "y")+dy)
		el.Set("index", keys[i])
		byNew[scene.StringOf(el, "id")] = el
	}
	for _, el := range els {
		keepMutual(el, byNew)
	}
	tx.markNew(els)
	tx.doc.SetElements(append(tx.doc.Elements(), els...))
	for _, el := range els {
		if scene.StringOf(el, "type") != "image" {
			continue
		}
		fid := scene.StringOf(el, "fileId")
		if f := clip.Files[fid]; f != nil && !tx.doc.Files().Has(fid) {
			tx.doc.Files().Set(fid, f.Clone())
			out.Files = append(out.Files, fid)
		}
	}
	tx.index()
	tx.result.Added += len(els)
	for _, el := range els {
		tx.note(scene.StringOf(el, "id"))
	}
	return out, nil
}

// remap gives a copied element its new identity (id, seed, version 1,
// versionNonce, updated) and points its references at the copies (ids:
// old id → new id) or drops them (see Paste). groups maps the clip's group
// ids to fresh ones, drawn as they are met.
func (tx *Txn) remap(el *ojson.Object, ids, groups map[string]string, taken map[string]bool) {
	el.Set("id", ids[scene.StringOf(el, "id")])
	el.Set("seed", int64(tx.cfg.Rand.Int32()))
	el.Set("version", int64(1))
	el.Set("versionNonce", int64(tx.cfg.Rand.Int32()))
	el.Set("updated", tx.now)
	if list, ok := el.Array("groupIds"); ok {
		next := make([]any, 0, len(list))
		for _, g := range list {
			s, ok := g.(string)
			if !ok {
				continue
			}
			if groups[s] == "" {
				groups[s] = tx.freshID(taken)
			}
			next = append(next, groups[s])
		}
		el.Set("groupIds", next)
	}
	if fid := scene.StringOf(el, "frameId"); fid != "" {
		switch f := tx.byID.Get(fid); {
		case ids[fid] != "":
			el.Set("frameId", ids[fid])
		case f == nil || scene.IsDeleted(f) || !isFrameType(scene.StringOf(f, "type")):
			el.Set("frameId", nil)
		}
	}
	if cid := scene.StringOf(el, "containerId"); cid != "" {
		if ids[cid] != "" {
			el.Set("containerId", ids[cid])
		} else {
			el.Set("containerId", nil)
		}
	}
	for _, key := range []string{"startBinding", "endBinding"} {
		if b, ok := el.Object(key); ok {
			if nid := ids[scene.StringOf(b, "elementId")]; nid != "" {
				el.Set(key, b.Clone().Set("elementId", nid))
			} else {
				el.Set(key, nil)
			}
		}
	}
	if list, ok := el.Array("boundElements"); ok {
		next := make([]any, 0, len(list))
		for _, entry := range list {
			if o, ok := entry.(*ojson.Object); ok && ids[scene.StringOf(o, "id")] != "" {
				next = append(next, o.Clone().Set("id", ids[scene.StringOf(o, "id")]))
			}
		}
		el.Set("boundElements", next)
	}
}

// keepMutual drops the boundElements entries of a copy whose element,
// though copied too, does not point back at it (a one-sided entry in the
// clip), so that every binding among the copies is two-sided.
func keepMutual(el *ojson.Object, byNew map[string]*ojson.Object) {
	list, ok := el.Array("boundElements")
	if !ok {
		return
	}
	id := scene.StringOf(el, "id")
	kept := make([]any, 0, len(list))
	for _, entry := range list {
		o := entry.(*ojson.Object) // remap kept only objects
		other := byNew[scene.StringOf(o, "id")]
		switch {
		case other == nil:
		case scene.StringOf(o, "type") == "text" && scene.StringOf(other, "containerId") == id,
			scene.StringOf(o, "type") == "arrow" && (bindingTarget(other, "startBinding") == id || bindingTarget(other, "endBinding") == id):
			kept = append(kept, o)
		}
	}
	el.Set("boundElements", kept)
}
