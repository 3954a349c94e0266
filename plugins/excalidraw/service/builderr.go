package service

import (
	"errors"
	"maps"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
)

// prefixBuildError re-locates a build.Build error in the caller's request:
// Build reports the input's index and a pointer into that input; base
// maps the index to the pointer of the input in the request. The code is
// kept (invalid_operation, duplicate_id, invalid_reference, ...).
func prefixBuildError(err error, base func(index int) string) error {
	var se *sceneerr.Error
	if !errors.As(err, &se) {
		return mapError(err)
	}
	out := &sceneerr.Error{Code: se.Code, Message: se.Message, Details: maps.Clone(se.Details), Err: se.Err}
	idx, ok := se.Details["index"].(int)
	if !ok {
		return out
	}
	ptr, _ := se.Details["pointer"].(string)
	return out.With("pointer", base(idx)+ptr)
}
