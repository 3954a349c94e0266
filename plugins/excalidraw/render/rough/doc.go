// Package rough generates the sketchy stroke and fill operations of rough.js 4.6.4, the version Excalidraw 0.18.1 draws with, from the same shapes, options and seed.
//
// Only the generator is here: every shape function returns a [Drawable],
// lists of move / line / cubic-bezier operations grouped in sets (a stroke,
// a solid fill, or a sketched fill such as hachure), exactly the operations
// rough.js's RoughGenerator returns. Drawing them is the caller's business.
//
// # Fidelity
//
// The operations are rough.js's to the last bit in practice, checked by a
// differential test against the installed roughjs package: the random
// draws happen in rough's order from rough's generator (see [Options.Seed]),
// the arithmetic is done in rough's order with no fused multiply-adds (every
// product that feeds a sum is converted to float64 explicitly), constants
// such as π/180 are rounded as JavaScript rounds them, and sine, cosine,
// tangent, arcsine and arctangent are computed as V8 computes them (fdlibm,
// jsmath.go): Go's math differs in the last bit for a quarter of all
// arguments, and the hachure filler rounds rotated coordinates, where an
// ulp can move a whole line.
//
// # Where this package departs from rough.js
//
//   - Seed 0 makes rough.js draw from Math.random. Here every draw rough
//     would take from Math.random (seed 0, the hachure filler's draw when no
//     generator exists yet, the dots filler's jitter) comes instead from a
//     stand-in generator of the same kind seeded with 1, one per call, shared
//     by all the options copies of that call. Output is deterministic.
//   - Inputs rough.js cannot handle give an empty result (no sets) instead
//     of a crash, a hang or NaN: non-finite numbers in the arguments or
//     options, a curve without points, the pattern fill of a polygon without
//     points; [Path] returns an error where rough.js throws (bad path data)
//     or never returns. A call whose loops would exceed a fixed amount of
//     work (rough.js loops for ever on a zero or negative step, and for very
//     long on huge shapes; see limits.go) gives an empty result too, and so
//     does one whose result holds a non-finite number (coordinates that
//     overflow).
//   - Sine, cosine and tangent of angles beyond 2^19·π/2 (some 820 000
//     radians) use Go's math package, which may differ from V8 in the last
//     bit there.
package rough
