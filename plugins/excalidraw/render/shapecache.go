package render

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"unsafe"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
)

// shapeCacheBytes bounds the memory of the shape cache: the shapes of
// about 18,000 elements of a diagram (3.5 KB each with their fills).
const shapeCacheBytes = 64 << 20

// shapes is the rough drawables of elements already drawn, shared by every
// Draw (so by SVG and PNG, exports, thumbnails and the render tool): an
// element unchanged since its last picture is not generated again.
var shapes = rough.NewCache[shapeKey, []drawable](shapeCacheBytes)

// outlines is the same for freedraw outlines (perfect-freehand's), as
// paths.
var outlines = rough.NewCache[shapeKey, Path](shapeCacheBytes / 4)

// shapeKey is what an element's rough drawables and freedraw outline
// depend on: its id and version (Excalidraw's identity of an element's
// state) and a hash of every input of elementShapes and freedrawPath, so
// two scenes that reuse an id and a version with different contents never
// share a drawing.
type shapeKey struct {
	id             string
	version, nonce float64
	sum            uint64
}

var shapeSeed = maphash.MakeSeed()

func keyOf(e *element, canvasBg string) shapeKey {
	k := shapeKey{id: e.id}
	if e.obj != nil {
		k.version, _ = e.obj.Number("version")
		k.nonce, _ = e.obj.Number("versionNonce")
	}
	var h maphash.Hash
	h.SetSeed(shapeSeed)
	var buf [8]byte
	num := func(f float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(f))
		h.Write(buf[:])
	}
	str := func(s string) {
		num(float64(len(s)))
		h.WriteString(s)
	}
	flag := func(b bool) {
		if b {
			h.WriteByte(1)
		} else {
			h.WriteByte(0)
		}
	}
	str(e.typ)
	str(canvasBg)
	str(e.strokeColor)
	str(e.bgColor)
	str(e.fillStyle)
	str(e.strokeStyle)
	str(e.startArrowhead)
	str(e.endArrowhead)
	num(e.w)
	num(e.h)
	num(e.strokeWidth)
	num(e.roughness)
	num(float64(e.seed))
	num(float64(e.roundness))
	num(e.roundnessValue)
	flag(e.hasRoundnessValue)
	flag(e.elbowed)
	flag(e.hasStartArrow)
	flag(e.hasEndArrow)
	num(float64(len(e.points)))
	for _, p := range e.points {
		num(p[0])
		num(p[1])
	}
	num(float64(len(e.pressures)))
	for _, p := range e.pressures {
		num(p)
	}
	flag(e.simulatePressure)
	flag(e.lastCommitted)
	k.sum = h.Sum64()
	return k
}

// hasShapes reports whether elementShapes draws anything for the type.
func hasShapes(typ string) bool {
	switch typ {
	case "rectangle", "iframe", "embeddable", "diamond", "ellipse", "line", "arrow", "freedraw":
		return true
	}
	return false
}

// cachedShapes is elementShapes through the shape cache. The drawables
// it returns are shared: no caller changes them.
func cachedShapes(e *element, canvasBg string) []drawable {
	if !hasShapes(e.typ) {
		return nil
	}
	k := keyOf(e, canvasBg)
	if ds, ok := shapes.Get(k); ok {
		return ds
	}
	ds := elementShapes(e, canvasBg)
	cost := 64 + len(e.id)
	for i := range ds {
		cost += ds[i].d.Cost()
	}
	shapes.Add(k, ds, cost)
	return ds
}

// cachedFreedrawPath is freedrawPath through the outline cache. The path
// it returns is shared: no caller changes it.
func cachedFreedrawPath(e *element) Path {
	k := keyOf(e, "")
	if p, ok := outlines.Get(k); ok {
		return p
	}
	p := freedrawPath(e)
	outlines.Add(k, p, 64+len(e.id)+len(p)*int(unsafe.Sizeof(Seg{})))
	return p
}
