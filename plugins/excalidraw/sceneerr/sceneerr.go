// Package sceneerr holds the Excalidraw plugin's stable error codes
// (contract section 6), their HTTP statuses and the error type that
// carries them, so the same bad input gets the same code through the
// tools and the HTTP API. It is the plugin's side of the host's error
// contract (apierr): an *Error is an apierr.Coded, and the code the host
// owns (invalid_name) is the host's constant. The scene model, the store
// and every surface of the plugin use these codes; none of them holds a
// table of its own. Its only import beyond the standard library is
// apierr, a leaf, so any package of the plugin may import it.
package sceneerr

import (
	"errors"
	"fmt"
	"maps"
	"net/http"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Every *Error answers an HTTP request as the host's error contract
// says: the code's status, {"error":{"code","message","details"}}.
var _ apierr.Coded = (*Error)(nil)

// Code is a stable, snake_case error code.
type Code string

// The codes of contract section 6.
const (
	InvalidName        Code = apierr.CodeInvalidName // the host's one code for a refused name
	NotFound           Code = "not_found"
	AlreadyExists      Code = "already_exists"
	InvalidScene       Code = "invalid_scene"
	InvalidOperation   Code = "invalid_operation"
	RevisionConflict   Code = "revision_conflict"
	SceneBusy          Code = "scene_busy"
	TooLarge           Code = "too_large"
	TooManyElements    Code = "too_many_elements"
	PermissionDenied   Code = "permission_denied"
	CorruptScene       Code = "corrupt_scene"
	IOError            Code = "io_error"
	UnsupportedElement Code = "unsupported_element"
	DuplicateID        Code = "duplicate_id"
	InvalidReference   Code = "invalid_reference"
	// RateLimited: a quota or rate limit; details carry retryAfterSec.
	RateLimited Code = "rate_limited"
	// NameUnavailable: a create whose name the caller may not have for a
	// reason it is not told (a board it cannot see has it, or one in the
	// trash): one answer for every such reason (access.Unavailable).
	NameUnavailable Code = "name_unavailable"
)

var statuses = map[Code]int{
	InvalidName:        http.StatusBadRequest,
	NotFound:           http.StatusNotFound,
	AlreadyExists:      http.StatusConflict,
	InvalidScene:       http.StatusUnprocessableEntity,
	InvalidOperation:   http.StatusUnprocessableEntity,
	RevisionConflict:   http.StatusConflict,
	SceneBusy:          http.StatusLocked,
	TooLarge:           http.StatusRequestEntityTooLarge,
	TooManyElements:    http.StatusUnprocessableEntity,
	PermissionDenied:   http.StatusForbidden,
	CorruptScene:       http.StatusInternalServerError,
	IOError:            http.StatusInternalServerError,
	UnsupportedElement: http.StatusUnprocessableEntity,
	DuplicateID:        http.StatusConflict,
	InvalidReference:   http.StatusUnprocessableEntity,
	RateLimited:        http.StatusTooManyRequests,
	NameUnavailable:    http.StatusConflict,
}

// Codes lists every code, for tests that must reach each one.
func Codes() []Code {
	out := make([]Code, 0, len(statuses))
	for c := range statuses {
		out = append(out, c)
	}
	return out
}

// Status is the HTTP status of a code (500 for an unknown one).
func (c Code) Status() int {
	if s, ok := statuses[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Retry says whether a call that failed with c may succeed when made
// again, and how many seconds to wait first (0: at once, or after doing
// what the message says). A busy lock clears; a revision conflict clears
// once the caller re-reads; an I/O failure may be transient. Everything
// else fails again until the call is changed.
func (c Code) Retry() (retryable bool, afterSec int) {
	switch c {
	case SceneBusy:
		return true, 1
	case RevisionConflict:
		return true, 0
	case IOError:
		return true, 2
	case RateLimited:
		return true, 60 // the error's own retryAfterSec says when
	}
	return false, 0
}

// Error is a failure with a stable code, a human message and optional
// machine-readable details (for example the JSON pointer of a bad value).
type Error struct {
	Code    Code
	Message string
	Details map[string]any
	Err     error // the underlying cause, if any; never shown to agents
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorCode names the code to layers that cannot import this package
// (the store passes such errors through unchanged).
func (e *Error) ErrorCode() string { return string(e.Code) }

// ErrorMessage, HTTPStatus and ErrorDetails complete the web server's
// error contract (apierr.Coded), so an HTTP handler returns an *Error and
// the server renders it: the code's status, {"error":{"code","message",
// "details"}}. The cause (Err) is never part of it.
func (e *Error) ErrorMessage() string         { return e.Message }
func (e *Error) HTTPStatus() int              { return e.Code.Status() }
func (e *Error) ErrorDetails() map[string]any { return e.Details }

// Is matches another *Error with the same code, so errors.Is(err,
// sceneerr.New(sceneerr.NotFound, "")) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// New makes an error.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// With adds a detail and returns the error.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// FromCoded is c (an error of the host's contract, apierr.Coded: a
// names.Check refusal, say) as an *Error with the same code, message and
// details, so the plugin's surfaces answer it as they answer their own.
func FromCoded(c interface {
	ErrorCode() string
	ErrorMessage() string
	ErrorDetails() map[string]any
}) *Error {
	return &Error{Code: Code(c.ErrorCode()), Message: c.ErrorMessage(), Details: maps.Clone(c.ErrorDetails())}
}

// CodeOf returns the code of err, or "" if it carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
