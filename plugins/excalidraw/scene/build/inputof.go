package build

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// inputOf reads an input from the tree decodeInput already has, without
// decoding its bytes a second time. It knows the shapes the schema lets
// through; for anything else (a member name json.Unmarshal would match
// only by case, a point of other than two numbers) it answers false and
// the caller decodes the bytes as before, so the input is the one
// json.Unmarshal gives either way.
func inputOf(obj *ojson.Object) (*input, bool) {
	in := &input{}
	ok := true
	obj.Range(func(k string, v any) bool {
		ok = in.set(k, v)
		return ok
	})
	if !ok {
		return nil, false
	}
	return in, true
}

// set reads one member into in, as json.Unmarshal would.
func (in *input) set(k string, v any) bool {
	switch k {
	case "type":
		if v == nil {
			return true
		}
		s, ok := v.(string)
		in.Type = s
		return ok
	case "id":
		return setString(&in.ID, v)
	case "x":
		return setNumber(&in.X, v)
	case "y":
		return setNumber(&in.Y, v)
	case "width":
		return setNumber(&in.Width, v)
	case "height":
		return setNumber(&in.Height, v)
	case "angle":
		return setNumber(&in.Angle, v)
	case "strokeColor":
		return setString(&in.StrokeColor, v)
	case "backgroundColor":
		return setString(&in.BackgroundColor, v)
	case "fillStyle":
		return setString(&in.FillStyle, v)
	case "strokeWidth":
		return setNumber(&in.StrokeWidth, v)
	case "strokeStyle":
		return setString(&in.StrokeStyle, v)
	case "roughness":
		return setNumber(&in.Roughness, v)
	case "opacity":
		return setNumber(&in.Opacity, v)
	case "roundness":
		return setString(&in.Roundness, v)
	case "groupIds":
		return setStrings(&in.GroupIDs, v)
	case "frameId":
		return setString(&in.FrameID, v)
	case "link":
		return setString(&in.Link, v)
	case "locked":
		return setBool(&in.Locked, v)
	case "text":
		return setString(&in.Text, v)
	case "fontSize":
		return setNumber(&in.FontSize, v)
	case "fontFamily":
		return setRaw(&in.FontFamily, v)
	case "textAlign":
		return setString(&in.TextAlign, v)
	case "verticalAlign":
		return setString(&in.VerticalAlign, v)
	case "label":
		return in.setLabel(v)
	case "points":
		return setPoints(&in.Points, v)
	case "startArrowhead":
		return setRaw(&in.StartArrowhead, v)
	case "endArrowhead":
		return setRaw(&in.EndArrowhead, v)
	case "startElementId":
		return setString(&in.StartElementID, v)
	case "endElementId":
		return setString(&in.EndElementID, v)
	case "elbowed":
		return setBool(&in.Elbowed, v)
	case "pressures":
		return setNumbers(&in.Pressures, v)
	case "simulatePressure":
		return setBool(&in.SimulatePressure, v)
	case "fileId":
		return setString(&in.FileID, v)
	case "scale":
		return setNumbers(&in.Scale, v)
	}
	return false
}

func (in *input) setLabel(v any) bool {
	if v == nil {
		in.Label = nil
		return true
	}
	obj, ok := v.(*ojson.Object)
	if !ok {
		return false
	}
	l := &labelInput{}
	obj.Range(func(k string, v any) bool {
		switch k {
		case "text":
			if v != nil {
				l.Text, ok = v.(string)
			}
		case "fontSize":
			ok = setNumber(&l.FontSize, v)
		case "fontFamily":
			ok = setRaw(&l.FontFamily, v)
		case "textAlign":
			ok = setString(&l.TextAlign, v)
		case "verticalAlign":
			ok = setString(&l.VerticalAlign, v)
		case "strokeColor":
			ok = setString(&l.StrokeColor, v)
		default:
			ok = false
		}
		return ok
	})
	in.Label = l
	return ok
}

// setString sets *p from a string, or to nil from null.
func setString(p **string, v any) bool { return setPtr(p, v) }

// setBool sets *p from true or false, or to nil from null.
func setBool(p **bool, v any) bool { return setPtr(p, v) }

// setPtr sets *p from a value the decoder gives as a T, or to nil from
// null.
func setPtr[T any](p **T, v any) bool {
	if v == nil {
		*p = nil
		return true
	}
	x, ok := v.(T)
	*p = &x
	return ok
}

// setNumber sets *p from a number, or to nil from null.
func setNumber(p **float64, v any) bool {
	if v == nil {
		*p = nil
		return true
	}
	if _, ok := v.(json.Number); !ok {
		return false
	}
	f, ok := ojson.AsFloat(v)
	*p = &f
	return ok
}

// setRaw sets *p to the value's JSON (null included, as json.RawMessage
// is given it).
func setRaw(p *json.RawMessage, v any) bool {
	b, err := ojson.Marshal(v)
	*p = b
	return err == nil
}

// setStrings sets *p from an array of strings, or to nil from null.
func setStrings(p *[]string, v any) bool {
	if v == nil {
		*p = nil
		return true
	}
	a, ok := v.([]any)
	if !ok {
		return false
	}
	out := make([]string, len(a))
	for i, e := range a {
		if out[i], ok = e.(string); !ok {
			return false
		}
	}
	*p = out
	return true
}

// setNumbers sets *p from an array of numbers, or to nil from null.
func setNumbers(p *[]float64, v any) bool {
	if v == nil {
		*p = nil
		return true
	}
	a, ok := v.([]any)
	if !ok {
		return false
	}
	out := make([]float64, len(a))
	for i, e := range a {
		var f *float64
		if !setNumber(&f, e) || f == nil {
			return false
		}
		out[i] = *f
	}
	*p = out
	return true
}

// setPoints sets *p from an array of [x, y] pairs, or to nil from null.
func setPoints(p *[][2]float64, v any) bool {
	if v == nil {
		*p = nil
		return true
	}
	a, ok := v.([]any)
	if !ok {
		return false
	}
	out := make([][2]float64, len(a))
	for i, e := range a {
		pt, ok := e.([]any)
		if !ok || len(pt) != 2 {
			return false
		}
		for j := range 2 {
			var f *float64
			if !setNumber(&f, pt[j]) || f == nil {
				return false
			}
			out[i][j] = *f
		}
	}
	*p = out
	return true
}
