package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// AdminPrefix is where the admin API is mounted.
const AdminPrefix = "/api/admin"

// CodeAdminRequired is the admin API's refusal of a principal that is not
// an admin: a person other than the host's owner, or a bot.
const CodeAdminRequired = "admin_required"

// AdminAPI is the built-in plugin behind `dsh plugins …`, `dsh login`,
// `dsh sessions …`, `dsh user rm` and `dsh token revoke`: it lists scopes
// and entries and loads, unloads or reloads entries at runtime, mints
// login links, lists and revokes browser sessions, removes people and
// revokes tokens. Its routes are admitted like any other (a bearer token
// or a browser session), and then serve admins only: the host's owner in
// person or a host token, never another person nor a bot (connect token),
// whatever their rights on boards (see adminOnly). Minting login links
// additionally needs a bearer token (see connection.Service.RequireBearer).
func AdminAPI(entries *Entries, rt *app.Runtime) app.Plugin {
	return app.Plugin{
		Name:   "admin",
		Inject: []app.Dep{app.Need(webserver.ServiceName), app.Need(connection.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			web, err := app.Get[*webserver.Server](ctx, webserver.ServiceName)
			if err != nil {
				return err
			}
			conn, err := app.Get[*connection.Service](ctx, connection.ServiceName)
			if err != nil {
				return err
			}
			a := &admin{entries: entries, rt: rt, web: web, conn: conn, log: ctx.Logger()}
			routes := []webserver.Route{
				{Method: http.MethodGet, Path: AdminPrefix + "/plugins", Handler: a.listEntries},
				{Method: http.MethodGet, Path: AdminPrefix + "/scopes", Handler: a.listScopes},
				{Method: http.MethodGet, Path: AdminPrefix + "/services", Handler: a.listServices},
				{Method: http.MethodPost, Path: AdminPrefix + "/plugins/:id/:action", Handler: a.act},
				{Method: http.MethodPost, Path: AdminPrefix + "/login-links", Handler: a.mintLoginLink},
				{Method: http.MethodGet, Path: AdminPrefix + "/sessions", Handler: a.listSessions},
				{Method: http.MethodDelete, Path: AdminPrefix + "/sessions", Handler: a.revokeAllSessions},
				{Method: http.MethodDelete, Path: AdminPrefix + "/sessions/:id", Handler: a.revokeSession},
				{Method: http.MethodDelete, Path: AdminPrefix + "/people/:name", Handler: a.removePerson},
				{Method: http.MethodDelete, Path: AdminPrefix + "/tokens/:id", Handler: a.revokeToken},
			}
			for i := range routes {
				routes[i].Handler = adminOnly(routes[i].Handler)
			}
			return webserver.Use(ctx, routes...)
		},
	}
}

// adminOnly lets through only an admin that is not a bot: the host's
// owner (their session), a host token, the process itself. Anyone else
// admission let in — a member's session, any connect token, the owner's
// own bots included — gets 403 admin_required. A request no admission
// marked with its principal is refused too: the admin API fails closed.
func adminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, ok := identity.From(c.Request().Context())
		if !ok || !p.Admin || p.Grant != nil {
			return webserver.NewError(http.StatusForbidden, CodeAdminRequired, "this needs the host's owner or a host token")
		}
		return next(c)
	}
}

type admin struct {
	entries *Entries
	rt      *app.Runtime
	web     *webserver.Server
	conn    *connection.Service
	log     *zap.Logger
}

func (a *admin) listEntries(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"plugins": a.entries.List()})
}

func (a *admin) listScopes(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"scopes": a.rt.Scopes()})
}

func (a *admin) listServices(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"services": a.rt.Services()})
}

// adminActionTimeout bounds one load/unload/reload; teardown itself keeps
// going past it (it is never cut short), the response just stops waiting.
const adminActionTimeout = 60 * time.Second

