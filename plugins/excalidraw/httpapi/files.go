package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// FilesPrefix is where the file service answers (seed 001's /files/*):
// FilesPrefix+"rooms/{board}/{rest…}" and FilesPrefix+"shareLinks/{rest…}".
const FilesPrefix = "/files/"

// fileCSP keeps a stored file inert if a browser opens it: no script, no
// subresources, an opaque origin. The bytes are whatever a client sent,
// and the editor is served from this same origin.
const fileCSP = "sandbox; default-src 'none'"

// fileRoutes are the file service's routes. A board's files
// (rooms/{board}/…) are behind admission, so a principal is always there
// to ask the board's access of: PUT needs write, GET and HEAD read. Share
// links' files are open to everyone (seed 001), so those routes are
// Public and never see a principal; their uploads are create-only,
// capped in total, and counted per client address when st is a
// files.Limited (see files/sharelinks.go).
func fileRoutes(svc *service.Service, st files.Backend) []webserver.Route {
	rooms := fileAPI{svc: svc, st: st, kind: files.Rooms}
	share := fileAPI{svc: svc, st: st, kind: files.ShareLinks}
	if l, ok := st.(interface{ ShareLinkLimiter() *files.Limiter }); ok {
		share.limit = l.ShareLinkLimiter()
	}
	return []webserver.Route{
		{Method: http.MethodPut, Path: FilesPrefix + "rooms/*", Handler: rooms.put},
		{Method: http.MethodGet, Path: FilesPrefix + "rooms/*", Handler: rooms.get},
		{Method: http.MethodHead, Path: FilesPrefix + "rooms/*", Handler: rooms.get},
		{Method: http.MethodPut, Path: FilesPrefix + "shareLinks/*", Handler: share.put, Public: true},
		{Method: http.MethodGet, Path: FilesPrefix + "shareLinks/*", Handler: share.get, Public: true},
		{Method: http.MethodHead, Path: FilesPrefix + "shareLinks/*", Handler: share.get, Public: true},
	}
}

// fileAPI serves one area's files.
type fileAPI struct {
	svc   *service.Service
	st    files.Backend
	kind  files.Kind
	limit *files.Limiter // share links' uploads per client address; nil: none
}

// putReply is PUT's answer.
type putReply struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// path is the request's file path, checked (files.ParsePath) and, for a
// board's file, the caller's access to the board checked for a: the
// service's answer (not_found for a board it does not reach,
// permission_denied for a viewer's write) before anything is read or
// touched.
//
// The path is taken as sent, undecoded: no file segment needs
// percent-encoding, so a request that used any (%2e%2e, %2F, %00, an
// encoded letter) is refused rather than decoded into something else.
func (h fileAPI) path(c echo.Context, a access.Action) (files.Path, error) {
	u := c.Request().URL
	if u.RawPath != "" || strings.Contains(u.Path, "%") {
		return files.Path{}, sceneerr.New(sceneerr.InvalidName, "a file path must not be percent-encoded")
	}
	logical, ok := strings.CutPrefix(u.Path, FilesPrefix)
	if !ok {
		return files.Path{}, sceneerr.New(sceneerr.NotFound, "no such file")
	}
	p, err := files.ParsePath(logical)
	if err != nil {
		return files.Path{}, err
	}
	if p.Kind != h.kind {
		return files.Path{}, sceneerr.New(sceneerr.NotFound, "no such file")
	}
	if p.Kind == files.Rooms {
		if err := h.svc.May(c.Request().Context(), p.Board, a); err != nil {
			return files.Path{}, err
		}
	}
	return p, nil
}

