package service

import (
	"maps"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
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
	switch e := outermostCoded(err).(type) {
	case *sceneerr.Error:
		return e
	case *store.Error:
		code := sceneerr.Code(e.Code)
		if e.Code == store.CodeInvalidRequest {
			code = sceneerr.InvalidOperation
		}
		return missingBoard(&sceneerr.Error{Code: code, Message: e.Message, Details: maps.Clone(e.Details), Err: e.Err})
	}
	return &sceneerr.Error{Code: sceneerr.IOError, Message: err.Error(), Err: err}
}

// outermostCoded finds the first *sceneerr.Error or *store.Error in err's
// tree, depth first. Order matters: the store reports a corrupt file as
// corrupt_scene wrapping the codec's invalid_scene, and the outer verdict
// is the one that describes what happened.
func outermostCoded(err error) error {
	switch err.(type) {
	case *sceneerr.Error, *store.Error:
		return err
	case nil:
		return nil
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return outermostCoded(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if found := outermostCoded(e); found != nil {
				return found
			}
		}
	}
	return nil
}

// opError is an invalid_operation error located by a JSON pointer into the
// request, which is what an agent needs to fix its call.
func opError(pointer, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}
