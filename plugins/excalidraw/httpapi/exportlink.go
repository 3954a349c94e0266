package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// exportLink is GET /exports/:id?exp=…&sig=…: an exported file, for as
// long as its signed link lasts. A link that is not one dsh signed, and
// one that has expired, are permission_denied (403) with the reason; a
// genuine, live link whose file has been swept is not_found. In the
// exports folder nothing but a regular file is served: a symlink there
// (or a symlinked folder) is permission_denied, never followed. A
// database that does not answer is 503 store_unavailable. The file is
// sent as an attachment with its media type, never sniffed.
func exportLink(st *exports.Store) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() { retryAfter(c, err) }()
		id, q := c.Param("id"), c.QueryParams()
		f, err := st.OpenContext(c.Request().Context(), id, q.Get("exp"), q.Get("sig"))
		switch {
		case errors.Is(err, exports.ErrBadLink):
			return sceneerr.New(sceneerr.PermissionDenied, "this export link is not valid: it was changed or not made by this host").With("reason", "signature")
		case errors.Is(err, exports.ErrExpired):
			return sceneerr.New(sceneerr.PermissionDenied, "this export link has expired; export again for a new one").With("reason", "expired")
		case errors.Is(err, exports.ErrNoLongerKept):
			return sceneerr.New(sceneerr.NotFound, "this export is no longer kept; export again")
		case err != nil:
			return err
		}
		defer f.Close()
		h := c.Response().Header()
		h.Set("Content-Type", exports.MIME(id))
		h.Set("Content-Length", strconv.FormatInt(f.Size, 10))
		h.Set("Content-Disposition", `attachment; filename="`+id+`"`)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:")
		h.Set("Cache-Control", "private, max-age=300")
		c.Response().WriteHeader(http.StatusOK)
		if c.Request().Method == http.MethodHead {
			return nil
		}
		_, err = io.Copy(c.Response(), f)
		return err
	}
}
