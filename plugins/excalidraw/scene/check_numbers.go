package scene

import (
	"math"
	"slices"
)

// MaxCoordinate bounds coordinates and sizes. Real drawings stay within
// about ±1e5; beyond ±1e7 the canvas loses precision and Excalidraw's
// renderer stalls (its restore already deletes lines wider than 75,000 px
// and repairs elbow arrows whose points pass ±1e6), so such values mean
// corrupted or hostile data.
const MaxCoordinate = 1e7

// fontFamilies are the font ids Excalidraw knows (4 is retired but still
// read; constants.ts FONT_FAMILY).
var fontFamilies = []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

// number checks a number field's type and range.
func (c *elementCheck) number(name string, val any) {
	f, st := toNumber(val)
	switch st {
	case numNonFinite:
		c.errorf(CodeOutOfBounds, c.ptr(name), "%s overflows a 64-bit float", name)
		return
	case numOK:
	default:
		c.errorf(CodeInvalidField, c.ptr(name), "%s must be a number, got %s", name, describe(val, true))
		return
	}
	c.numberRange(name, f)
}

// numberRange applies the per-field bounds.
func (c *elementCheck) numberRange(name string, f float64) {
	switch name {
	case "x", "y":
		if math.Abs(f) > MaxCoordinate {
			c.errorf(CodeOutOfBounds, c.ptr(name), "%s %g is beyond ±%g", name, f, MaxCoordinate)
		}
	case "width", "height":
		switch {
		case math.Abs(f) > MaxCoordinate:
			c.errorf(CodeOutOfBounds, c.ptr(name), "%s %g is beyond ±%g", name, f, MaxCoordinate)
		case f < 0:
			c.warnf(CodeOutOfBounds, c.ptr(name), "%s %g is negative; Excalidraw normalizes it", name, f)
		}
	case "opacity":
		if f < 0 || f > 100 {
			c.errorf(CodeOutOfBounds, c.ptr(name), "opacity %g is outside 0–100", f)
		}
	case "strokeWidth":
		if f < 0 {
			c.errorf(CodeOutOfBounds, c.ptr(name), "strokeWidth %g is negative", f)
		}
	case "fontSize":
		if f <= 0 {
			c.errorf(CodeOutOfBounds, c.ptr(name), "fontSize %g must be positive", f)
		}
	case "lineHeight":
		switch {
		case f < 0:
			c.errorf(CodeOutOfBounds, c.ptr(name), "lineHeight %g is negative", f)
		case f == 0:
			c.warnf(CodeOutOfBounds, c.ptr(name), "lineHeight is 0; Excalidraw recomputes it")
		}
	case "fontFamily":
		if !slices.Contains(fontFamilies, f) {
			c.warnf(CodeInvalidField, c.ptr(name), "fontFamily %g is not a font Excalidraw knows; it falls back to its default", f)
		}
	}
}

// points checks a polyline: an array of [x, y] with finite coordinates
// within ±MaxCoordinate. One diagnostic per element at most: a stroke of
// 5,000 bad points is one problem.
func (c *elementCheck) points(name string, val any) {
	arr, ok := val.([]any)
	if !ok {
		c.errorf(CodeInvalidField, c.ptr(name), "%s must be an array of [x, y], got %s", name, describe(val, true))
		return
	}
	extra := -1
	for j, p := range arr {
		pt, ok := p.([]any)
		if !ok || len(pt) < 2 {
			c.errorf(CodeInvalidField, c.ptr(name, j), "a point must be [x, y], got %s", describe(p, true))
			return
		}
		for k := range 2 {
			f, st := toNumber(pt[k])
			switch {
			case st == numNonFinite:
				c.errorf(CodeOutOfBounds, c.ptr(name, j, k), "point coordinate overflows a 64-bit float")
				return
			case st != numOK:
				c.errorf(CodeInvalidField, c.ptr(name, j, k), "point coordinates must be numbers, got %s", describe(pt[k], true))
				return
			case math.Abs(f) > MaxCoordinate:
				c.errorf(CodeOutOfBounds, c.ptr(name, j, k), "point coordinate %g is beyond ±%g", f, MaxCoordinate)
				return
			}
		}
		if len(pt) > 2 && extra < 0 {
			extra = j
		}
	}
	if extra >= 0 {
		c.warnf(CodeInvalidField, c.ptr(name, extra), "points carry more than two coordinates (a legacy format); recent Excalidraw versions drop such points")
	}
	if IsLinear(c.typ) && len(arr) < 2 {
		c.warnf(CodeInvalidField, c.ptr(name), "a %s needs at least two points; Excalidraw replaces them with a segment from width and height", c.typ)
	}
}
