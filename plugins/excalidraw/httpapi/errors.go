package httpapi

import (
	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// contract makes h's failures the contract's errors. Handlers return
// errors and the web server renders them ({"error":{"code","message",
// "details"}} with the code's status): a *sceneerr.Error implements
// apierr.Coded, so its code, message and details (a revision_conflict's
// currentRevision, a limit's {limit, max, actual}) reach the editor as
// they are. Anything uncoded is io_error with a generic message, so
// internal text (paths, OS errors) never reaches the browser; the cause
// stays on the error for the host's log.
func contract(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := h(c)
		if err == nil {
			return nil
		}
		if _, coded := apierr.As(err); coded {
			return err
		}
		return &sceneerr.Error{Code: sceneerr.IOError, Message: "internal error", Err: err}
	}
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
