package httpapi

import (
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// render is GET /scenes/:name/render.png and render.svg: the scene drawn
// as Excalidraw exports it. Query parameters: scale (0 or absent: 1, or
// less to fit max_pixels), max_pixels, padding, dark, background
// (default true), ids (comma-separated), frame (a frame's name) or
// frame_id (one frame: exported as Excalidraw exports a frame, see
// service.RenderRequest), region (x,y,width,height in scene px). A
// conditional request with the revision's ETag is answered 304.
func (h scenes) render(format string) echo.HandlerFunc {
	return func(c echo.Context) error {
		name, err := nameParam(c)
		if err != nil {
			return err
		}
		q := c.QueryParams()
		r := service.RenderRequest{Name: name, Format: format}
		if v := q.Get("scale"); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return badRequest("/scale", "scale must be a number")
			}
			r.Scale = f
		}
		if v := q.Get("max_pixels"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return badRequest("/max_pixels", "max_pixels must be an integer")
			}
			r.MaxPixels = n
		}
		if v := q.Get("padding"); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return badRequest("/padding", "padding must be a number")
			}
			r.Padding = &f
		}
		for _, b := range []struct {
			key string
			dst *bool
			neg bool
		}{{"dark", &r.Dark, false}, {"background", &r.NoBackground, true}} {
			if v := q.Get(b.key); v != "" {
				on, err := strconv.ParseBool(v)
				if err != nil {
					return badRequest("/"+b.key, "%s must be true or false", b.key)
				}
				*b.dst = on != b.neg
			}
		}
		var t query.Target
		if v := q.Get("ids"); v != "" {
			t.IDs = strings.Split(v, ",")
		}
		t.FrameName = q.Get("frame")
		if v := q.Get("frame_id"); v != "" {
			t.FrameIDs = []string{v}
		}
		r.Target = t
		if v := q.Get("region"); v != "" {
			parts := strings.Split(v, ",")
			var f [4]float64
			if len(parts) != 4 {
				return badRequest("/region", "region must be x,y,width,height")
			}
			for i, p := range parts {
				if f[i], err = strconv.ParseFloat(strings.TrimSpace(p), 64); err != nil {
					return badRequest("/region", "region must be x,y,width,height numbers")
				}
			}
			r.Region = &geom.Rect{MinX: f[0], MinY: f[1], MaxX: f[0] + f[2], MaxY: f[1] + f[3]}
		}
		if r.Scale == 0 && r.MaxPixels == 0 {
			r.Scale = 1
		}
		head, err := h.svc.Head(c.Request().Context(), name)
		if err != nil {
			return err
		}
		etag := `"` + render.Version + "-" + format + "-" + strconv.FormatInt(head.Revision, 10) + "-" + head.SHA256[:16] + "-" + strconv.FormatUint(hashQuery(c.Request().URL.RawQuery), 16) + `"`
		if match := c.Request().Header.Get("If-None-Match"); match != "" && match == etag {
			return c.NoContent(http.StatusNotModified)
		}
		res, err := h.svc.Render(c.Request().Context(), r)
		if err != nil {
			return err
		}
		hdr := c.Response().Header()
		hdr.Set("ETag", etag)
		hdr.Set("Cache-Control", "private, no-cache")
		hdr.Set("X-Scene-Revision", strconv.FormatInt(res.Revision, 10))
		if format == service.RenderSVG {
			// An SVG is a document: it must not run script if opened alone.
			hdr.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:")
		}
		return c.Blob(http.StatusOK, res.MIME, res.Data)
	}
}

// hashQuery is FNV-1a of a query string, for the ETag of its picture.
func hashQuery(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
