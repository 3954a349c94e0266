// Package build turns strict agent input into complete Excalidraw 0.18.1
// elements.
//
// Agents describe what they want ("a rectangle with a label at 100,100",
// "an arrow from A to B"); Excalidraw needs a couple of dozen fields per
// element, several of them derived (measured text boxes, points relative
// to the element, two-sided bindings, fractional indices). Getting any of
// them slightly wrong makes Excalidraw silently repair the element when it
// loads the scene, which shows up as jumping arrows, re-wrapped text or
// churn in collaboration. So every element this package writes carries
// every field Excalidraw 0.18.1 writes for its type, in Excalidraw's key
// order, with values that Excalidraw's own restoreElements leaves
// untouched. The test in restore_fidelity_test.go checks that against the
// real npm package.
//
// The package reads Excalidraw's source to learn its rules (element
// defaults from newElement.ts, normalisation from data/restore.ts, label
// layout from textElement.ts, arrow binding from binding.ts) and
// reimplements them; it shares no code with it.
//
// Entry points: InputSchema, the JSON Schema of one element input, and
// Build, which validates inputs and builds the elements.
package build
