package httpapi

import (
	"errors"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
)

// errorBody is the contract's error shape. It is written here rather than
// returned to the web server because the server's generic error handler
// knows nothing of sceneerr and would turn every scene error into a 500
// without details (a revision_conflict without currentRevision is useless
// to the editor's conflict dialog).
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    sceneerr.Code  `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// fail renders err. A *sceneerr.Error keeps its code, message and
// details; anything else is io_error with a generic message, so internal
// text (paths, OS errors) never reaches the browser.
func fail(c echo.Context, err error) error {
	var se *sceneerr.Error
	if !errors.As(err, &se) {
		se = sceneerr.New(sceneerr.IOError, "internal error")
	}
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return c.JSON(se.Code.Status(), errorBody{Error: errorDetail{Code: se.Code, Message: se.Message, Details: se.Details}})
}

// ok writes a JSON success response with the same nosniff header as
// errors, so no API response is ever sniffed as HTML.
func ok(c echo.Context, status int, v any) error {
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, v)
}

// badRequest is invalid_operation located by a JSON pointer: the contract
// (section 6) has no separate "bad request body" code, and
// invalid_operation (422) is its code for bad arguments, so a malformed or
// mistyped body is that rather than a bare 400.
func badRequest(pointer, format string, args ...any) *sceneerr.Error {
	return sceneerr.New(sceneerr.InvalidOperation, format, args...).With("pointer", pointer)
}
