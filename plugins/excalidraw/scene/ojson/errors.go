package ojson

import (
	"errors"
	"fmt"
)

// Error codes of a rejected document; stable so callers can map them.
var (
	ErrSyntax       = errors.New("invalid JSON")
	ErrDuplicateKey = errors.New("duplicate key")
	ErrUnsafeKey    = errors.New("key would pollute a JavaScript prototype")
	ErrTooDeep      = errors.New("nesting too deep")
	ErrTooLarge     = errors.New("document too large")
	ErrNotObject    = errors.New("not a JSON object")
)

// Error locates a rejection in the input.
type Error struct {
	Code    error  // one of the Err* values
	Offset  int    // byte offset in the input
	Pointer string // JSON pointer of the value being read
	Detail  string
}

func (e *Error) Error() string {
	msg := e.Code.Error()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Pointer != "" {
		return fmt.Sprintf("%s at %s (byte %d)", msg, e.Pointer, e.Offset)
	}
	return fmt.Sprintf("%s (byte %d)", msg, e.Offset)
}

// Unwrap lets errors.Is match the code.
func (e *Error) Unwrap() error { return e.Code }

// unsafeKeys are the member names that a naive JS reader would turn into
// prototype writes.
var unsafeKeys = map[string]bool{"__proto__": true, "constructor": true, "prototype": true}

// IsUnsafeKey reports whether k is one of them.
func IsUnsafeKey(k string) bool { return unsafeKeys[k] }