// put is PUT /files/…: the body, verbatim, as the file at the path; its
// Content-Type (sanitised) is stored with it. 201 for a new file, 200
// for a replaced one, with {"path","bytes","sha256"}. A body over
// files.maxFileBytes is too_large: refused from its Content-Length before
// it is read, or once the limit is passed while reading it.
//
// A share link's file is written once (409 already_exists), within the
// share links' total (507 insufficient_storage) and its sender's hourly
// bytes (429 rate_limited, with retryAfterSec and Retry-After): its
// Content-Length (or, without one, the cap) is counted against the
// sender's address before the body is read, and what was not stored is
// given back. A database that does not answer is 503 store_unavailable.
//
// A refused PUT closes the connection after its answer: its body is left
// unread (all of it, or what is over the cap), and the server would
// otherwise read up to 256 KiB more of it to keep the connection.
func (h fileAPI) put(c echo.Context) (err error) {
	defer func() {
		if err != nil && c.Request().ContentLength != 0 {
			c.Response().Header().Set(echo.HeaderConnection, "close")
		}
		retryAfter(c, err)
	}()
	p, err := h.path(c, access.Write)
	if err != nil {
		return err
	}
	req := c.Request()
	max := h.st.MaxFileBytes()
	if req.ContentLength > max {
		return files.TooLarge(req.ContentLength, max, false)
	}
	settle := func(int64) {}
	if h.limit != nil {
		charge := req.ContentLength
		if charge < 0 {
			charge = max
		}
		if settle, err = h.limit.Take(req.Context(), connection.ClientAddress(req), charge); err != nil {
			return err
		}
	}
	body := &bodyReader{r: req.Body}
	info, created, err := h.st.Put(req.Context(), p, req.Header.Get(echo.HeaderContentType), req.ContentLength, body)
	if err != nil {
		settle(-1)
	} else {
		settle(info.Size)
	}
	if err != nil {
		var big *http.MaxBytesError
		_, coded := apierr.As(err)
		switch {
		case errors.As(body.err, &big):
			// The web server's own bound (http.maxBodyBytes) is below this
			// one; it is the limit the upload ran into.
			return sceneerr.New(sceneerr.TooLarge, "the request body is more than %d bytes; the limit is http.maxBodyBytes", big.Limit).
				With("limit", "http.maxBodyBytes").With("max", big.Limit).With("actual", big.Limit+1)
		case body.err != nil && !coded:
			return &sceneerr.Error{Code: sceneerr.IOError, Message: "the request body could not be read", Err: err}
		}
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return ok(c, status, putReply{Path: FilesPrefix + info.Path, Bytes: info.Size, SHA256: info.SHA256})
}

// retryAfter sets Retry-After from the retryAfterSec of a rate_limited
// or store_unavailable err.
func retryAfter(c echo.Context, err error) {
	ce, ok := apierr.As(err)
	if !ok || (ce.HTTPStatus() != http.StatusTooManyRequests && ce.HTTPStatus() != http.StatusServiceUnavailable) {
		return
	}
	if after, ok := ce.ErrorDetails()["retryAfterSec"].(int); ok && after > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(after))
	}
}

// bodyReader remembers the body's own read error, to tell a client's
// failure from the store's.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// get is GET and HEAD /files/…: the file's bytes as stored, with the
// content type it was stored with, its sha256 as a strong ETag (so
// If-None-Match answers 304), never sniffed, sandboxed, and an attachment
// unless it is a raster image (files.Inline).
func (h fileAPI) get(c echo.Context) (err error) {
	defer func() { retryAfter(c, err) }()
	p, err := h.path(c, access.Read)
	if err != nil {
		return err
	}
	f, err := h.st.Get(c.Request().Context(), p)
	if err != nil {
		return err
	}
	defer f.Close()
	hd := c.Response().Header()
	etag := `"` + f.SHA256 + `"`
	hd.Set("ETag", etag)
	hd.Set("Cache-Control", "private, no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", fileCSP)
	if etagMatches(c.Request().Header.Values("If-None-Match"), f.SHA256) {
		c.Response().WriteHeader(http.StatusNotModified)
		return nil
	}
	hd.Set(echo.HeaderContentType, f.ContentType)
	hd.Set(echo.HeaderContentLength, strconv.FormatInt(f.Size, 10))
	if !files.Inline(f.ContentType) {
		hd.Set("Content-Disposition", `attachment; filename="`+p.Name()+`"`)
	}
	c.Response().WriteHeader(http.StatusOK)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	_, err = io.Copy(c.Response(), f)
	return err
}

// etagMatches is If-None-Match's weak comparison (RFC 9110 13.1.2) of
// the header's entity tags against the file's hash.
func etagMatches(headers []string, sum string) bool {
	for _, h := range headers {
		for tag := range strings.SplitSeq(h, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" {
				return true
			}
			tag = strings.TrimPrefix(tag, "W/")
			if tag == `"`+sum+`"` {
				return true
			}
		}
	}
	return false
}
