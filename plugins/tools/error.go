package tools

import (
	"errors"
	"fmt"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Well-known error codes produced by the registry itself. Handlers are free
// to use their own codes; these are the ones the agent sees when the
// failure happened outside the handler's control.
const (
	// CodeUnknownTool is returned by [Registry.Call] for a name that is not
	// registered (or was unregistered while the agent still knew it).
	CodeUnknownTool = "unknown_tool"
	// CodeInvalidArguments is the default code for arguments that fail the
	// tool's input schema; see [Tool.InvalidArgumentsCode].
	CodeInvalidArguments = "invalid_arguments"
	// CodeInternal hides handler bugs (plain errors and panics) from the
	// agent; the real cause is logged instead.
	CodeInternal = "internal_error"
	// CodeTooLarge is the default code of a call refused by an argument
	// limit (see [ArgumentLimit]) and the code of one over the registry's
	// bound on argument bytes (see [Registry.SetMaxArgumentBytes]).
	CodeTooLarge = "too_large"
)

// Error is a tool failure with a stable code that the agent sees.
//
// Handlers return *Error (possibly wrapped) when the failure is part of the
// tool's contract, for example "not_found" or "permission_denied". The code
// is meant for programmatic branching by the agent; Message is for humans
// and models; Details carries optional structured context and must be
// JSON-marshalable.
type Error struct {
	Code    string
	Message string
	Details any
	// Retryable says the same call may succeed later unchanged (a busy
	// lock, a transient I/O failure) or after re-reading (a revision
	// conflict); RetryAfterSec, when positive, is how long to wait first.
	// Every failure result carries "retryable", so an agent never has to
	// guess.
	Retryable     bool
	RetryAfterSec int
}

var _ error = (*Error)(nil)

// Error implements the error interface as "code: message".
func (e *Error) Error() string {
	switch {
	case e.Message == "":
		return e.Code
	case e.Code == "":
		return e.Message
	}
	return e.Code + ": " + e.Message
}

// Errorf builds an *Error whose message is formatted like fmt.Sprintf.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetails returns a copy of e carrying details, so a shared sentinel
// error can be enriched per call without being mutated.
func (e *Error) WithDetails(details any) *Error {
	c := *e
	c.Details = details
	return &c
}

// FromError is the tool error err carries: an *Error in its tree as it is,
// or else the first error implementing the host's error contract
// ([apierr.Coded], what the web server renders: a plugin's own code table,
// a connection rejection) with its code, message and details unchanged
// (details left out when empty, as on HTTP). The HTTP status and the
// error's own text (which may hold causes) are not part of a tool
// result. ok is false for an error that carries no code.
func FromError(err error) (te *Error, ok bool) {
	if errors.As(err, &te) {
		return te, true
	}
	c, ok := apierr.As(err)
	if !ok {
		return nil, false
	}
	te = &Error{Code: c.ErrorCode(), Message: c.ErrorMessage()}
	if d := c.ErrorDetails(); len(d) > 0 {
		te.Details = d
	}
	return te, true
}
