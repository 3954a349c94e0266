// Package service is the scene service of the Excalidraw plugin: the one
// layer that both the agent tools and the HTTP API call, so that the same
// input gets the same result and the same error code on both.
//
// It joins the revisioned file store (package store) with the scene model
// (package scene) and the element builder (package scene/build): every
// write is built or parsed, normalized the way Excalidraw restores scenes,
// validated, bounded by the limits and only then committed through the
// store, so that a stored file is always a valid fixed point of
// scene.Normalize.
//
// Every error it returns is a *sceneerr.Error with a code of contract
// section 6; store errors are mapped onto the same codes (see errors.go).
package service