func (a *admin) act(c echo.Context) error {
	id, action := c.Param("id"), c.Param("action")
	var op func(context.Context, string) error
	switch action {
	case "load":
		op = a.entries.Load
	case "unload":
		op = a.entries.Unload
	case "reload":
		op = a.entries.Reload
	default:
		return webserver.NewError(http.StatusBadRequest, "invalid_action", "action must be load, unload or reload")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), adminActionTimeout)
	defer cancel()
	err := op(ctx, id)
	switch {
	case errors.Is(err, ErrUnknownEntry):
		return webserver.NewError(http.StatusNotFound, "unknown_entry", err.Error())
	case err != nil:
		return webserver.NewError(http.StatusConflict, "plugin_failed", err.Error())
	}
	for _, row := range a.entries.List() {
		if row.ID == id {
			return c.JSON(http.StatusOK, map[string]any{"plugin": row})
		}
	}
	return c.JSON(http.StatusOK, map[string]any{})
}

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
// host, on the URL it listens at (the one `dsh serve` prints). Only a
// bearer token may ask; a browser session may not mint sessions for others.
func (a *admin) mintLoginLink(c echo.Context) error {
	if rej := a.conn.RequireBearer(c.Request()); rej != nil {
		return rej
	}
	var in LoginLinkRequest
	if err := decodeOptionalJSON(c.Request().Body, &in); err != nil {
		return webserver.NewError(http.StatusBadRequest, "invalid_body", "the body must be empty or a JSON object like {\"next\": \"/dsh-excalidraw/\"}: "+err.Error())
	}
	link, expires, err := a.conn.LoginLink(a.web.URL(), in.Next)
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

// SessionsResponse is what GET /api/admin/sessions returns: the live
// browser sessions, without their hashes.
type SessionsResponse struct {
	Sessions []connection.SessionInfo `json:"sessions"`
}

// RevokedResponse is what the DELETE /api/admin/sessions routes return.
type RevokedResponse struct {
	Revoked int `json:"revoked"`
}

func (a *admin) listSessions(c echo.Context) error {
	list, err := a.conn.ListSessions()
	if err != nil {
		return sessionsUnavailable(err)
	}
	return c.JSON(http.StatusOK, SessionsResponse{Sessions: list})
}

func (a *admin) revokeSession(c echo.Context) error {
	err := a.conn.RevokeSession(c.Param("id"))
	switch {
	case errors.Is(err, connection.ErrSessionNotFound):
		return webserver.NewError(http.StatusNotFound, "unknown_session", "no live session has id "+strconv.Quote(c.Param("id")))
	case err != nil:
		return sessionsUnavailable(err)
	}
	return c.JSON(http.StatusOK, RevokedResponse{Revoked: 1})
}

func (a *admin) revokeAllSessions(c echo.Context) error {
	n, err := a.conn.RevokeAllSessions()
	if err != nil {
		return sessionsUnavailable(err)
	}
	return c.JSON(http.StatusOK, RevokedResponse{Revoked: n})
}

// sessionsUnavailable reports a sessions file that cannot be read or
// written. The cause (paths) stays on the error: the web server logs a
// coded 500 with it and shows the client only the message.
func sessionsUnavailable(err error) error {
	return webserver.NewError(http.StatusInternalServerError, "sessions_unavailable",
		"the sessions file could not be read or written; see the host's log").Wrap(err)
}

// PersonInfo is what the admin API tells about a person: never their
// password's hash nor their invite's.
type PersonInfo struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	Owner bool   `json:"owner,omitempty"`
}

// RemovedPersonResponse is what DELETE /api/admin/people/:name returns.
type RemovedPersonResponse struct {
	Removed PersonInfo `json:"removed"`
}

// removePerson is `dsh user rm`: the account goes, and at once every
// request and MCP session of the person's and of their bots ends. An
// unknown name is 404 not_found, the owner 400 invalid_operation (the
// accounts' own codes).
func (a *admin) removePerson(c echo.Context) error {
	p, err := a.conn.RemovePerson(c.Param("name"))
	if err != nil {
		return err
	}
	a.log.Info("person removed through the admin API", zap.String("name", p.Name), zap.String("id", p.ID))
	return c.JSON(http.StatusOK, RemovedPersonResponse{Removed: PersonInfo{ID: p.ID, Name: p.Name, Email: p.Email, Owner: p.Owner}})
}

// TokenInfo is what the admin API tells about a token: never its hash.
type TokenInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Person string `json:"person,omitempty"`
	Bot    bool   `json:"bot,omitempty"`
}

// RevokedTokenResponse is what DELETE /api/admin/tokens/:id returns.
type RevokedTokenResponse struct {
	Revoked TokenInfo `json:"revoked"`
}

// revokeToken is `dsh token revoke` with a host running: the token (by id
// or name) is deleted and its open requests and MCP sessions end at once.
func (a *admin) revokeToken(c echo.Context) error {
	rec, err := a.conn.RevokeToken(c.Param("id"))
	switch {
	case errors.Is(err, connection.ErrTokenNotFound):
		return webserver.NewError(http.StatusNotFound, "unknown_token", "no token has the id or name "+strconv.Quote(c.Param("id")))
	case err != nil:
		return webserver.NewError(http.StatusInternalServerError, "tokens_unavailable",
			"the token file could not be read or written; see the host's log").Wrap(err)
	}
	return c.JSON(http.StatusOK, RevokedTokenResponse{Revoked: TokenInfo{ID: rec.ID, Name: rec.Name, Person: rec.Person, Bot: rec.Bot()}})
}
