// Package service is the scene service of the Excalidraw plugin: the one
// layer that both the agent tools and the HTTP API call, so that the same
// input gets the same result and the same error code on both.
//
// It holds the use cases (list, read, create, apply, save, validate) and
// joins the revisioned file store (package store) with the scene model
// (package scene) and the engine that edits a scene in memory (package
// engine): every write is parsed (a browser's save, or the stored scene
// an apply edits) or started anew, edited in one engine transaction,
// normalized the way Excalidraw restores scenes, validated, bounded by
// the limits and only then committed through the store, so that a stored
// file is always a valid fixed point of scene.Normalize. The element
// tools' edits are typed requests (Edit: CreateElements, MoveElements, …,
// and Steps, several as one commit) that plan their work on the
// transaction; Service.Edit runs one through Write.
//
// Every error it returns is a *sceneerr.Error with a code of contract
// section 6; store errors are mapped onto the same codes (see errors.go).
package service
