package webserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/dshgo/dsh/plugins/webserver/page"
	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
)

// Error codes produced by the server itself. Like connection's rejection
// codes they are a stable contract for clients.
const (
	CodeNotFound         = "not_found"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeTooLarge         = "too_large"
	CodeInternal         = "internal_error"
	CodeShuttingDown     = "shutting_down"
)

// Error is an error a plugin handler can return to control the JSON error
// response ({"error":{"code","message"}}) instead of getting a generic 500.
type Error struct {
	Status  int
	Code    string
	Message string
}

var _ error = (*Error)(nil)

// NewError builds an Error.
func NewError(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

func (e *Error) Error() string {
	return fmt.Sprintf("webserver: %s (%d): %s", e.Code, e.Status, e.Message)
}

// errorBody is the one JSON error shape used by every dsh endpoint, so
// clients need a single decoder for failures.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// classify maps any error a handler or middleware returns to a status, code
// and client-safe message. Unknown errors become a generic 500 so internal
// details (paths, SQL, stack) never reach the client; they are logged.
func classify(err error) (status int, code, message string, internal bool) {
	var (
		rej *connection.Rejection
		own *Error
		big *http.MaxBytesError
		he  *echo.HTTPError
	)
	switch {
	case errors.As(err, &rej):
		return rej.Status, rej.Code, rej.Message, false
	case errors.As(err, &own):
		return own.Status, own.Code, own.Message, false
	case errors.As(err, &big):
		return http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("request body exceeds %d bytes", big.Limit), false
	case errors.As(err, &he):
		return fromEchoError(he)
	}
	return http.StatusInternalServerError, CodeInternal, "internal server error", true
}

func fromEchoError(he *echo.HTTPError) (int, string, string, bool) {
	status := he.Code
	message := http.StatusText(status)
	if m, ok := he.Message.(string); ok && m != "" {
		message = m
	}
	switch status {
	case http.StatusNotFound:
		return status, CodeNotFound, "no route for this path", false
	case http.StatusMethodNotAllowed:
		return status, CodeMethodNotAllowed, "method not allowed for this path", false
	case http.StatusRequestEntityTooLarge:
		return status, CodeTooLarge, message, false
	}
	if status >= 500 {
		return status, CodeInternal, http.StatusText(status), true
	}
	return status, snakeCase(http.StatusText(status)), message, false
}

// snakeCase turns "Bad Request" into "bad_request".
func snakeCase(s string) string {
	if s == "" {
		return "error"
	}
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// errorHandler renders errors for both the outer echo and every inner
// routing table, so 404s from "no mount at all" and from "not in this
// table" look the same.
//
// A person's browser navigating to a page gets an HTML page that says what
// happened and what to do (errorpage.go); everyone else gets the JSON body.
func errorHandler(log *zap.Logger, loginCommand string) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		status, code, message, internal := classify(err)
		if internal {
			log.Error("request failed", zap.String("method", c.Request().Method),
				zap.String("path", c.Request().URL.Path), zap.Error(err))
		}
		if c.Response().Committed {
			// Headers are gone; the client sees a truncated response.
			return
		}
		if status == http.StatusUnauthorized {
			c.Response().Header().Set("WWW-Authenticate", `Bearer realm="dsh"`)
		}
		if page.WantsHTML(c.Request()) {
			p := pageFor(status, code, message, c.Request().URL.Path, loginCommand)
			p.Detail = fmt.Sprintf("%d %s · request %s", status, code, c.Response().Header().Get(echo.HeaderXRequestID))
			if werr := page.Write(c.Response(), status, p); werr != nil {
				log.Debug("error page not written", zap.Error(werr))
			}
			return
		}
		if werr := writeError(c.Response(), status, code, message); werr != nil {
			log.Debug("error response not written", zap.Error(werr))
		}
	}
}

func writeError(w http.ResponseWriter, status int, code, message string) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(errorBody{Error: errorDetail{Code: code, Message: message}})
}
