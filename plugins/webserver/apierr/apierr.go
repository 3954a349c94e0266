// Package apierr is the error contract of every dsh HTTP endpoint: an
// error that says which code, status, message and details a client sees.
// The web server renders any error implementing [Coded] (found with
// errors.As, so it may be wrapped) as
//
//	{"error":{"code":"…","message":"…","details":{…}}}
//
// with details left out when there are none, and everything else as a
// bare 500 internal_error. Packages with an error type of their own (the
// Excalidraw plugin's sceneerr, the connection service's rejections)
// implement the interface on it; the others use [Error].
//
// It is a leaf package (the standard library only), so the web server,
// its connection service, the tools registry and plugins' code tables
// can all import it without cycles.
package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Coded is an error that carries its own answer to a client. ErrorMessage
// is shown as is, so it must hold nothing internal (paths, causes); the
// Error method is for logs and may. ErrorDetails may be nil.
type Coded interface {
	error
	ErrorCode() string
	ErrorMessage() string
	HTTPStatus() int
	ErrorDetails() map[string]any
}

// As finds the first Coded error in err's tree.
func As(err error) (Coded, bool) {
	var c Coded
	ok := errors.As(err, &c)
	return c, ok
}

// Error is a Coded error for packages without an error type of their own.
type Error struct {
	Status  int
	Code    string
	Message string
	Details map[string]any
	// Err is the cause, for logs and errors.Is/As; never shown to clients.
	Err error
}

var _ Coded = (*Error)(nil)

// New builds an Error.
func New(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// With adds one detail and returns e.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// CodeStoreUnavailable is the one code of a request that could not be
// carried out because dsh's shared database does not answer: 503, with
// details {retryable: true, retryAfterSec}. Nothing was done; the same
// request may succeed once the database is back. Admission answers it
// for a credential it cannot check, and every service for a request it
// cannot serve.
const CodeStoreUnavailable = "store_unavailable"

// StoreUnavailableRetrySec is when a store_unavailable answer says to
// try again.
const StoreUnavailableRetrySec = 2

// StoreUnavailable is the store_unavailable answer: message for the
// client, cause for the log.
func StoreUnavailable(message string, cause error) *Error {
	return New(http.StatusServiceUnavailable, CodeStoreUnavailable, message).
		With("retryable", true).With("retryAfterSec", StoreUnavailableRetrySec).Wrap(cause)
}

// Wrap records cause (kept from clients) and returns e.
func (e *Error) Wrap(cause error) *Error {
	e.Err = cause
	return e
}

// Error formats as "code (status): message: cause".
func (e *Error) Error() string {
	s := fmt.Sprintf("%s (%d): %s", e.Code, e.Status, e.Message)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error                { return e.Err }
func (e *Error) ErrorCode() string            { return e.Code }
func (e *Error) ErrorMessage() string         { return e.Message }
func (e *Error) HTTPStatus() int              { return e.Status }
func (e *Error) ErrorDetails() map[string]any { return e.Details }

// body is the one JSON shape of an error answer on every HTTP surface:
// {"error":{"code","message","details"}}, details left out when empty.
type body struct {
	Error bodyDetail `json:"error"`
}

type bodyDetail struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// Write sends the error answer: status, the JSON body, and headers that
// keep it from being cached as HTML or sniffed. It is what the web server
// renders for every coded error, and what handlers that answer without
// it (an http.Handler mounted as it is) call themselves.
func Write(w http.ResponseWriter, status int, code, message string, details map[string]any) error {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(body{Error: bodyDetail{Code: code, Message: message, Details: details}})
}
