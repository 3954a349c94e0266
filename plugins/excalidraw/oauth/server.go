package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-oauth2/oauth2/v4"
	oautherrors "github.com/go-oauth2/oauth2/v4/errors"
	"github.com/go-oauth2/oauth2/v4/generates"
	"github.com/go-oauth2/oauth2/v4/manage"
	"github.com/go-oauth2/oauth2/v4/server"
	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Paths.
const (
	ResourceMetadataPath = "/.well-known/oauth-protected-resource"
	ServerMetadataPath   = "/.well-known/oauth-authorization-server"
	RegisterPath         = "/oauth/register"
	AuthorizePath        = "/oauth/authorize"
	TokenPath            = "/oauth/token"
)

// The documents of a shared backend (Options.State) the server keeps.
const (
	ClientsDoc = "oauth-clients" // the registered clients
	CodesDoc   = "oauth-codes"   // the authorization codes not yet exchanged, hashed
)

// ClientsFile is where a host without a shared database keeps the
// registered clients, relative to its data directory.
const ClientsFile = "oauth-clients.json"

// DefaultAccessTTL is how long an access token works: without refresh
// tokens, a client signs in again after it.
const DefaultAccessTTL = 90 * 24 * time.Hour

// Conn is what the authorization server needs of the host's connection
// service (*connection.Service): the consent page admits its person, and
// access tokens are minted in its token file.
type Conn interface {
	Admit(r *http.Request) (*http.Request, func(), *connection.Rejection)
	Tokens() *connection.TokenStore
	LoginPath() string
}

// Options configures a Server.
type Options struct {
	Service *service.Service
	Conn    Conn
	// ClientsFile keeps registered clients (codes are then in memory).
	// Unused with State.
	ClientsFile string
	// State, when set, keeps the registered clients in its ClientsDoc
	// document and the authorization codes in its CodesDoc: with a
	// backend several nodes share (pgstate's), a client registered on
	// one node is known to all, and a code issued on one is exchanged on
	// any, once.
	State statefile.Backend
	// MCPPath is the protected resource's path ("/mcp").
	MCPPath string
	// AccessTTL bounds access tokens; 0 is DefaultAccessTTL.
	AccessTTL time.Duration
	// Registration bounds dynamic client registration (zero fields: the
	// defaults). Registrations are counted per client address in State's
	// windows (every node's count), or in this process's memory without
	// State.
	Registration Registration
	Logger       *zap.Logger
	// Now is the clock of registrations, their expiry and their rate
	// limit (nil: time.Now).
	Now func() time.Time
}

// Server is the authorization server.
type Server struct {
	o       Options
	log     *zap.Logger
	clients *clients
	windows statefile.Windows // registrations per address
	srv     *server.Server
}

type grantKey struct{}

