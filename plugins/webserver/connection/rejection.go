package connection

import (
	"fmt"
	"net/http"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Rejection codes are a stable, machine-readable contract: clients (the CLI,
// browser front-ends) branch on them, so they never change spelling.
const (
	CodeForbiddenOrigin      = "forbidden_origin"
	CodeForbiddenHost        = "forbidden_host"
	CodeUnauthenticated      = "unauthenticated"
	CodeInvalidToken         = "invalid_token"
	CodeCSRFRejected         = "csrf_rejected"
	CodeAdmissionUnavailable = "admission_unavailable"
	CodeBearerRequired       = "bearer_required"
	CodeUnknownPerson        = "unknown_person"
	CodeStoreUnavailable     = apierr.CodeStoreUnavailable
)

// Rejection is why a request is refused. It carries the HTTP status so that
// whoever renders it does not need to know the admission rules.
type Rejection struct {
	Status  int
	Code    string
	Message string
}

var _ apierr.Coded = (*Rejection)(nil)

// Error makes a Rejection usable wherever an error is expected (logs,
// errors.As), while keeping the structured fields for rendering.
func (r *Rejection) Error() string {
	if r == nil {
		return "connection: <nil rejection>"
	}
	return fmt.Sprintf("connection: %s (%d): %s", r.Code, r.Status, r.Message)
}

// ErrorCode, ErrorMessage, HTTPStatus and ErrorDetails make a Rejection
// an apierr.Coded error, which the web server renders as is. Only
// store_unavailable has details: when to try again.
func (r *Rejection) ErrorCode() string    { return r.Code }
func (r *Rejection) ErrorMessage() string { return r.Message }
func (r *Rejection) HTTPStatus() int      { return r.Status }
func (r *Rejection) ErrorDetails() map[string]any {
	if r.Code == CodeStoreUnavailable {
		return map[string]any{"retryable": true, "retryAfterSec": apierr.StoreUnavailableRetrySec}
	}
	return nil
}

// Unavailable is the rejection for "nobody can decide right now". Callers use
// it to fail closed when no admission service is loaded.
func Unavailable() *Rejection {
	return &Rejection{
		Status:  http.StatusServiceUnavailable,
		Code:    CodeAdmissionUnavailable,
		Message: "the connection admission service is not available",
	}
}

// StoreUnavailable is the answer to a credential that could not be
// checked because the shared database does not answer: 503, retry, and
// keep the credential (it may well be valid).
func StoreUnavailable() *Rejection {
	return &Rejection{
		Status:  http.StatusServiceUnavailable,
		Code:    CodeStoreUnavailable,
		Message: "dsh cannot reach its database to check this credential; nothing was done, try again shortly",
	}
}

func reject(status int, code, message string) *Rejection {
	return &Rejection{Status: status, Code: code, Message: message}
}
