package rough

import "math"

// maxWork bounds the work of one call, counted in steps: points made on
// ellipses and arcs, flattened curve pieces, hachure scan lines and the
// fill lines on them, dashes, zigzag teeth and dots. rough.js has no bound
// and loops without end on some inputs (an arc from an angle to itself, a
// zero zigzag offset, a negative step count) or for very long on huge ones.
// Ordinary shapes take a few thousand steps (a hachure fill about one per
// pixel of height); a call that needs more than this returns an empty
// Drawable (see finish). So a result has at most some 16 operations per
// step, plus 8 per point or segment of the input.
const maxWork = 1 << 18

// maxSplitDepth bounds the halving of a bezier curve while flattening it.
// rough.js halves until a piece is flat, which takes some 20 levels for the
// largest finite coordinates; deeper only happens for NaN, where it never
// ends.
const maxSplitDepth = 64

// spend takes n steps of work and reports whether any allowance was left.
func (s *state) spend(n int) bool {
	s.call.work -= n
	return s.call.work >= 0
}

// exhausted reports whether the call ran out of work.
func (s *state) exhausted() bool { return s.call.work < 0 }

// spendCount takes count steps of weight each for a loop that will run
// count times (count may be +Inf, or NaN for none).
func (s *state) spendCount(count float64, weight int) bool {
	if !(count > 0) {
		return !s.exhausted()
	}
	return s.spend(int(math.Min(count, maxWork+1)) * weight)
}

// affords reports whether a loop over span in steps of step fits in what is
// left of the allowance, and if not uses it all up: a loop rough.js would
// run for ever (a step of 0 or below over a span of 0 or more) or too long
// is not started.
func (s *state) affords(span, step float64) bool {
	if s.exhausted() {
		return false
	}
	if span < 0 {
		return true
	}
	if !(step > 0) || span/step > float64(s.call.work) {
		s.call.work = -1
		return false
	}
	return true
}
