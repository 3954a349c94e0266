package rough

// lcg is rough.js's pseudo-random generator: a Lehmer generator with
// multiplier 48271 on 32-bit integers (Math.imul), of which the low 31 bits
// make a value in [0, 1). Its state is the seed until the first draw.
type lcg struct {
	state int32
}

// fallbackSeed seeds the stand-in for Math.random (see the package
// documentation): odd, so its state never reaches zero.
const fallbackSeed = 1

// next is one draw. A zero state makes rough.js call Math.random instead;
// here the call's stand-in generator answers (it never has a zero state).
func (g *lcg) next(stand *lcg) float64 {
	if g.state == 0 {
		return stand.next(nil)
	}
	g.state *= 48271 // wraps like Math.imul
	return float64(uint32(g.state)&0x7fffffff) / (1 << 31)
}

// random is rough's random(o): the draw from the options' own generator,
// made from the seed on first use.
func (s *state) random() float64 {
	if s.rng == nil {
		s.rng = &lcg{state: s.Seed}
	}
	return s.rng.next(s.call.fallback)
}

// offset is rough's _offset: a draw in [min, max) scaled by the roughness
// and gain. The draw happens even when the roughness is zero.
func (s *state) offset(min, max, gain float64) float64 {
	r := s.random()
	return float64(s.Roughness*gain) * (float64(r*(max-min)) + min)
}

// offsetOpt is rough's _offsetOpt: a draw in [-x, x) scaled the same way.
func (s *state) offsetOpt(x, gain float64) float64 {
	return s.offset(-x, x, gain)
}
