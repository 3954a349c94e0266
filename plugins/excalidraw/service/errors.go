package service

import (
	"errors"
	"maps"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// mapError turns any error into a *sceneerr.Error, so callers (tools and
// HTTP) branch on one type. Store codes are the contract's codes already,
// except invalid_request (a bad actor or request id), which is an
// argument problem: invalid_operation. Details are kept, so a
// revision_conflict still carries currentRevision, currentSha256,
// expectedRevision and updatedAt. Anything unclassified is io_error.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var se *sceneerr.Error
	if errors.As(err, &se) {
		return se
	}
	var st *store.Error
	if errors.As(err, &st) {
		code := sceneerr.Code(st.Code)
		if st.Code == store.CodeInvalidRequest {
			code = sceneerr.InvalidOperation
		}
		return &sceneerr.Error{Code: code, Message: st.Message, Details: maps.Clone(st.Details), Err: st.Err}
	}
	return &sceneerr.Error{Code: sceneerr.IOError, Message: err.Error(), Err: err}
}

// opError is an invalid_operation error located by a JSON pointer into the
// request, which is what an agent needs to fix its call.
func opError(pointer, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}
