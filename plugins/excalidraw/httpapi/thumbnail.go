package httpapi

import (
	"context"
	"errors"
	"hash/fnv"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/thumbnail"
)

// Thumbnail budgets: the list's box (200 × 120 CSS px) at up to 3× density.
const (
	thumbDefaultPixels = 200 * 120 * 4
	thumbMaxPixels     = 200 * 120 * 9
	thumbMinPixels     = 1000
)

// thumbnails serves GET /scenes/:name/thumbnail.png: the board list's
// picture of a scene, from one cache shared by every viewer (see package
// thumbnail), never drawn on the write path. Query parameters: max_pixels
// (default the box at 2×), dark, rev (the revision the viewer knows of,
// or the X-Scene-Revision request header, which keeps the URL and so the
// browser's conditional request; absent: the scene's head). The picture may be of an older revision
// than the scene's while a newer one is drawn (at most one render per
// picture every few seconds): X-Scene-Revision says which, and its ETag
// names that revision's picture, so a viewer asking again gets 304 until
// a newer one is in.
type thumbnails struct {
	svc   *service.Service
	cache *thumbnail.Cache
}

// newThumbnails is the route's cache, drawing with svc; closed with stop.
func newThumbnails(svc *service.Service, o thumbnail.Options, stop <-chan struct{}) thumbnails {
	c := thumbnail.New(func(ctx context.Context, k thumbnail.Key) (thumbnail.Picture, error) {
		res, err := svc.Render(ctx, service.RenderRequest{Name: k.Name, Format: service.RenderPNG, MaxPixels: k.MaxPixels, Dark: k.Dark})
		if err != nil {
			if askersOwn(ctx, svc, k.Name, err) {
				return thumbnail.Picture{}, thumbnail.Asker(err)
			}
			return thumbnail.Picture{}, err
		}
		h := fnv.New64a()
		h.Write(res.Data)
		etag := `"thumb-` + render.Version + "-" + strconv.FormatInt(res.Revision, 10) + "-" + strconv.FormatUint(h.Sum64(), 16) + `"`
		return thumbnail.Picture{Revision: res.Revision, ETag: etag, MIME: res.MIME, Data: res.Data}, nil
	}, o)
	if stop != nil {
		go func() { <-stop; c.Close() }()
	}
	return thumbnails{svc: svc, cache: c}
}

// askersOwn reports whether a render's failure err is the viewer's it read
// as (ctx), not the board's: not_found or permission_denied, not for
// nothing to draw (an empty board, which is everyone's: its placeholder),
// while that viewer may no longer read the board. The cache keeps such a
// failure from other viewers (thumbnail.Asker).
func askersOwn(ctx context.Context, svc *service.Service, name string, err error) bool {
	switch sceneerr.CodeOf(err) {
	case sceneerr.NotFound, sceneerr.PermissionDenied:
	default:
		return false
	}
	return !errors.Is(err, render.ErrEmpty) && svc.May(ctx, name, access.Read) != nil
}

func (h thumbnails) get(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	q := c.QueryParams()
	k := thumbnail.Key{Name: name, MaxPixels: thumbDefaultPixels}
	if v := q.Get("max_pixels"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < thumbMinPixels || n > thumbMaxPixels {
			return badRequest("/max_pixels", "max_pixels must be an integer from %d to %d", thumbMinPixels, thumbMaxPixels)
		}
		k.MaxPixels = n
	}
	if v := q.Get("dark"); v != "" {
		if k.Dark, err = strconv.ParseBool(v); err != nil {
			return badRequest("/dark", "dark must be true or false")
		}
	}
	// The viewer's own access first: the cache serves everyone alike. A
	// viewer that names the revision it knows of (the list page, from its
	// stream) is checked by the guard alone: reading the scene's head
	// right after a commit reads and hashes the file.
	ctx := c.Request().Context()
	var head int64
	v := q.Get("rev")
	if v == "" {
		v = c.Request().Header.Get("X-Scene-Revision")
	}
	if v != "" {
		if head, err = strconv.ParseInt(v, 10, 64); err != nil || head < 0 {
			return badRequest("/rev", "rev must be a revision number")
		}
		if err := h.svc.May(ctx, name, access.Read); err != nil {
			return err
		}
	} else {
		m, err := h.svc.Head(ctx, name)
		if err != nil {
			return err
		}
		head = m.Revision
	}
	pic, err := h.cache.Get(ctx, k, head)
	if err != nil {
		return err
	}
	hdr := c.Response().Header()
	hdr.Set("ETag", pic.ETag)
	hdr.Set("Cache-Control", "private, no-cache")
	hdr.Set("X-Scene-Revision", strconv.FormatInt(pic.Revision, 10))
	hdr.Set("Access-Control-Expose-Headers", "X-Scene-Revision")
	if match := c.Request().Header.Get("If-None-Match"); match != "" && match == pic.ETag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, pic.MIME, pic.Data)
}
