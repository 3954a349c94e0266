package engine

import (
	"errors"
	"maps"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// opError is an invalid_operation error located by a JSON pointer into the
// request, which is what an agent needs to fix its call.
func opError(pointer, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}

// prefixBuildError re-locates a build.Build error in the caller's request:
// Build reports the input's index and a pointer into that input; base
// maps the index to the pointer of the input in the request. The code is
// kept (invalid_operation, duplicate_id, invalid_reference, ...). An
// error that is no *sceneerr.Error is returned as it is.
func prefixBuildError(err error, base func(index int) string) error {
	var se *sceneerr.Error
	if !errors.As(err, &se) {
		return err
	}
	out := &sceneerr.Error{Code: se.Code, Message: se.Message, Details: maps.Clone(se.Details), Err: se.Err}
	idx, ok := se.Details["index"].(int)
	if !ok {
		return out
	}
	ptr, _ := se.Details["pointer"].(string)
	return out.With("pointer", base(idx)+ptr)
}
