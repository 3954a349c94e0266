// Package engine edits one Excalidraw scene held in memory: it adds,
// updates and deletes elements, and sets app state and attachments, the
// way the editor would, keeping labels, bound arrows and versions in step.
//
// An edit is a transaction (Txn) over a parsed scene.Document. Begin
// takes the document and the clock, random source and limits to edit
// with; the Txn's methods then change the document in place:
//
//   - the contract's operations: Add, Apply (add/update/delete),
//     MergeAppState, SetFiles;
//   - the element tools' edits: Create (refs and relative placement),
//     Update and Delete (the operations' update and delete, typed),
//     Move and MoveTo, Copy (and CopyOut/Paste across scenes),
//     ReplaceText, Group/Ungroup/UngroupElements, Reorder,
//     CreateFrame/FrameAdd/FrameRemove, Arrange, Repair; Resolve turns
//     a Selection (ids or a query target) into the ids they act on.
//
// Result says which elements the operations named and Touched every
// element changed so far; an element takes one version step per
// transaction however many edits touch it. The Txn does not roll back: the first failing call
// leaves the document part-edited and the Txn spent, so a caller edits a
// copy (the service parses the stored bytes anew for every call) and
// discards it on error. What the engine leaves is not yet normalized nor
// validated; the caller finishes it (scene.Normalize, scene.Validate)
// before storing it.
//
// Every error is a *sceneerr.Error located by a JSON pointer into the
// caller's request (details "pointer"), except an unexpected failure of
// the element builder, which is returned as it is.
package engine
