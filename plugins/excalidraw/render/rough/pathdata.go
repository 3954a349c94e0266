package rough

import (
	"errors"
	"fmt"
	"github.com/dshgo/dsh/internal/jsmath"
	"math"
	"math/big"
	"strconv"
)

// SVG path data, read as the path-data-parser package reads it for
// rough.js: tokens, segments, absolute coordinates, and then only M, L, C
// and Z (H/V become L; Q, T, S and A become cubic beziers).

// pathSeg is one path command and its numbers.
type pathSeg struct {
	key  byte
	data []float64
}

// paramCount is the number of parameters of each command.
var paramCount = map[byte]int{
	'A': 7, 'a': 7, 'C': 6, 'c': 6, 'H': 1, 'h': 1, 'L': 2, 'l': 2, 'M': 2, 'm': 2,
	'Q': 4, 'q': 4, 'S': 4, 's': 4, 'T': 2, 't': 2, 'V': 1, 'v': 1, 'Z': 0, 'z': 0,
}

// errPathData is the error for path data rough.js cannot read.
var errPathData = errors.New("rough: bad SVG path data")

type tokenKind uint8

const (
	tokCommand tokenKind = iota
	tokNumber
	tokEnd
)

type token struct {
	kind tokenKind
	cmd  byte
	num  float64
}

// tokenize splits path data into commands and numbers, separators being
// spaces, tabs, CR, LF and commas. ok is false for anything else (rough.js
// then fails with a TypeError).
func tokenize(d string) (tokens []token, ok bool) {
	for i := 0; i < len(d); {
		c := d[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',':
			i++
		case paramCount[c] != 0 || c == 'z' || c == 'Z':
			tokens = append(tokens, token{kind: tokCommand, cmd: c})
			i++
		default:
			n := numberPrefix(d[i:])
			if n == 0 {
				return nil, false
			}
			v, err := strconv.ParseFloat(d[i:i+n], 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, false
			}
			if v == 0 {
				v = 0 // rough.js goes through the number's text, and "-0" reads back as 0
			}
			tokens = append(tokens, token{kind: tokNumber, num: v})
			i += n
		}
	}
	return append(tokens, token{kind: tokEnd}), true
}

