// Package query reads a parsed scene for agents: it selects elements by
// a [Target] and describes them compactly — [Rows] and [Markdown] (one
// short line per element, labels inline), [Graph] (nodes and the arrows
// between them), [Bounds] — and cuts long answers into [Page]s.
//
// Everything here is a pure function of a scene's elements (as
// scene.Document.Elements returns them): no I/O, no locks, no state kept
// between calls, and the same input always gives the same output, in
// scene order. Errors are *sceneerr.Error with code invalid_operation and
// a "pointer" detail relative to the argument they are about.
//
// The formats are sized by the agent-surface budgets: summary rows
// average at most 120 bytes per element over the test corpus (the
// generated scenes, and the shared corpus of real drawings), and the graph of a 50-node diagram is at most 6 KB (both are
// tested).
package query
