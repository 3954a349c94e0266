package service

import "github.com/dshgo/dsh/plugins/excalidraw/sceneerr"

// createHint is what a write to a board that does not exist is told.
const createHint = "create_board {name} makes an empty board; excalidraw_scene_create {name, elements} one with elements"

// missingBoard adds to the store's not_found for a whole board (its
// only detail the name: not a revision or commit of one) how to create
// it, in the message and as details.hint: an agent that writes before it
// creates learns the next step from the error. A board the caller may not
// see answers the same not_found (access.Allowed), so the hint tells
// nothing of it. Other errors are returned as they are.
func missingBoard(e *sceneerr.Error) *sceneerr.Error {
	if e.Code != sceneerr.NotFound || len(e.Details) != 1 || e.Details["name"] == nil {
		return e
	}
	e.Message += "; create it with create_board or excalidraw_scene_create"
	return e.With("hint", createHint)
}
