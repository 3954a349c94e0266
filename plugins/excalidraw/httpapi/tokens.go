package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Bots mints, lists and revokes connect tokens: *connection.Service.
type Bots interface {
	Tokens() *connection.TokenStore
	RevokeToken(ctx context.Context, idOrName string) (connection.TokenRecord, error)
	LastUsed(id string) time.Time
	OwnerID(ctx context.Context) string
}

// tokens holds the /api/mcp/tokens handlers: a person connects an agent
// to boards they reach, as themselves, with at most their own role.
type tokens struct {
	svc  *service.Service
	bots Bots
}

// mintBody is POST /api/mcp/tokens.
type mintBody struct {
	Name             string   `json:"name"`
	Boards           []string `json:"boards"`
	Role             string   `json:"role"`
	CanCreateBoards  bool     `json:"canCreateBoards"`
	CanCreateFolders bool     `json:"canCreateFolders"`
	ExpiresInDays    int      `json:"expiresInDays"`
}

// TokenView is a connect token as listed: never its secret.
type TokenView struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	Role             string   `json:"role"`
	Boards           []string `json:"boards"`
	Created          []string `json:"createdBoards,omitempty"`
	CanCreateBoards  bool     `json:"canCreateBoards"`
	CanCreateFolders bool     `json:"canCreateFolders"`
	Person           string   `json:"person,omitempty"`
	// Client is "oauth:<client id>" for a token a remote client got by
	// signing in with OAuth.
	Client     string     `json:"client,omitempty"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
	ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
}

// Minted is the answer to a mint: the token, shown this once, and how to
// use it.
type Minted struct {
	TokenView
	Token string `json:"token"`
	// MCPURL is the endpoint an agent connects to.
	MCPURL string `json:"mcpUrl"`
	// ConfigSnippet is a client configuration ready to paste (the
	// "mcpServers" form most MCP clients read).
	ConfigSnippet string `json:"configSnippet"`
	// Note says when the role asked for was lowered.
	Note string `json:"note,omitempty"`
}

const maxTokenBoards = 100

func (h tokens) mint(c echo.Context) error {
	ctx := c.Request().Context()
	who := identity.Of(ctx)
	if who.Grant != nil {
		return sceneerr.New(sceneerr.PermissionDenied, "a connect token cannot mint tokens; a person signed in to the editor can")
	}
	var b mintBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	// The name first: a refused name changes nothing and is told as
	// such whatever else is wrong.
	if err := names.Check("token name", b.Name); err != nil {
		return sceneerr.FromCoded(err.(*names.Error)).With("pointer", "/name")
	}
	switch b.Role {
	case "":
		b.Role = identity.RoleEditor
	case identity.RoleEditor, identity.RoleViewer:
	default:
		return badRequest("/role", "role must be %q or %q, not %q", identity.RoleEditor, identity.RoleViewer, b.Role)
	}
	if len(b.Boards) == 0 || len(b.Boards) > maxTokenBoards {
		return badRequest("/boards", "boards must name 1 to %d boards the token reaches", maxTokenBoards)
	}
	if b.ExpiresInDays < 0 || b.ExpiresInDays > 3650 {
		return badRequest("/expiresInDays", "expiresInDays must be 0 (never) to 3650")
	}
	b.Name = strings.TrimSpace(b.Name)
	if b.Name == "" {
		b.Name = "agent for " + b.Boards[0]
	}
	if len(b.Name) > 80 {
		return badRequest("/name", "name must be at most 80 bytes")
	}
	role, note := b.Role, ""
	for i, name := range b.Boards {
		// The board must exist and the caller reach it; both answer as
		// for a board that does not exist.
		if _, err := h.svc.Head(ctx, name); err != nil {
			if se, ok := err.(*sceneerr.Error); ok && se.Code == sceneerr.NotFound {
				return se.With("pointer", fmt.Sprintf("/boards/%d", i))
			}
			return err
		}
		mine, err := h.svc.Role(ctx, name)
		if err != nil {
			return err
		}
		if role == identity.RoleEditor && access.Allowed(who, name, mine, access.Write) != nil {
			role, note = identity.RoleViewer, "you can only view "+name+", so the token is a viewer"
		}
	}
	person := who.Person
	if person == "" {
		person = h.bots.OwnerID(ctx)
	}
	if person == "" {
		return sceneerr.New(sceneerr.PermissionDenied, "connect tokens act for a person, and this host has none yet")
	}
	ts := h.bots.Tokens()
	if ts == nil {
		return sceneerr.New(sceneerr.InvalidOperation, "this host keeps no token file, so it cannot mint connect tokens")
	}
	spec := connection.TokenSpec{Name: b.Name, Person: person, Grant: access.NewGrant(access.Grant{
		Role: role, Boards: slices.Compact(slices.Sorted(slices.Values(b.Boards))), CanCreateBoards: b.CanCreateBoards, CanCreateFolders: b.CanCreateFolders,
	})}
	if b.ExpiresInDays > 0 {
		at := time.Now().UTC().Add(time.Duration(b.ExpiresInDays) * 24 * time.Hour).Truncate(time.Second)
		spec.ExpiresAt = &at
	}
	plain, rec, err := ts.Mint(ctx, spec)
	if err != nil {
		if errors.Is(err, connection.ErrTokenExists) {
			return sceneerr.New(sceneerr.AlreadyExists, "you already have a token named %q; pick another name or revoke it", b.Name).With("pointer", "/name")
		}
		return err
	}
	url := requestOrigin(c.Request()) + "/mcp"
	out := Minted{TokenView: h.view(rec), Token: plain, MCPURL: url, ConfigSnippet: configSnippet(rec.Name, url, plain), Note: note}
	return ok(c, http.StatusCreated, out)
}

// configSnippet is the "mcpServers" entry a client pastes in.
func configSnippet(name, url, token string) string {
	key := "dsh"
	if slug := slugOf(name); slug != "" {
		key = "dsh-" + slug
	}
	cfg := map[string]any{"mcpServers": map[string]any{key: map[string]any{
		"type": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer " + token},
	}}}
	data, _ := json.MarshalIndent(cfg, "", "  ")
	return string(data)
}

func slugOf(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// requestOrigin is the origin the request was addressed to.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (h tokens) view(r connection.TokenRecord) TokenView {
	v := TokenView{ID: r.ID, Name: r.Name, Person: r.Person, Client: r.Client, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt, Boards: []string{}}
	if r.Grant != nil {
		g := access.GrantOf(r.Grant)
		v.Role, v.Boards, v.Created, v.CanCreateBoards, v.CanCreateFolders = g.Role, append(v.Boards, g.Boards...), g.Created, g.CanCreateBoards, g.CanCreateFolders
	}
	if t := h.bots.LastUsed(r.ID); !t.IsZero() {
		v.LastUsedAt = &t
	}
	return v
}

// mine reports whether who may see and revoke the token: its minter, or
// an admin.
func mine(who identity.Principal, r connection.TokenRecord) bool {
	return r.Bot() && (who.Admin && who.Grant == nil || who.Grant == nil && who.Person != "" && who.Person == r.Person)
}

func (h tokens) list(c echo.Context) error {
	ctx := c.Request().Context()
	who := identity.Of(ctx)
	board := c.QueryParam("board")
	if board != "" {
		if err := h.svc.May(ctx, board, access.Read); err != nil {
			return err
		}
	}
	out := []TokenView{}
	if ts := h.bots.Tokens(); ts != nil {
		recs, err := ts.List(ctx)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if !mine(who, r) {
				continue
			}
			if board != "" && !slices.Contains(access.GrantOf(r.Grant).Boards, board) && !slices.Contains(access.GrantOf(r.Grant).Created, board) {
				continue
			}
			out = append(out, h.view(r))
		}
	}
	return ok(c, http.StatusOK, map[string]any{"tokens": out})
}

func (h tokens) revoke(c echo.Context) error {
	ctx := c.Request().Context()
	who := identity.Of(ctx)
	id := c.Param("id")
	ts := h.bots.Tokens()
	if ts == nil {
		return sceneerr.New(sceneerr.NotFound, "no token %s", id)
	}
	rec, found, err := ts.Get(ctx, id)
	if err != nil {
		return err
	}
	if !found || !mine(who, rec) {
		return sceneerr.New(sceneerr.NotFound, "no token %s", id).With("id", id)
	}
	if _, err := h.bots.RevokeToken(ctx, id); err != nil {
		return err
	}
	return ok(c, http.StatusOK, map[string]any{"revoked": id, "name": rec.Name})
}