// New builds the server.
func New(o Options) (*Server, error) {
	if o.Service == nil || o.Conn == nil || o.Conn.Tokens() == nil {
		return nil, fmt.Errorf("oauth: needs the scene service and a connection service with a token file")
	}
	if o.AccessTTL <= 0 {
		o.AccessTTL = DefaultAccessTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MCPPath == "" {
		o.MCPPath = "/mcp"
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	s := &Server{o: o, log: o.Logger.Named("oauth")}
	var codes oauth2.TokenStore
	if o.State != nil {
		s.clients = newClients(o.State.Doc(ClientsDoc), o.Now, o.Registration)
		s.windows = o.State.Windows()
		codes = &sharedCodes{doc: o.State.Doc(CodesDoc), now: time.Now}
	} else {
		s.clients = newClients(statefile.File(o.ClientsFile, clientsWhat), o.Now, o.Registration)
		s.windows = statefile.NewMemoryWindows()
		codes = newCodes()
	}
	s.clients.tokens = oauthClientsWithTokens(o.Conn.Tokens())

	m := manager(s.clients, codes, minter{s}, o.AccessTTL)

	srv := server.NewServer(&server.Config{
		TokenType:                   "Bearer",
		AllowedResponseTypes:        []oauth2.ResponseType{oauth2.Code},
		AllowedGrantTypes:           []oauth2.GrantType{oauth2.AuthorizationCode},
		AllowedCodeChallengeMethods: []oauth2.CodeChallengeMethod{oauth2.CodeChallengeS256},
		ForcePKCE:                   true,
	}, m)
	srv.SetClientInfoHandler(server.ClientFormHandler)
	srv.SetUserAuthorizationHandler(func(w http.ResponseWriter, r *http.Request) (string, error) {
		who, ok := identity.From(r.Context())
		if !ok || who.Person == "" {
			return "", fmt.Errorf("oauth: no person approved this")
		}
		return who.Person, nil
	})
	srv.SetInternalErrorHandler(func(err error) *oautherrors.Response {
		s.log.Warn("authorization server error", zap.Error(err))
		return nil
	})
	s.srv = srv
	return s, nil
}

// manager is the library's manager over the server's stores: a code
// lasts a minute and is exchanged for one access token of accessTTL (no
// refresh token) made by access; redirect URIs match exactly; the grant
// the person chose on the consent page (the request's grantKey) rides
// along with the code as its extension.
func manager(cl *clients, codes oauth2.TokenStore, access oauth2.AccessGenerate, accessTTL time.Duration) *manage.Manager {
	m := manage.NewDefaultManager()
	m.SetAuthorizeCodeExp(time.Minute)
	m.SetAuthorizeCodeTokenCfg(&manage.Config{AccessTokenExp: accessTTL, IsGenerateRefresh: false})
	m.MapClientStorage(cl)
	m.MapTokenStorage(codes)
	m.MapAuthorizeGenerate(generates.NewAuthorizeGenerate())
	m.MapAccessGenerate(access)
	m.SetValidateURIHandler(validateURI)
	m.SetExtractExtensionHandler(func(tgr *oauth2.TokenGenerateRequest, ti oauth2.ExtendableTokenInfo) {
		if tgr.Request == nil {
			return
		}
		if g, ok := tgr.Request.Context().Value(grantKey{}).(url.Values); ok {
			ti.SetExtension(g)
		}
	})
	return m
}

// minter is the library's AccessGenerate: it mints a connect token for
// the person who approved, with the boards and role they chose.
type minter struct{ s *Server }

func (m minter) Token(ctx context.Context, data *oauth2.GenerateBasic, _ bool) (string, string, error) {
	eti, ok := data.TokenInfo.(oauth2.ExtendableTokenInfo)
	if !ok {
		return "", "", fmt.Errorf("oauth: the code carries no grant")
	}
	ext := eti.GetExtension()
	g := access.Grant{Role: ext.Get("role"), Boards: ext["board"]}
	grant := access.NewGrant(g)
	if g.Role == "" || len(g.Boards) == 0 {
		return "", "", fmt.Errorf("oauth: the code carries no grant")
	}
	name := "OAuth client"
	if cl, ok := m.s.clients.get(ctx, data.Client.GetID()); ok && cl.Name != "" {
		name = cl.Name
	}
	// Recorded first, so a client whose token is minted is always kept
	// (it no longer expires, and no registration evicts it).
	if err := m.s.clients.mark(ctx, data.Client.GetID(), true); err != nil {
		return "", "", err
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	exp := m.s.o.Now().UTC().Add(m.s.o.AccessTTL).Truncate(time.Second)
	plain, rec, err := m.s.o.Conn.Tokens().Mint(ctx, connection.TokenSpec{
		Name: name + " " + hex.EncodeToString(b[:]), Person: data.UserID, Grant: grant, ExpiresAt: &exp,
		Client: "oauth:" + data.Client.GetID(),
	})
	if err != nil {
		return "", "", err
	}
	m.s.log.Info("connect token issued over OAuth", zap.String("token", rec.ID), zap.String("client", data.Client.GetID()),
		zap.Strings("boards", g.Boards), zap.String("role", g.Role))
	return plain, "", nil
}

// origin is the origin the request was addressed to (its Host passed the
// host allow-list before any route saw it... for public routes too).
func origin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *Server) resource(r *http.Request) string { return origin(r) + s.o.MCPPath }

// Challenge is what a 401 adds to WWW-Authenticate: where the protected
// resource's metadata is (RFC 9728 section 5.1).
func (s *Server) Challenge(r *http.Request) string {
	return fmt.Sprintf(`resource_metadata="%s%s%s"`, origin(r), ResourceMetadataPath, s.o.MCPPath)
}

// Routes are the server's routes: all public (the consent page admits
// its person itself, to send a stranger to the login page instead of an
// error), except the consent form's POST.
func (s *Server) Routes() []webserver.Route {
	pub := func(method, path string, h echo.HandlerFunc) webserver.Route {
		return webserver.Route{Method: method, Path: path, Handler: h, Public: true}
	}
	return []webserver.Route{
		pub(http.MethodGet, ResourceMetadataPath, s.resourceMetadata),
		pub(http.MethodGet, ResourceMetadataPath+s.o.MCPPath, s.resourceMetadata),
		pub(http.MethodGet, ServerMetadataPath, s.serverMetadata),
		pub(http.MethodOptions, ServerMetadataPath, preflight),
		pub(http.MethodPost, RegisterPath, s.register),
		pub(http.MethodOptions, RegisterPath, preflight),
		pub(http.MethodPost, TokenPath, s.token),
		pub(http.MethodOptions, TokenPath, preflight),
		pub(http.MethodGet, AuthorizePath, s.authorizePage),
		{Method: http.MethodPost, Path: AuthorizePath, Handler: s.approve},
	}
}

// cors lets browser-based clients read the answers (no cookies are used
// on these routes, so any origin may).
func cors(c echo.Context) {
	h := c.Response().Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, MCP-Protocol-Version")
}

func preflight(c echo.Context) error {
	cors(c)
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) resourceMetadata(c echo.Context) error {
	r := c.Request()
	meta := &oauthex.ProtectedResourceMetadata{
		Resource:               s.resource(r),
		AuthorizationServers:   []string{origin(r)},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "dsh",
	}
	auth.ProtectedResourceMetadataHandler(meta).ServeHTTP(c.Response(), r)
	return nil
}

func (s *Server) serverMetadata(c echo.Context) error {
	cors(c)
	o := origin(c.Request())
	return c.JSON(http.StatusOK, &oauthex.AuthServerMeta{
		Issuer:                            o,
		AuthorizationEndpoint:             o + AuthorizePath,
		TokenEndpoint:                     o + TokenPath,
		RegistrationEndpoint:              o + RegisterPath,
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{"authorization_code"},
		TokenEndpointAuthMethodsSupported: []string{"none"},
		CodeChallengeMethodsSupported:     []string{"S256"},
	})
}

// register is dynamic client registration (RFC 7591) for public clients.
//
// Its errors are OAuth's ({"error": "<code>", "error_description": "…"},
// as clients parse them), with the host's details beside them when there
// are any. In order: metadata that is not acceptable is 400 (nothing
// counted); one address past its registrations an hour is 429
// rate_limited with details {limit, max, windowSec, retryable,
// retryAfterSec} and a Retry-After header; then the client is stored, at
// the cap on ungranted clients by evicting one, never by refusing.
func (s *Server) register(c echo.Context) error {
	cors(c)
	fail := func(code, msg string) error {
		return c.JSON(http.StatusBadRequest, map[string]string{"error": code, "error_description": msg})
	}
	r := c.Request()
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil {
		return fail("invalid_client_metadata", "the body could not be read")
	}
	var meta oauthex.ClientRegistrationMetadata
	if err := json.Unmarshal(body, &meta); err != nil {
		return fail("invalid_client_metadata", "the body is not client metadata JSON: "+err.Error())
	}
	if m := meta.TokenEndpointAuthMethod; m != "" && m != "none" {
		return fail("invalid_client_metadata", "only public clients register here: token_endpoint_auth_method must be none")
	}
	for _, gt := range meta.GrantTypes {
		if gt != "authorization_code" && gt != "refresh_token" {
			return fail("invalid_client_metadata", "grant_types may be authorization_code only")
		}
	}
	// The client's name names the connect tokens it is issued, so it obeys
	// the host's rule for names (told in OAuth's words), before it counts.
	if err := names.Check("client_name", meta.ClientName); err != nil {
		return fail("invalid_client_metadata", err.(*names.Error).ErrorMessage())
	}
	if err := checkRegistration(meta.RedirectURIs); err != nil {
		return fail("invalid_redirect_uri", strings.TrimPrefix(err.Error(), errRedirect.Error()+": "))
	}
	from := connection.AddressKey(connection.ClientAddress(r))
	key := "oauth:register:" + from
	now := s.o.Now()
	limit := s.clients.limits.PerHourPerAddress
	ok, retry, err := s.windows.Take(r.Context(), key, now, limit, RegistrationWindow)
	if err != nil {
		return s.unavailable(c, "count the registration", err)
	}
	if !ok {
		after := max(1, int(math.Ceil(retry.Sub(now).Seconds())))
		c.Response().Header().Set("Retry-After", strconv.Itoa(after))
		s.log.Info("OAuth registration rate-limited", zap.String("from", from), zap.Int("retryAfterSec", after))
		return c.JSON(http.StatusTooManyRequests, map[string]any{
			"error": "rate_limited",
			"error_description": fmt.Sprintf("one address may register %d clients an hour (%s); try again in %d s",
				limit, SettingRegistrationsPerHour, after),
			"details": map[string]any{"limit": SettingRegistrationsPerHour, "max": limit, "windowSec": int(RegistrationWindow.Seconds()),
				"retryable": true, "retryAfterSec": after},
		})
	}
	cl, err := s.clients.register(r.Context(), meta.ClientName, meta.RedirectURIs, from)
	if err != nil {
		// Nothing was registered: the registration does not count.
		if uerr := s.windows.Undo(context.WithoutCancel(r.Context()), key); uerr != nil {
			s.log.Warn("a registration that failed stays counted", zap.String("from", from), zap.Error(uerr))
		}
		return s.unavailable(c, "store the client", err)
	}
	s.log.Info("OAuth client registered", zap.String("client", cl.ID), zap.String("name", cl.Name), zap.String("from", from))
	return c.JSON(http.StatusCreated, map[string]any{
		"client_id": cl.ID, "client_id_issued_at": cl.CreatedAt.Unix(), "client_name": cl.Name,
		"redirect_uris": cl.RedirectURIs, "grant_types": []string{"authorization_code"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": "none",
	})
}

// unavailable answers a registration that could not be counted or
// stored: the shared database does not answer (503 store_unavailable,
// retryable), or another failure (500).
func (s *Server) unavailable(c echo.Context, what string, err error) error {
	if !errors.Is(err, pgdb.ErrUnreachable) && !pgdb.Unreachable(err) {
		return fmt.Errorf("oauth: %s: %w", what, err)
	}
	s.log.Warn("OAuth registration refused: the database cannot be reached", zap.String("step", what), zap.Error(err))
	c.Response().Header().Set("Retry-After", strconv.Itoa(apierr.StoreUnavailableRetrySec))
	return c.JSON(http.StatusServiceUnavailable, map[string]any{
		"error":             apierr.CodeStoreUnavailable,
		"error_description": "dsh's database cannot be reached; nothing was registered, try again shortly",
		"details":           map[string]any{"retryable": true, "retryAfterSec": apierr.StoreUnavailableRetrySec},
	})
}

// oauthClientsWithTokens lists the OAuth clients that hold a connect
// token in tokens ("oauth:<client id>" records).
func oauthClientsWithTokens(tokens *connection.TokenStore) func(context.Context) (map[string]bool, error) {
	return func(ctx context.Context) (map[string]bool, error) {
		list, err := tokens.List(ctx)
		if err != nil {
			return nil, err
		}
		ids := map[string]bool{}
		for _, rec := range list {
			if id, ok := strings.CutPrefix(rec.Client, "oauth:"); ok {
				ids[id] = true
			}
		}
		return ids, nil
	}
}

func (s *Server) token(c echo.Context) error {
	cors(c)
	return s.srv.HandleTokenRequest(c.Response(), c.Request())
}

// checked is an authorization request checked before anything is shown
// or redirected: its client, redirect URI (exactly as registered), PKCE
// (S256) and resource.
type checked struct {
	client Client
	params url.Values
}

func (s *Server) check(r *http.Request) (checked, string) {
	if err := r.ParseForm(); err != nil {
		return checked{}, "the request could not be read"
	}
	q := r.Form
	cl, ok := s.clients.get(r.Context(), q.Get("client_id"))
	if !ok {
		return checked{}, "no client is registered with this client_id"
	}
	if !slices.Contains(cl.RedirectURIs, q.Get("redirect_uri")) {
		return checked{}, "the redirect_uri is not one the client registered"
	}
	if q.Get("response_type") != "code" {
		return checked{}, "response_type must be code"
	}
	if q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		return checked{}, "PKCE is required: code_challenge with code_challenge_method S256"
	}
	if res := q.Get("resource"); res != "" && strings.TrimRight(res, "/") != s.resource(r) {
		return checked{}, "the resource is not this server's MCP endpoint (" + s.resource(r) + ")"
	}
	keep := url.Values{}
	for _, k := range []string{"client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "state", "resource", "scope"} {
		if v := q.Get(k); v != "" {
			keep.Set(k, v)
		}
	}
	return checked{client: cl, params: keep}, ""
}

// authorizePage shows the consent page to a signed-in person, and sends
// anyone else to the login page, back here after.
func (s *Server) authorizePage(c echo.Context) error {
	r := c.Request()
	req, bad := s.check(r)
	if bad != "" {
		return s.page(c, http.StatusBadRequest, consent{Error: bad})
	}
	admitted, done, rej := s.o.Conn.Admit(r)
	who := identity.Principal{}
	if rej == nil {
		defer done()
		who = identity.Of(admitted.Context())
	}
	if rej != nil || who.Person == "" || who.Grant != nil {
		next := AuthorizePath + "?" + req.params.Encode()
		if rej == nil {
			return s.page(c, http.StatusForbidden, consent{Error: "only a person signed in to dsh can connect an agent; sign in as one"})
		}
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			// A cross-site navigation carries no SameSite=Strict cookie:
			// one click here makes it a same-site one that does.
			return s.page(c, http.StatusOK, consent{Continue: next})
		}
		return c.Redirect(http.StatusSeeOther, s.o.Conn.LoginPath()+"?next="+url.QueryEscape(next))
	}
	if req.client.SeenAt == nil {
		// A person is looking at it: no flood of registrations evicts it
		// while they decide (see evict).
		if err := s.clients.mark(r.Context(), req.client.ID, false); err != nil {
			s.log.Warn("OAuth client not marked as seen", zap.String("client", req.client.ID), zap.Error(err))
		}
	}
	list, err := s.o.Service.ListBoards(admitted.Context(), false)
	if err != nil {
		return err
	}
	v := consent{Client: req.client.Name, ClientID: req.client.ID, Redirect: redirectHost(req.params.Get("redirect_uri")),
		Person: who.PersonName, Params: req.params, Boards: list}
	if v.Client == "" {
		v.Client = "An MCP client"
	}
	return s.page(c, http.StatusOK, v)
}

// approve is the consent form: deny, or approve boards with a role.
func (s *Server) approve(c echo.Context) error {
	r := c.Request()
	req, bad := s.check(r)
	if bad != "" {
		return s.page(c, http.StatusBadRequest, consent{Error: bad})
	}
	ctx := r.Context()
	who := identity.Of(ctx)
	if who.Person == "" || who.Grant != nil {
		return s.page(c, http.StatusForbidden, consent{Error: "only a person signed in to dsh can connect an agent"})
	}
	redirect, _ := url.Parse(req.params.Get("redirect_uri"))
	back := func(v url.Values) error {
		if st := req.params.Get("state"); st != "" {
			v.Set("state", st)
		}
		q := redirect.Query()
		for k, vs := range v {
			q[k] = vs
		}
		redirect.RawQuery = q.Encode()
		return c.Redirect(http.StatusFound, redirect.String())
	}
	if r.PostForm.Get("action") != "approve" {
		return back(url.Values{"error": {"access_denied"}, "error_description": {"the person declined"}})
	}
	role := r.PostForm.Get("role")
	if role != identity.RoleViewer {
		role = identity.RoleEditor
	}
	chosen := r.PostForm["board"]
	if len(chosen) == 0 {
		return s.page(c, http.StatusBadRequest, consent{Error: "choose at least one board for the agent"})
	}
	for _, name := range chosen {
		mine, err := s.o.Service.Role(ctx, name)
		if err != nil || mine == "" {
			return s.page(c, http.StatusBadRequest, consent{Error: "you do not reach a board named " + name})
		}
		if role == identity.RoleEditor && access.Allowed(who, name, mine, access.Write) != nil {
			role = identity.RoleViewer // never more than the person may do
		}
	}
	grant := url.Values{"role": {role}, "board": chosen}
	r = r.WithContext(context.WithValue(ctx, grantKey{}, grant))
	return s.srv.HandleAuthorizeRequest(c.Response(), r)
}

func redirectHost(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	return u.Host
}

// consent is what the consent page shows.
type consent struct {
	Error    string
	Continue string
	Client   string
	ClientID string
	Redirect string
	Person   string
	Params   url.Values
	Boards   []service.BoardInfo
}

var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dsh · Connect an agent</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:#1f2937;background:#f9fafb;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:36rem;margin:2rem;padding:2rem 2.25rem;background:#fff;border:1px solid #e5e7eb;border-radius:12px;box-shadow:0 4px 18px rgba(0,0,0,.06)}
h1{font-size:1.35rem;margin:0 0 .75rem} p{margin:.5rem 0} fieldset{border:1px solid #e5e7eb;border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
label{display:block;margin:.3rem 0} .muted{color:#6b7280;font-size:14px} .row{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;padding:.5rem 1rem;border-radius:8px;border:1px solid #d1d5db;background:#fff;cursor:pointer}
button.primary{background:#4f46e5;border-color:#4f46e5;color:#fff} a{color:#4f46e5}
</style></head><body><main>
{{if .Error}}<h1>Cannot connect this agent</h1><p>{{.Error}}</p>
{{else if .Continue}}<h1>Connect an agent</h1><p>An MCP client wants to connect to your drawings.</p><p><a href="{{.Continue}}">Continue to dsh</a></p>
{{else}}<h1>Connect {{.Client}}</h1>
<p><strong>{{.Client}}</strong> wants to draw for you, <strong>{{.Person}}</strong>. It will come back to <strong>{{.Redirect}}</strong>.</p>
<form method="post" action="">
{{range $k, $vs := .Params}}{{range $vs}}<input type="hidden" name="{{$k}}" value="{{.}}">{{end}}{{end}}
<fieldset><legend>Boards it may reach</legend>
{{range .Boards}}<label><input type="checkbox" name="board" value="{{.Name}}"> {{.Title}} <span class="muted">({{.Role}})</span></label>{{else}}<p class="muted">You have no boards yet.</p>{{end}}
</fieldset>
<fieldset><legend>What it may do</legend>
<label><input type="radio" name="role" value="editor" checked> Edit (never more than you may)</label>
<label><input type="radio" name="role" value="viewer"> Only view</label>
</fieldset>
<p class="muted">It gets a connect token you can see and revoke in the editor's “Connect an agent” dialog.</p>
<div class="row"><button class="primary" type="submit" name="action" value="approve">Allow</button><button type="submit" name="action" value="deny">Deny</button></div>
</form>{{end}}
</main></body></html>
`))

func (s *Server) page(c echo.Context, status int, v consent) error {
	h := c.Response().Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// form-action must allow the client's redirect too: browsers apply
	// it to the redirect that answers the form.
	formAction := "'self'"
	if u, err := url.Parse(v.Params.Get("redirect_uri")); err == nil && u.Host != "" {
		formAction += " " + u.Scheme + "://" + u.Host
	}
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action "+formAction)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// Not no-referrer: with it, browsers send the form's POST with
	// "Origin: null", which admission refuses (it cannot tell it from a
	// forgery). same-origin keeps the URL from leaving the host.
	h.Set("Referrer-Policy", "same-origin")
	c.Response().WriteHeader(status)
	return consentPage.Execute(c.Response(), v)
}
