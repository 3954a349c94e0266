package store

import (
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"
)

// Error codes. They are stable strings: the HTTP and MCP layers map them to
// responses and clients branch on them, so they never change meaning.
const (
	CodeInvalidName      = "invalid_name"      // 400: the scene name breaks the naming rule
	CodeInvalidRequest   = "invalid_request"   // 400: a bad actor, request id, option or missing callback
	CodeNotFound         = "not_found"         // 404
	CodeAlreadyExists    = "already_exists"    // 409: Create on an existing name
	CodeRevisionConflict = "revision_conflict" // 409: the expected revision is not the current one
	CodeSceneBusy        = "scene_busy"        // 423: another process holds the scene's lock
	CodeTooLarge         = "too_large"         // 413
	CodePermissionDenied = "permission_denied" // 403: symlinks, non-regular files, EACCES
	CodeInvalidScene     = "invalid_scene"     // 422: the codec rejected the document
	CodeCorruptScene     = "corrupt_scene"     // 500: on-disk file unparseable and no valid backup
	CodeIOError          = "io_error"          // 500: anything the disk did wrong, incl. failed verification
)

var statusByCode = map[string]int{
	CodeInvalidName:      400,
	CodeInvalidRequest:   400,
	CodeNotFound:         404,
	CodeAlreadyExists:    409,
	CodeRevisionConflict: 409,
	CodeSceneBusy:        423,
	CodeTooLarge:         413,
	CodePermissionDenied: 403,
	CodeInvalidScene:     422,
	CodeCorruptScene:     500,
	CodeIOError:          500,
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

// newError builds an *Error with the status that belongs to code.
func newError(code, msg string, cause error) *Error {
	return &Error{Code: code, Status: statusByCode[code], Message: msg, Err: cause}
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
