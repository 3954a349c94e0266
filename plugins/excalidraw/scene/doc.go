// Package scene is the Excalidraw plugin's document model and validation
// engine.
//
// A scene is the public `.excalidraw` JSON that the Excalidraw editor
// saves: a document object holding `type`, `version`, `source`,
// `elements`, `appState` and `files`. It is written as version 2, what
// Excalidraw 0.18 writes; a file of another version (1, as early files
// have it, or a newer one) is read like any other, since `type` is what
// identifies the format and restore migrates what older elements lack. The model keeps every element as an
// order-keeping JSON object ([ojson.Object]) rather than as Go structs,
// because scenes are shared with many other programs (the editor itself,
// VS Code and Obsidian plugins, converters) and a reader that dropped or
// reordered fields it did not know would damage their data. Only the three
// appState members that the plugin's contract round-trips
// (viewBackgroundColor, gridSize, gridModeEnabled) are written back; the
// rest of appState is per-user view state that Excalidraw itself strips
// differently on every export.
//
// Reading is split in two so that the store can always load what a real
// editor wrote while tools can still refuse to write damaged scenes:
//
//   - [Parse] accepts every well-formed scene within the [Limits]; it
//     rejects only what cannot be represented or is unsafe (bad JSON,
//     duplicate or prototype-polluting keys, absurd nesting, oversized
//     input, a document that is not an Excalidraw scene, elements
//     without a type, bad attachments, counts over the limits).
//   - [ParseStrict] additionally rejects any scene that [Validate] reports
//     an error for, or that holds an element type the plugin does not
//     support.
//
// [Validate] and [ValidateBytes] never fail: they return a [Report] of
// [Diagnostic]s with stable codes, JSON pointers and severities, plus
// [Stats] about the scene. The rule deciding between error and warning is
// documented on [Severity].
package scene
