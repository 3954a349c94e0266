package freehand

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzStroke draws strokes from arbitrary bytes, always finite: the first
// bytes pick the options, each following 6 a point (x, y within ±10⁶,
// pressure in [0, 1] or not given; at most 300 points, as a sharp turn
// can make 28 outline points of one). No panic, no NaN or infinity, and no
// outline point beyond its stroke's bounding box by more than the box's
// diagonal and the stroke's size; the path has one curve per point.
func FuzzStroke(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6})
	f.Add([]byte("\x07\x00\x91\x22\x40\x10\x80\x80\x80\x80\x00\x00\x7f\x7f\x7f\x7f\x80\x80\x00\x00\x00\x00\xff\x80\x10\x10"))
	f.Add(make([]byte, 64))
	f.Fuzz(checkStroke)
}

func checkStroke(t *testing.T, data []byte) {
	if len(data) < 8 {
		data = append(data, make([]byte, 8-len(data))...)
	}
	head, body := data[:8], data[8:]
	body = body[:min(len(body), 6*300)]
	unitOf := func(b byte) float64 { return float64(b) / 255 }
	o := Options{
		Size:             0.1 + 40*unitOf(head[0]),
		Thinning:         2*unitOf(head[1]) - 1,
		Smoothing:        unitOf(head[2]),
		Streamline:       unitOf(head[3]),
		SimulatePressure: head[4]&1 != 0,
		Last:             head[4]&2 != 0,
		Start:            Tip{NoCap: head[4]&4 != 0, TaperAll: head[4]&8 != 0, Taper: float64(head[5]) * float64(head[5]>>7)},
		End:              Tip{NoCap: head[4]&16 != 0, TaperAll: head[4]&32 != 0, Taper: float64(head[6]) * float64(head[6]>>7)},
	}
	if head[4]&64 != 0 {
		o.Easing = SineEasing
	}
	pts := make([][3]float64, 0, len(body)/6)
	lo, hi := vec{math.Inf(1), math.Inf(1)}, vec{math.Inf(-1), math.Inf(-1)}
	for b := body; len(b) >= 6; b = b[6:] {
		scale := math.Pow(10, float64(head[7]%7)) // units to a million
		x := float64(int16(binary.LittleEndian.Uint16(b))) / 32768 * scale
		y := float64(int16(binary.LittleEndian.Uint16(b[2:]))) / 32768 * scale
		p := math.NaN()
		if b[4] < 200 {
			p = float64(b[5]) / 255
		}
		pts = append(pts, [3]float64{x, y, p})
		lo = vec{math.Min(lo[0], x), math.Min(lo[1], y)}
		hi = vec{math.Max(hi[0], x+1), math.Max(hi[1], y+1)} // a dot reaches a unit further
	}
	out := Stroke(pts, o)
	if len(pts) > 0 && len(out) == 0 {
		t.Fatalf("no outline for %d points", len(pts))
	}
	margin := dist(lo, hi) + o.Size + 1
	for i, q := range out {
		for _, c := range q {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				t.Fatalf("point %d = %v", i, q)
			}
		}
		if q[0] < lo[0]-margin || q[0] > hi[0]+margin || q[1] < lo[1]-margin || q[1] > hi[1]+margin {
			t.Fatalf("point %d = %v outside %v–%v by more than %v", i, q, lo, hi, margin)
		}
	}
	if segs := Segments(out); len(out) > 0 && len(segs) != len(out)+3 {
		t.Fatalf("%d segments for %d points", len(segs), len(out))
	}
	PathData(out)
}
