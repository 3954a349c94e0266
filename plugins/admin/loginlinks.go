package admin

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// LoginLinkRequest is the optional body of POST /api/admin/login-links.
type LoginLinkRequest struct {
	// Next is where the browser lands after logging in, a path on this
	// server ("" for the home page).
	Next string `json:"next,omitempty"`
}

// LoginLinkResponse is what POST /api/admin/login-links returns.
type LoginLinkResponse struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// mintLoginLink is what `dsh login` calls: a new one-time link into this
// host, on the URL people reach it at (host.publicURL, else the one it
// listens at, which `dsh serve` prints). Only a
// bearer token may ask; a browser session may not mint sessions for others.
func (a *api) mintLoginLink(c echo.Context) error {
	if rej := a.conn.RequireBearer(c.Request()); rej != nil {
		return rej
	}
	var in LoginLinkRequest
	if err := decodeOptionalJSON(c.Request().Body, &in); err != nil {
		return webserver.NewError(http.StatusBadRequest, "invalid_body", "the body must be empty or a JSON object like {\"next\": \"/a/page/\"}: "+err.Error())
	}
	link, expires, err := a.conn.LoginLink(c.Request().Context(), a.web.PublicURL(), in.Next)
	if errors.Is(err, connection.ErrInvalidNext) {
		return webserver.NewError(http.StatusBadRequest, "invalid_next", err.Error())
	}
	if err != nil {
		return err
	}
	a.log.Info("login link minted", zap.String("remote", c.Request().RemoteAddr), zap.Time("expires", expires))
	return c.JSON(http.StatusCreated, LoginLinkResponse{URL: link, ExpiresAt: expires})
}

// decodeOptionalJSON decodes one JSON object into v; an empty body leaves
// v as it is. Unknown fields and trailing data are errors, so a typo is
// reported instead of ignored.
func decodeOptionalJSON(body io.Reader, v any) error {
	data, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