// numberPrefix is the length of the number at the start of s:
// [-+]?(digits(.digits?)?|.digits)([eE][-+]?digits)?, or 0.
func numberPrefix(s string) int {
	digits := func(i int) int {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if j := digits(i); j > i {
		i = j
		if i < len(s) && s[i] == '.' {
			i = digits(i + 1)
		}
	} else if i < len(s) && s[i] == '.' {
		if j := digits(i + 1); j > i+1 {
			i = j
		} else {
			return 0
		}
	} else {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		if k := digits(j); k > j {
			i = k
		}
	}
	return i
}

// parsePathData is path-data-parser's parsePath: the segments of d.
// Numbers after a command repeat it (after M and m as L and l); data not
// starting with M or m is read as "M0,0" followed by it.
func parsePathData(d string) ([]pathSeg, error) {
	tokens, ok := tokenize(d)
	if !ok {
		return nil, fmt.Errorf("%w: unexpected character", errPathData)
	}
	var segs []pathSeg
	var mode byte // 0 before the first command
	i := 0
	for tokens[i].kind != tokEnd {
		tok := tokens[i]
		var n int
		switch {
		case mode == 0:
			if tok.kind != tokCommand || (tok.cmd != 'M' && tok.cmd != 'm') {
				return parsePathData("M0,0" + d)
			}
			i++
			n, mode = 2, tok.cmd
		case tok.kind == tokNumber:
			n = paramCount[mode]
		default:
			i++
			n, mode = paramCount[tok.cmd], tok.cmd
		}
		if i+n >= len(tokens) {
			return nil, fmt.Errorf("%w: data ended short", errPathData)
		}
		data := make([]float64, n)
		for k := range data {
			t := tokens[i+k]
			if t.kind != tokNumber {
				return nil, fmt.Errorf("%w: parameter of %c is not a number", errPathData, mode)
			}
			data[k] = t.num
		}
		segs = append(segs, pathSeg{key: mode, data: data})
		i += n
		switch mode {
		case 'M':
			mode = 'L'
		case 'm':
			mode = 'l'
		case 'Z', 'z':
			if tokens[i].kind == tokNumber {
				// rough.js repeats the Z for ever here.
				return nil, fmt.Errorf("%w: number after Z", errPathData)
			}
		}
	}
	return segs, nil
}

// absolutize is path-data-parser's absolutize: relative commands made
// absolute (upper case).
func absolutize(segs []pathSeg) []pathSeg {
	var cx, cy, subx, suby float64
	out := make([]pathSeg, 0, len(segs))
	rel := func(data []float64) []float64 {
		nd := make([]float64, len(data))
		for i, v := range data {
			if i%2 == 1 {
				nd[i] = v + cy
			} else {
				nd[i] = v + cx
			}
		}
		return nd
	}
	cp := func(data []float64) []float64 { return append([]float64(nil), data...) }
	for _, s := range segs {
		d := s.data
		switch s.key {
		case 'M', 'L', 'C', 'Q', 'S', 'T': // x, y pairs, the last one the end point
			out = append(out, pathSeg{s.key, cp(d)})
			cx, cy = d[len(d)-2], d[len(d)-1]
		case 'm', 'l', 'c', 'q', 's', 't':
			nd := rel(d)
			out = append(out, pathSeg{s.key - 'a' + 'A', nd})
			cx, cy = nd[len(nd)-2], nd[len(nd)-1]
		case 'A':
			out = append(out, pathSeg{'A', cp(d)})
			cx, cy = d[5], d[6]
		case 'a':
			cx += d[5]
			cy += d[6]
			out = append(out, pathSeg{'A', []float64{d[0], d[1], d[2], d[3], d[4], cx, cy}})
		case 'H':
			out = append(out, pathSeg{'H', cp(d)})
			cx = d[0]
		case 'h':
			cx += d[0]
			out = append(out, pathSeg{'H', []float64{cx}})
		case 'V':
			out = append(out, pathSeg{'V', cp(d)})
			cy = d[0]
		case 'v':
			cy += d[0]
			out = append(out, pathSeg{'V', []float64{cy}})
		case 'Z', 'z':
			out = append(out, pathSeg{'Z', nil})
			cx, cy = subx, suby
		}
		if s.key == 'M' || s.key == 'm' {
			subx, suby = cx, cy // where a Z returns to
		}
	}
	return out
}

// quadToCubic is the cubic bezier from (cx, cy) equal to the quadratic
// with control (x1, y1) and end (x, y).
func quadToCubic(cx, cy, x1, y1, x, y float64) []float64 {
	return []float64{
		cx + 2*(x1-cx)/3, cy + 2*(y1-cy)/3,
		x + 2*(x1-x)/3, y + 2*(y1-y)/3,
		x, y,
	}
}

// normalize is path-data-parser's normalize: absolute segments reduced to
// M, L, C and Z.
func normalize(segs []pathSeg) []pathSeg {
	out := make([]pathSeg, 0, len(segs))
	var last byte
	var cx, cy, subx, suby, lcx, lcy float64
	for _, s := range segs {
		d := s.data
		switch s.key {
		case 'M':
			out = append(out, pathSeg{'M', append([]float64(nil), d...)})
			cx, cy, subx, suby = d[0], d[1], d[0], d[1]
		case 'C':
			out = append(out, pathSeg{'C', append([]float64(nil), d...)})
			cx, cy, lcx, lcy = d[4], d[5], d[2], d[3]
		case 'L':
			out = append(out, pathSeg{'L', append([]float64(nil), d...)})
			cx, cy = d[0], d[1]
		case 'H':
			cx = d[0]
			out = append(out, pathSeg{'L', []float64{cx, cy}})
		case 'V':
			cy = d[0]
			out = append(out, pathSeg{'L', []float64{cx, cy}})
		case 'S':
			// The first control mirrors the last one of a preceding C or S.
			cx1, cy1 := cx, cy
			if last == 'C' || last == 'S' {
				cx1, cy1 = cx+(cx-lcx), cy+(cy-lcy)
			}
			out = append(out, pathSeg{'C', []float64{cx1, cy1, d[0], d[1], d[2], d[3]}})
			lcx, lcy, cx, cy = d[0], d[1], d[2], d[3]
		case 'T':
			// The control mirrors the last one of a preceding Q or T.
			x, y := d[0], d[1]
			x1, y1 := cx, cy
			if last == 'Q' || last == 'T' {
				x1, y1 = cx+(cx-lcx), cy+(cy-lcy)
			}
			out = append(out, pathSeg{'C', quadToCubic(cx, cy, x1, y1, x, y)})
			lcx, lcy, cx, cy = x1, y1, x, y
		case 'Q':
			x1, y1, x, y := d[0], d[1], d[2], d[3]
			out = append(out, pathSeg{'C', quadToCubic(cx, cy, x1, y1, x, y)})
			lcx, lcy, cx, cy = x1, y1, x, y
		case 'A':
			r1, r2 := math.Abs(d[0]), math.Abs(d[1])
			x, y := d[5], d[6]
			if r1 == 0 || r2 == 0 {
				out = append(out, pathSeg{'C', []float64{cx, cy, x, y, x, y}})
				cx, cy = x, y
			} else if cx != x || cy != y {
				for _, c := range arcToCubics(cx, cy, x, y, r1, r2, d[2], d[3], d[4], nil) {
					out = append(out, pathSeg{'C', c})
				}
				cx, cy = x, y
			}
		case 'Z':
			out = append(out, pathSeg{'Z', nil})
			cx, cy = subx, suby
		}
		last = s.key
	}
	return out
}

// arcState carries an arc's split-off remainder into the recursion: its
// angles and centre.
type arcState struct{ f1, f2, cx, cy float64 }

func rotatePoint(x, y, rad float64) (float64, float64) {
	c, s := jsmath.Cos(rad), jsmath.Sin(rad)
	return float64(x*c) - float64(y*s), float64(x*s) + float64(y*c)
}

// arcToCubics is path-data-parser's arcToCubicCurves: an SVG elliptical arc
// from (x1, y1) to (x2, y2) as cubic beziers of at most 120° each. The
// recursion (rec set) works in the arc's unrotated frame and returns raw
// control points; the top call rotates them back.
func arcToCubics(x1, y1, x2, y2, r1, r2, angle, largeArc, sweep float64, rec *arcState) [][]float64 {
	angleRad := (jsmath.PI * angle) / 180
	var rest [][]float64
	var f1, f2, cx, cy float64
	if rec != nil {
		f1, f2, cx, cy = rec.f1, rec.f2, rec.cx, rec.cy
	} else {
		x1, y1 = rotatePoint(x1, y1, -angleRad)
		x2, y2 = rotatePoint(x2, y2, -angleRad)
		x := (x1 - x2) / 2
		y := (y1 - y2) / 2
		h := float64(x*x)/(r1*r1) + float64(y*y)/(r2*r2)
		if h > 1 {
			h = math.Sqrt(h)
			r1 = h * r1
			r2 = h * r2
		}
		sign := 1.0
		if largeArc == sweep {
			sign = -1
		}
		r1Pow, r2Pow := r1*r1, r2*r2
		left := float64(r1Pow*r2Pow) - float64(r1Pow*y*y) - float64(r2Pow*x*x)
		right := float64(r1Pow*y*y) + float64(r2Pow*x*x)
		k := sign * math.Sqrt(math.Abs(left/right))
		cx = k*r1*y/r2 + (x1+x2)/2
		cy = k*-r2*x/r1 + (y1+y2)/2
		f1 = jsmath.Asin(toFixed9((y1 - cy) / r2))
		f2 = jsmath.Asin(toFixed9((y2 - cy) / r2))
		if x1 < cx {
			f1 = jsmath.PI - f1
		}
		if x2 < cx {
			f2 = jsmath.PI - f2
		}
		if f1 < 0 {
			f1 = jsmath.PI*2 + f1
		}
		if f2 < 0 {
			f2 = jsmath.PI*2 + f2
		}
		if truthy(sweep) && f1 > f2 {
			f1 = f1 - jsmath.PI*2
		}
		if !truthy(sweep) && f2 > f1 {
			f2 = f2 - jsmath.PI*2
		}
	}
	maxSweep := jsmath.PI * 120 / 180
	if math.Abs(f2-f1) > maxSweep {
		f2old, x2old, y2old := f2, x2, y2
		if truthy(sweep) && f2 > f1 {
			f2 = f1 + maxSweep*1
		} else {
			f2 = f1 + maxSweep*-1
		}
		x2 = cx + float64(r1*jsmath.Cos(f2))
		y2 = cy + float64(r2*jsmath.Sin(f2))
		rest = arcToCubics(x2, y2, x2old, y2old, r1, r2, angle, 0, sweep, &arcState{f2, f2old, cx, cy})
	}
	df := f2 - f1
	c1, s1 := jsmath.Cos(f1), jsmath.Sin(f1)
	c2, s2 := jsmath.Cos(f2), jsmath.Sin(f2)
	t := jsmath.Tan(df / 4)
	hx := 4.0 / 3 * r1 * t
	hy := 4.0 / 3 * r2 * t
	m2x, m2y := x1+float64(hx*s1), y1-float64(hy*c1)
	m2x, m2y = float64(2*x1)-m2x, float64(2*y1)-m2y
	pts := append([][]float64{{m2x, m2y}, {x2 + float64(hx*s2), y2 - float64(hy*c2)}, {x2, y2}}, rest...)
	if rec != nil {
		return pts
	}
	var curves [][]float64
	for i := 0; i+2 < len(pts); i += 3 {
		ax, ay := rotatePoint(pts[i][0], pts[i][1], angleRad)
		bx, by := rotatePoint(pts[i+1][0], pts[i+1][1], angleRad)
		ex, ey := rotatePoint(pts[i+2][0], pts[i+2][1], angleRad)
		curves = append(curves, []float64{ax, ay, bx, by, ex, ey})
	}
	return curves
}

// toFixed9 is parseFloat(v.toFixed(9)): v rounded to 9 decimals, halves
// away from zero, as JavaScript's toFixed does.
func toFixed9(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 1e21 {
		return v
	}
	neg := v < 0
	scaled := new(big.Float).SetPrec(200).SetFloat64(math.Abs(v))
	scaled.Mul(scaled, big.NewFloat(1e9))
	n, _ := scaled.Int(nil) // truncates
	frac := new(big.Float).SetPrec(200).Sub(scaled, new(big.Float).SetInt(n))
	if frac.Cmp(big.NewFloat(0.5)) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	r, _ := strconv.ParseFloat(n.String()+"e-9", 64)
	if neg {
		r = -r
	}
	return r
}
