package store

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"golang.org/x/sys/unix"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Error codes. They are the contract's codes (sceneerr, the plugin's
// one code table beside the host's error contract: importing it brings
// none of the scene model), so the HTTP and MCP layers pass them on and clients branch
// on them; they never change meaning. invalid_request is the store's own:
// a caller's mistake no client can make, which the service reports as
// invalid_operation.
const (
	CodeInvalidName      = string(sceneerr.InvalidName)      // 400: the scene name breaks the naming rule
	CodeInvalidRequest   = "invalid_request"                 // 400: a bad actor, request id, option or missing callback
	CodeNotFound         = string(sceneerr.NotFound)         // 404
	CodeAlreadyExists    = string(sceneerr.AlreadyExists)    // 409: Create on an existing name
	CodeRevisionConflict = string(sceneerr.RevisionConflict) // 409: the expected revision is not the current one
	CodeSceneBusy        = string(sceneerr.SceneBusy)        // 423: another process holds the scene's lock
	CodeTooLarge         = string(sceneerr.TooLarge)         // 413
	CodePermissionDenied = string(sceneerr.PermissionDenied) // 403: symlinks, non-regular files, EACCES
	CodeInvalidScene     = string(sceneerr.InvalidScene)     // 422: the codec rejected the document
	CodeCorruptScene     = string(sceneerr.CorruptScene)     // 500: on-disk file unparseable and no valid backup
	CodeIOError          = string(sceneerr.IOError)          // 500: anything the disk did wrong, incl. failed verification
)

// statusOf is the HTTP status of code: the contract's (sceneerr), and 400
// for invalid_request.
func statusOf(code string) int {
	if code == CodeInvalidRequest {
		return http.StatusBadRequest
	}
	return sceneerr.Code(code).Status()
}

// Error is the only error type the store returns (apart from errors a caller's
// Mutate function returns, which pass through untouched). It carries a stable
// Code so callers never parse messages, the matching HTTP Status, and Details
// a client can act on (for example the current revision after a conflict).
type Error struct {
	Code    string
	Status  int
	Message string
	Details map[string]any
	Err     error
}

// Error formats as "code: message: cause".
func (e *Error) Error() string {
	msg := e.Code
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap exposes the underlying cause (often a *fs.PathError or errno).
func (e *Error) Unwrap() error { return e.Err }

// NewError is an *Error with code's HTTP status, for other backends
// (add details with With).
func NewError(code, msg string, cause error) *Error { return newError(code, msg, cause) }

// With adds one detail and returns e.
func (e *Error) With(key string, value any) *Error { return e.with(key, value) }

// newError builds an *Error with the status that belongs to code.
func newError(code, msg string, cause error) *Error {
	return &Error{Code: code, Status: statusOf(code), Message: msg, Err: cause}
}

// errorf is newError with a formatted message and no cause.
func errorf(code, format string, args ...any) *Error {
	return newError(code, fmt.Sprintf(format, args...), nil)
}

// with adds one detail and returns e, so construction reads as one expression.
func (e *Error) with(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// CodeOf returns the Code of the first *Error in err's chain, or "" when err
// is nil or not from the store.
func CodeOf(err error) string {
	var se *Error
	if errors.As(err, &se) {
		return se.Code
	}
	var ce CodedError
	if errors.As(err, &ce) {
		return ce.ErrorCode()
	}
	return ""
}

// CodedError is an error from outside the store (a codec's) that names its
// own contract code, such as duplicate_id. The store passes it through
// instead of hiding it under a generic invalid_scene.
type CodedError interface {
	error
	ErrorCode() string
}

// fsError classifies an operating-system error. Symlink refusals (ELOOP from
// O_NOFOLLOW, EMLINK on some BSDs), ENOTDIR from O_DIRECTORY on something
// that is not a directory, and access errors are permission_denied, because
// each means "this path is not one the store may use"; everything else is
// io_error. An existing *Error passes through unchanged.
func fsError(msg string, err error) *Error {
	var se *Error
	if errors.As(err, &se) {
		return se
	}
	switch {
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EMLINK), errors.Is(err, unix.ENOTDIR):
		return newError(CodePermissionDenied, msg+" (symlink or not a directory refused)", err)
	case errors.Is(err, fs.ErrPermission):
		return newError(CodePermissionDenied, msg, err)
	default:
		return newError(CodeIOError, msg, err)
	}
}
