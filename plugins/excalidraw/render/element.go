package render

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// element is what drawing needs of one Excalidraw element, read once from
// its JSON object. Missing or malformed fields take the defaults
// Excalidraw's restore gives them, so a scene that parses always draws.
type element struct {
	obj *ojson.Object

	id, typ                    string
	x, y, w, h, angle          float64
	strokeColor, bgColor       string
	fillStyle, strokeStyle     string
	strokeWidth, roughness     float64
	opacity                    float64 // 0..100
	seed                       int64
	roundness                  int // 0 none, 1 legacy, 2 proportional, 3 adaptive
	roundnessValue             float64
	hasRoundnessValue          bool
	deleted                    bool
	groups                     []string
	frameID, containerID       string
	boundText                  string // id of a bound text element (boundElements of type "text")
	link                       string
	points                     [][2]float64
	pressures                  []float64
	simulatePressure           bool
	lastCommitted              bool
	startArrowhead             string
	endArrowhead               string
	elbowed                    bool
	text                       string
	fontSize, lineHeight       float64
	fontFamily                 int
	textAlign, verticalAlign   string
	name                       string // frames
	fileID, status             string // images
	scale                      [2]float64
	crop                       *imageCrop
	hasStartArrow, hasEndArrow bool
	hasName                    bool // a frame's name is a string, not null
	frameLabel                 bool // the name drawn above a frame, not an element of the scene
}

// imageCrop is an image element's crop, in the natural pixels of its file.
type imageCrop struct {
	x, y, w, h                  float64
	naturalWidth, naturalHeight float64
}

func readElement(o *ojson.Object) *element {
	e := &element{
		obj: o, strokeColor: "#1e1e1e", bgColor: "transparent", fillStyle: "solid", strokeStyle: "solid",
		strokeWidth: 2, roughness: 1, opacity: 100, fontSize: 20, fontFamily: 5, textAlign: "left",
		verticalAlign: "top", scale: [2]float64{1, 1}, endArrowhead: "arrow",
	}
	var sawEnd bool
	o.Range(func(k string, v any) bool {
		if boxMember(k, v, &e.x, &e.y, &e.w, &e.h) {
			return true
		}
		switch k {
		case "id":
			readStr(v, &e.id)
		case "type":
			readStr(v, &e.typ)
		case "angle":
			readNum(v, &e.angle)
		case "strokeColor":
			readStr(v, &e.strokeColor)
		case "backgroundColor":
			readStr(v, &e.bgColor)
		case "fillStyle":
			readStr(v, &e.fillStyle)
		case "strokeStyle":
			readStr(v, &e.strokeStyle)
		case "strokeWidth":
			readNum(v, &e.strokeWidth)
		case "roughness":
			readNum(v, &e.roughness)
		case "opacity":
			readNum(v, &e.opacity)
		case "seed":
			var f float64
			readNum(v, &f)
			e.seed = int64(f)
		case "roundness":
			if r, ok := v.(*ojson.Object); ok && r != nil {
				if t, ok := r.Number("type"); ok {
					e.roundness = int(t)
				}
				if val, ok := r.Number("value"); ok {
					e.roundnessValue, e.hasRoundnessValue = val, true
				}
			}
		case "isDeleted":
			e.deleted, _ = v.(bool)
		case "groupIds":
			list, _ := v.([]any)
			for _, g := range list {
				if s, ok := g.(string); ok {
					e.groups = append(e.groups, s)
				}
			}
		case "frameId":
			readStr(v, &e.frameID)
		case "containerId":
			readStr(v, &e.containerID)
		case "boundElements":
			list, _ := v.([]any)
			for _, x := range list {
				if b, ok := x.(*ojson.Object); ok && b != nil {
					if t, _ := b.String("type"); t == "text" {
						e.boundText, _ = b.String("id")
					}
				}
			}
		case "link":
			readStr(v, &e.link)
		case "points":
			e.points = scene.Points(o)
		case "pressures":
			list, _ := v.([]any)
			for _, p := range list {
				f := 0.5
				readNum(p, &f)
				e.pressures = append(e.pressures, f)
			}
		case "simulatePressure":
			e.simulatePressure, _ = v.(bool)
		case "lastCommittedPoint":
			e.lastCommitted = v != nil
		case "startArrowhead":
			e.startArrowhead, _ = v.(string)
			e.hasStartArrow = e.startArrowhead != ""
		case "endArrowhead":
			sawEnd = true
			e.endArrowhead, _ = v.(string)
			e.hasEndArrow = e.endArrowhead != ""
		case "elbowed":
			e.elbowed, _ = v.(bool)
		case "text":
			readStr(v, &e.text)
		case "fontSize":
			readNum(v, &e.fontSize)
		case "fontFamily":
			var f float64
			readNum(v, &f)
			e.fontFamily = int(f)
		case "lineHeight":
			readNum(v, &e.lineHeight)
		case "textAlign":
			readStr(v, &e.textAlign)
		case "verticalAlign":
			readStr(v, &e.verticalAlign)
		case "name":
			if s, ok := v.(string); ok {
				e.name, e.hasName = s, true
			}
		case "fileId":
			readStr(v, &e.fileID)
		case "status":
			readStr(v, &e.status)
		case "scale":
			if list, ok := v.([]any); ok && len(list) == 2 {
				readNum(list[0], &e.scale[0])
				readNum(list[1], &e.scale[1])
			}
		case "crop":
			if c, ok := v.(*ojson.Object); ok && c != nil {
				cr := &imageCrop{}
				c.Range(func(k string, v any) bool {
					if boxMember(k, v, &cr.x, &cr.y, &cr.w, &cr.h) {
						return true
					}
					switch k {
					case "naturalWidth":
						readNum(v, &cr.naturalWidth)
					case "naturalHeight":
						readNum(v, &cr.naturalHeight)
					}
					return true
				})
				e.crop = cr
			}
		}
		return true
	})
	if e.typ == "arrow" && !sawEnd {
		e.hasEndArrow = true // an old arrow without the field has the default head
	}
	if e.lineHeight <= 0 {
		e.lineHeight = defaultLineHeight(e.fontFamily)
	}
	e.opacity = math.Max(0, math.Min(100, e.opacity))
	return e
}

// readNum sets *dst to v when v is a finite number, and readStr when it
// is a string: a member of another type leaves the default.
func readNum(v any, dst *float64) {
	if f, ok := ojson.AsFloat(v); ok && finite(f) {
		*dst = f
	}
}

func readStr(v any, dst *string) {
	if s, ok := v.(string); ok {
		*dst = s
	}
}

// boxMember reads member k of a box (an element's or a crop's x, y,
// width and height), reporting whether k was one of them.
func boxMember(k string, v any, x, y, w, h *float64) bool {
	switch k {
	case "x":
		readNum(v, x)
	case "y":
		readNum(v, y)
	case "width":
		readNum(v, w)
	case "height":
		readNum(v, h)
	default:
		return false
	}
	return true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func (e *element) isFrame() bool { return e.typ == "frame" || e.typ == "magicframe" }

func (e *element) isIframeLike() bool { return e.typ == "iframe" || e.typ == "embeddable" }
