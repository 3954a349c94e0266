// Package editor holds the browser editor the plugin serves under
// /dsh-excalidraw/: a React page around the real Excalidraw 0.18.1
// (sources in web/, built by `make editor` into dist/app, embedded here).
//
// The page loads a scene with its revision, saves the full scene with
// expected_revision and a request_id (Ctrl+S and a debounced autosave),
// offers "Reload from disk" or "Overwrite anyway" on a revision conflict,
// follows other writers' commits over server-sent events and merges them
// with Excalidraw's reconciliation, and reports its lifecycle to
// /dsh-excalidraw/api/editor-status. Its History panel lists the scene's
// journal (who, what, why), highlights what an entry touched and undoes
// it (POST restore, mode revert); when another writer's forced save
// replaces the canvas, a banner offers to bring this tab's version back.
package editor
