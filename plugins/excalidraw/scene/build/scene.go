package build

import (
	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// scene indexes the existing elements.
type scene struct {
	byID *model.IDMap
	// lastIndex is the greatest valid fractional index among the existing
	// elements. New elements go after it: in a well-ordered scene that is
	// the last element's index, and in a scene that is not, keys above
	// every existing one still sort after all of them, which Excalidraw's
	// index repair keeps.
	lastIndex string
}

// sceneOf is the index of ctx's scene: the one the caller keeps
// (Context.ByID), else one built from Existing.
func sceneOf(ctx Context) scene {
	if ctx.ByID != nil {
		return scene{byID: ctx.ByID, lastIndex: ctx.LastIndex}
	}
	return indexScene(ctx.Existing)
}

func indexScene(existing []*ojson.Object) scene {
	byID := make(map[string]*ojson.Object, len(existing))
	s := scene{}
	for _, el := range existing {
		if el == nil {
			continue
		}
		if id, ok := el.String("id"); ok {
			if _, dup := byID[id]; !dup {
				byID[id] = el
			}
		}
		if idx, ok := el.String("index"); ok && findex.Validate(idx) == nil && idx > s.lastIndex {
			s.lastIndex = idx
		}
	}
	s.byID = model.NewIDMap(byID)
	return s
}

// live returns the existing, not deleted element with this id.
func (s scene) live(id string) (*ojson.Object, bool) {
	el, ok := s.byID.Lookup(id)
	if !ok {
		return nil, false
	}
	if deleted, _ := el.Bool("isDeleted"); deleted {
		return nil, false
	}
	return el, true
}

// shapeOf reads an existing element's geometry, for binding to it.
func shapeOf(el *ojson.Object) (geom.Shape, float64) {
	num := func(k string) float64 { return model.NumberOf(el, k) }
	s := geom.Shape{Type: model.StringOf(el, "type"), X: num("x"), Y: num("y"), W: num("width"), H: num("height"), Angle: num("angle")}
	if r, ok := el.Object("roundness"); ok {
		kind, _ := r.Number("type")
		s.Roundness = int(kind)
	}
	return s, num("strokeWidth")
}
