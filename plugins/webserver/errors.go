package webserver

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
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
// response ({"error":{"code","message","details"}}) instead of getting a
// generic 500. It is apierr's error: any error implementing
// [apierr.Coded] (a plugin's own type) is rendered the same way.
type Error = apierr.Error

// NewError builds an Error.
func NewError(status int, code, message string) *Error {
	return apierr.New(status, code, message)
}

// problem is what a client is told about an error; logged says whether
// the host's log must get the error itself.
type problem struct {
	status  int
	code    string
	message string
	details map[string]any
	logged  bool
}

// classify maps any error a handler or middleware returns to what the
// client sees. A Coded error (admission rejections, [Error], plugins' own
// types) says it itself; a coded 500 is still logged, since its cause is
// kept from the client. Unknown errors become a generic 500 so internal
// details (paths, SQL, stack) never reach the client; they are logged.
func classify(err error) problem {
	var (
		big *http.MaxBytesError
		he  *echo.HTTPError
	)
	if c, ok := apierr.As(err); ok {
		p := problem{status: c.HTTPStatus(), code: c.ErrorCode(), message: c.ErrorMessage(), details: c.ErrorDetails()}
		if p.status < 400 || p.status > 599 {
			p.status = http.StatusInternalServerError
		}
		if p.code == "" {
			p.code = snakeCase(http.StatusText(p.status))
		}
		p.logged = p.status == http.StatusInternalServerError
		return p
	}
	switch {
	case errors.As(err, &big):
		return problem{status: http.StatusRequestEntityTooLarge, code: CodeTooLarge, message: fmt.Sprintf("request body exceeds %d bytes", big.Limit)}
	case errors.As(err, &he):
		return fromEchoError(he)
	}
	return problem{status: http.StatusInternalServerError, code: CodeInternal, message: "internal server error", logged: true}
}

func fromEchoError(he *echo.HTTPError) problem {
	status := he.Code
	message := http.StatusText(status)
	if m, ok := he.Message.(string); ok && m != "" {
		message = m
	}
	switch status {
	case http.StatusNotFound:
		return problem{status: status, code: CodeNotFound, message: "no route for this path"}
	case http.StatusMethodNotAllowed:
		return problem{status: status, code: CodeMethodNotAllowed, message: "method not allowed for this path"}
	case http.StatusRequestEntityTooLarge:
		return problem{status: status, code: CodeTooLarge, message: message}
	}
	if status >= 500 {
		return problem{status: status, code: CodeInternal, message: http.StatusText(status), logged: true}
	}
	return problem{status: status, code: snakeCase(http.StatusText(status)), message: message}
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
func errorHandler(log *zap.Logger, loginCommand string, challenge ...func(*http.Request) string) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		p := classify(err)
		if p.logged {
			log.Error("request failed", zap.String("method", c.Request().Method),
				zap.String("path", c.Request().URL.Path), zap.Error(err))
		}
		if c.Response().Committed {
			// Headers are gone; the client sees a truncated response.
			return
		}
		if p.status == http.StatusUnauthorized {
			h := `Bearer realm="dsh"`
			for _, fn := range challenge {
				if extra := fn(c.Request()); extra != "" {
					h += ", " + extra
				}
			}
			c.Response().Header().Set("WWW-Authenticate", h)
		}
		if page.WantsHTML(c.Request()) {
			pg := pageFor(p.status, p.code, p.message, c.Request().URL.Path, loginCommand)
			pg.Detail = fmt.Sprintf("%d %s · request %s", p.status, p.code, c.Response().Header().Get(echo.HeaderXRequestID))
			if werr := page.Write(c.Response(), p.status, pg); werr != nil {
				log.Debug("error page not written", zap.Error(werr))
			}
			return
		}
		p.details = withRequestID(p.details, c.Response().Header().Get(echo.HeaderXRequestID))
		if werr := writeError(c.Response(), p); werr != nil {
			log.Debug("error response not written", zap.Error(werr))
		}
	}
}

// writeError writes p as the JSON error body (apierr.Write).
func writeError(w http.ResponseWriter, p problem) error {
	return apierr.Write(w, p.status, p.code, p.message, p.details)
}
