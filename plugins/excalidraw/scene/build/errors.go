package build

import (
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// inputError is an error about input number index, located by a JSON
// pointer into that input, so an agent can tell exactly what to fix.
func inputError(code sceneerr.Code, index int, pointer, format string, args ...any) *sceneerr.Error {
	return locate(sceneerr.New(code, format, args...), index, pointer)
}

// locate makes e an error about input number index at pointer: the
// message says where, and the details hold index and pointer.
func locate(e *sceneerr.Error, index int, pointer string) *sceneerr.Error {
	where := fmt.Sprintf("element %d", index)
	if pointer != "" {
		where += " at " + pointer
	}
	e.Message = where + ": " + e.Message
	return e.With("index", index).With("pointer", pointer)
}

// badInput is an invalid_operation error about one input.
func badInput(index int, pointer, format string, args ...any) *sceneerr.Error {
	return inputError(sceneerr.InvalidOperation, index, pointer, format, args...)
}
