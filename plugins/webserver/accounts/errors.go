package accounts

import (
	"fmt"
	"net/http"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// The codes of the errors the store returns, stable for clients and
// scripts. Anything else (an unreadable file) is not an *Error and is an
// internal error to clients.
const (
	CodeInvalidName      = apierr.CodeInvalidName // 400: the name breaks the name rules
	CodeInvalidEmail     = "invalid_email"        // 400: not a plain email address
	CodeAlreadyExists    = "already_exists"       // 409: the name is taken
	CodeNotFound         = "not_found"            // 404: no such person
	CodeInvalidOperation = "invalid_operation"    // 400: e.g. removing the owner
	CodeInvalidInvite    = "invalid_invite"       // 403: unknown, expired or used invite
	CodeWeakPassword     = "weak_password"        // 400: the password breaks the rules
	CodeBadCredentials   = "bad_credentials"      // 401: wrong name or password
	CodeRateLimited      = "rate_limited"         // 429: too many failures; see RetryAfter
)

// Error is a refusal the person at the other end can act on. Its Message
// says what is wrong in words fit to show them; it holds no paths or
// causes. It implements apierr.Coded, so the web server renders it with
// its code and status.
type Error struct {
	Code    string
	Message string
	// RetryAfter is, for CodeRateLimited, the seconds until another
	// attempt will be considered.
	RetryAfter int
}

var _ apierr.Coded = (*Error)(nil)

// Error formats as "accounts: code: message".
func (e *Error) Error() string { return fmt.Sprintf("accounts: %s: %s", e.Code, e.Message) }

// ErrorCode is the stable code (one of the Code constants).
func (e *Error) ErrorCode() string { return e.Code }

// ErrorMessage is the message for people.
func (e *Error) ErrorMessage() string { return e.Message }

// HTTPStatus is the status a web answer carries.
func (e *Error) HTTPStatus() int {
	switch e.Code {
	case CodeAlreadyExists:
		return http.StatusConflict
	case CodeNotFound:
		return http.StatusNotFound
	case CodeInvalidInvite:
		return http.StatusForbidden
	case CodeBadCredentials:
		return http.StatusUnauthorized
	case CodeRateLimited:
		return http.StatusTooManyRequests
	default: // invalid_name, invalid_email, invalid_operation, weak_password
		return http.StatusBadRequest
	}
}

// ErrorDetails tells a client when it may retry a rate-limited attempt.
func (e *Error) ErrorDetails() map[string]any {
	if e.Code != CodeRateLimited {
		return nil
	}
	return map[string]any{"retryable": true, "retryAfterSec": e.RetryAfter}
}

func errAlreadyExists(name string) error {
	return &Error{Code: CodeAlreadyExists, Message: fmt.Sprintf("a person named %q already exists", name)}
}

func errNotFound(idOrName string) error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf("no person has the id or name %q", idOrName)}
}

// errInvalidInvite is one error for an unknown, an expired and a used
// invite, so the answer tells a guesser nothing.
func errInvalidInvite() error {
	return &Error{Code: CodeInvalidInvite, Message: "this invite is not valid: it may have expired or been used; ask for a new one"}
}

// errBadCredentials is one error for an unknown name, a wrong password and
// an account without a password.
func errBadCredentials() error {
	return &Error{Code: CodeBadCredentials, Message: "wrong name or password"}
}
