package connection

import (
	"context"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/statefile"
)

// Admitter decides whether a request may reach a plugin route. The web
// server depends on this interface, not on Service, so it can fail closed
// when no admission service is loaded and tests can substitute their own.
type Admitter interface {
	RequestRejection(r *http.Request) *Rejection
}

// Service is the default Admitter: host allow-list, bearer tokens, browser
// provenance checks and cookie sessions. It starts no goroutines: the token
// and sessions documents are checked for changes on demand, expiry is lazy.
// With a shared backend (Config.State) every node's Service sees the same
// tokens, sessions and login links; Recheck is what to call when another
// node changed them, to end at once what they no longer admit.
type Service struct {
	cfg    Config
	log    *zap.Logger
	hosts  hostMatcher
	tokens *tokenWatch // nil when there is no token document (no TokenFile, no State)
	now    func() time.Time

	public   []string                  // PublicOrigins, kept for SetOrigins
	origins  atomic.Pointer[originSet] // PublicOrigins ∪ SetOrigins
	allowed  *originSet                // AllowedOrigins: other pages bearer requests may come from
	sessions *SessionStore             // browser sessions, in SessionFile or State
	logins   loginLinks                // one-time login-link tokens, in memory or State
	closed   atomic.Bool

	tokenStore *TokenStore    // the token document's, for minting and revoking; nil without one
	proxies    []netip.Prefix // TrustedProxies
	holds      holds          // admitted requests by credential, cut on revocation
}

var _ Admitter = (*Service)(nil)

// New validates cfg and builds a Service. A nil log means zap.NewNop().
func New(cfg Config, log *zap.Logger) (*Service, error) {
	if log == nil {
		log = zap.NewNop()
	}
	log = log.Named("connection")
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	hosts, err := newHostMatcher(cfg.AllowedHosts)
	if err != nil {
		return nil, err
	}
	// Configured origins are validated strictly: a typo here is an
	// operator error worth failing startup for.
	set, err := newOriginSet(cfg.PublicOrigins...)
	if err != nil {
		return nil, err
	}
	allowed, err := newOriginSet(cfg.AllowedOrigins...)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, log: log, hosts: hosts, now: time.Now, public: slices.Clone(cfg.PublicOrigins), allowed: allowed}
	s.origins.Store(set)
	if s.proxies, err = proxyRanges(cfg.TrustedProxies); err != nil {
		return nil, err
	}
	now := func() time.Time { return s.now() }
	var tokens, sessions statefile.Doc
	switch {
	case cfg.State != nil:
		tokens, sessions = cfg.State.Doc(TokensDoc), cfg.State.Doc(SessionsDoc)
		s.logins = &sharedLinks{doc: cfg.State.Doc(LoginLinksDoc), ttl: cfg.LoginLinkTTL, now: now}
	default:
		if cfg.TokenFile != "" {
			tokens = statefile.File(cfg.TokenFile, TokensWhat)
		}
		if cfg.SessionFile != "" {
			sessions = statefile.File(cfg.SessionFile, SessionsWhat)
		}
		s.logins = newSecretSet(cfg.LoginLinkTTL, now)
	}
	// New is start-up and has no caller's context: its first loads of the
	// documents are bounded by the backend alone (pgstate's per-query
	// timeout).
	ctx := context.Background()
	if tokens != nil {
		if s.tokens, err = newTokenWatch(ctx, tokens, log); err != nil {
			return nil, err
		}
		s.tokenStore = NewTokenStore(tokens)
		s.tokenStore.now = now
	}
	s.sessions = newSessionStore(sessions, now, log)
	if s.sessions.view != nil {
		// As with tokens: a broken document is reported at startup, not
		// found out from a browser's 401s. It is never overwritten.
		if _, err := s.sessions.view.Load(ctx); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// SetOrigins replaces the listen origins (the server calls it once its
// listener address is known, which with ":0" is only after binding).
// Configured PublicOrigins are always kept. An invalid origin is logged and
// skipped: it could never match a browser's Origin header anyway, and the
// caller (server start-up) has no better recovery than carrying on.
func (s *Service) SetOrigins(origins ...string) {
	all := append([]string(nil), s.public...)
	for _, o := range origins {
		if _, _, err := parseOrigin(o); err != nil {
			s.log.Warn("ignoring invalid origin", zap.String("origin", o), zap.Error(err))
			continue
		}
		all = append(all, o)
	}
	set, err := newOriginSet(all...)
	if err != nil {
		// Unreachable: every entry was validated above or in New.
		s.log.Error("origins not updated", zap.Error(err))
		return
	}
	s.origins.Store(set)
	s.log.Debug("origins set", zap.Strings("origins", all))
}

// Config returns the effective configuration (defaults applied).
func (s *Service) Config() Config { return s.cfg }

// RequestRejection returns nil to admit r, or why it is refused.
func (s *Service) RequestRejection(r *http.Request) *Rejection {
	if s == nil {
		// A typed-nil *Service inside an Admitter must still fail closed.
		return Unavailable()
	}
	_, rej := s.decide(r)
	if rej != nil {
		s.log.Debug("request rejected",
			zap.String("method", r.Method), zap.String("path", r.URL.Path),
			zap.String("host", r.Host), zap.String("code", rej.Code))
	}
	return rej
}

// decide applies the rules in order: Host, then Origin, then the
// credential the request carries.
//
// A request that carries an Origin is from a web page, and only pages of
// the server's own origins (or of AllowedOrigins) may reach it, whatever
// the credential: the MCP transport spec requires servers to refuse an
// invalid Origin with 403, and programs send no Origin at all. A bearer
// token is CSRF-safe (browsers never attach one on their own) and skips
// the remaining browser checks. A session cookie is what a forged
// cross-site request would ride on, so only cookie requests must prove
// their provenance (CSRF), from the server's own origins only. A request
// with no credentials at all has nothing to forge: unless it says it comes
// from another site, it is simply unauthenticated (401, which tells an MCP
// client to send a token).
func (s *Service) decide(r *http.Request) (Principal, *Rejection) {
	if s.closed.Load() {
		return Principal{}, Unavailable()
	}
	if !s.hostAllowed(r.Host) {
		return Principal{}, reject(http.StatusForbidden, CodeForbiddenHost, "requests for host "+quoteHost(r.Host)+" are not served here")
	}
	origins := s.origins.Load()
	fromAllowed, rej := s.checkOrigin(r, origins)
	if rej != nil {
		return Principal{}, rej
	}
	if token, ok := s.bearerToken(r); ok {
		if p, ok := s.tokenPrincipal(r.Context(), token); ok {
			return p, nil
		}
		if s.tokens != nil && s.tokens.down.Load() {
			return Principal{}, StoreUnavailable()
		}
		return Principal{}, reject(http.StatusUnauthorized, CodeInvalidToken, "the bearer token is not valid")
	}
	// A trusted proxy's person: the proxy signed a browser in, so the
	// request must prove its provenance like a cookie's.
	if p, named, rej := s.proxyPrincipal(r); named {
		if rej != nil {
			return Principal{}, rej
		}
		if rej := checkProvenance(r, origins); rej != nil {
			return Principal{}, rej
		}
		return p, nil
	}
	c, err := r.Cookie(s.cfg.CookieName)
	if err != nil {
		if fromAllowed {
			// A page the operator allowed, asking without its token.
			return Principal{}, unauthenticated()
		}
		if _, rej := readProvenance(r, origins); rej != nil {
			return Principal{}, rej
		}
		return Principal{}, unauthenticated()
	}
	if rej := checkProvenance(r, origins); rej != nil {
		return Principal{}, rej
	}
	rec, ok, err := s.sessions.lookup(r.Context(), c.Value)
	if err != nil {
		s.log.Warn("sessions unreadable; refusing all browser sessions", zap.String("where", s.sessions.Path()), zap.Error(err))
		if storeDown(err) {
			return Principal{}, StoreUnavailable() // the session may be fine: keep the cookie, try again
		}
		return Principal{}, unauthenticated()
	}
	if !ok {
		return Principal{}, unauthenticated()
	}
	p, ok := s.sessionPrincipal(r.Context(), rec)
	if !ok {
		return Principal{}, unauthenticated()
	}
	return p, nil
}

// checkOrigin refuses a request whose Origin header (if it has one) is
// not the server's own, and one with several Origin headers. The server's
// own origins are its listen and public origins and the origin the
// request itself is addressed to (scheme and Host, which passed the Host
// check): a page that sends the origin the request goes to is same-origin
// by definition, even when it reached the server through a local proxy
// on another port. AllowedOrigins are let through too; fromAllowed reports
// an Origin that is only there.
func (s *Service) checkOrigin(r *http.Request, origins *originSet) (fromAllowed bool, rej *Rejection) {
	values := r.Header.Values("Origin")
	switch {
	case len(values) == 0:
		return false, nil
	case len(values) > 1:
		return false, reject(http.StatusForbidden, CodeForbiddenOrigin, "a request may carry one Origin header")
	case origins.has(values[0]), addressedTo(r, values[0]):
		return false, nil
	case s.allowed.has(values[0]):
		return true, nil
	}
	return false, reject(http.StatusForbidden, CodeForbiddenOrigin, "requests from origin "+quoteHost(values[0])+" are not allowed here")
}

// addressedTo reports whether origin is the origin r is addressed to.
func addressedTo(r *http.Request, origin string) bool {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	self, _, err := parseOrigin(scheme + "://" + r.Host)
	if err != nil {
		return false
	}
	got, _, err := parseOrigin(origin)
	return err == nil && got == self
}

func unauthenticated() *Rejection {
	return reject(http.StatusUnauthorized, CodeUnauthenticated, "log in with a dsh login link or send a bearer token")
}

// RequireBearer is for actions an admitted browser session must still not
// take: it returns nil only when r carries a valid bearer token, and 403
// bearer_required when r is authenticated by a session cookie alone. Minting
// login links is one: a stolen cookie could otherwise mint fresh sessions
// and outlive its own expiry or revocation.
func (s *Service) RequireBearer(r *http.Request) *Rejection {
	if s == nil || s.closed.Load() {
		return Unavailable()
	}
	token, ok := bearerHeader(r)
	if !ok {
		return reject(http.StatusForbidden, CodeBearerRequired, "this needs a bearer token (the CLI's, or one from `dsh token create`); a browser session may not do it")
	}
	p, ok := s.tokenPrincipal(r.Context(), token)
	if !ok {
		return reject(http.StatusUnauthorized, CodeInvalidToken, "the bearer token is not valid")
	}
	if !p.Admin {
		return reject(http.StatusForbidden, CodeBearerRequired, "this needs a host token (the CLI's, or one from `dsh token create NAME`); a connect token may not do it")
	}
	return nil
}

// HostChecker is admission's Host check on its own: the web server asks
// it for public routes, which need no credential but must still be
// addressed to the host by one of its names (DNS rebinding).
type HostChecker interface {
	HostRejection(r *http.Request) *Rejection
}

var _ HostChecker = (*Service)(nil)

// HostRejection is nil when r's Host is one the server answers to.
func (s *Service) HostRejection(r *http.Request) *Rejection {
	if s == nil || s.hostAllowed(r.Host) {
		return nil
	}
	return reject(http.StatusForbidden, CodeForbiddenHost, "requests for host "+quoteHost(r.Host)+" are not served here")
}

// PublicChecker is admission's rule for public routes, which need no
// credential: the web server asks it instead of HostChecker when the
// admission service has it.
type PublicChecker interface {
	PublicRejection(r *http.Request) *Rejection
}

var _ PublicChecker = (*Service)(nil)

// PublicRejection is nil when r may reach a public route (a sign-in
// page, a share link's file, an export link, OAuth's endpoints). It must
// pass what every route asks that needs no credential to ask:
//
//   - its Host is one the server answers to (HostRejection);
//   - an Origin header, if it has one, is the server's own or one of
//     AllowedOrigins (403 forbidden_origin), as on every other route;
//   - a state-changing request (any method but GET, HEAD and OPTIONS)
//     that a browser marks as coming from another site (Sec-Fetch-Site
//     cross-site or same-site) is refused, 403 forbidden_origin: no other
//     site's page may write through a public route either.
//
// A request with neither header (a program, curl) passes, as does a
// bearer-token program's. One exception, the sign-in forms' (see
// formRejection): "Origin: null" together with "Sec-Fetch-Site:
// same-origin" is a form posted from one of the server's own pages
// served with Referrer-Policy: no-referrer.
func (s *Service) PublicRejection(r *http.Request) *Rejection {
	if s == nil {
		return nil
	}
	if rej := s.HostRejection(r); rej != nil {
		return rej
	}
	site := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site")))
	if o := r.Header.Values("Origin"); len(o) == 1 && o[0] == "null" && site == "same-origin" {
		return nil
	}
	fromAllowed, rej := s.checkOrigin(r, s.origins.Load())
	if rej != nil || fromAllowed || isSafeMethod(r.Method) {
		return rej
	}
	switch site {
	case "", "same-origin", "none":
		return nil
	}
	return reject(http.StatusForbidden, CodeForbiddenOrigin, "requests from another site may not change anything here (Sec-Fetch-Site: "+site+")")
}

func (s *Service) hostAllowed(host string) bool {
	return s.hosts.allows(host) || s.origins.Load().hosts.allows(host)
}

func (s *Service) verifyBearer(ctx context.Context, token string) (TokenRecord, bool) {
	var fromFile []TokenRecord
	if s.tokens != nil {
		fromFile = s.tokens.current(ctx)
	}
	return matchToken(token, s.cfg.Tokens, fromFile)
}

// Sessions is the number of live browser sessions (0 when the sessions
// file cannot be read).
func (s *Service) Sessions(ctx context.Context) int {
	list, err := s.sessions.List(ctx)
	if err != nil {
		return 0
	}
	return len(list)
}

// ListSessions returns the live browser sessions, oldest first, without
// their hashes (for `dsh sessions ls` through the admin API).
func (s *Service) ListSessions(ctx context.Context) ([]SessionInfo, error) {
	return s.sessions.List(ctx)
}

// RevokeSession ends the session with this id; the next request carrying
// its cookie is refused. An unknown id is ErrSessionNotFound.
func (s *Service) RevokeSession(ctx context.Context, id string) error {
	if err := s.sessions.Revoke(ctx, id); err != nil {
		return err
	}
	key := PrincipalSession + ":" + id
	s.cut(func(p Principal) bool { return p.String() == key }, key)
	s.log.Info("browser session revoked", zap.String("id", id))
	return nil
}

// RevokeAllSessions ends every browser session and reports how many were
// live.
func (s *Service) RevokeAllSessions(ctx context.Context) (int, error) {
	n, err := s.sessions.RevokeAll(ctx)
	if err != nil {
		return 0, err
	}
	s.cut(func(p Principal) bool { return p.Kind == PrincipalSession })
	s.log.Info("all browser sessions revoked", zap.Int("sessions", n))
	return n, nil
}

// Close makes the service refuse every request and forgets the unused
// login links it holds in memory (shared ones stay: other nodes serve
// them). Persisted sessions are kept: they are valid again in the next
// process on the same sessions document (a host stop is not a logout).
// There is no goroutine to stop.
func (s *Service) Close() {
	s.closed.Store(true)
	s.logins.forget()
}

// bearerToken extracts "Authorization: Bearer <token>". ok is true whenever
// the Bearer scheme is used, even with an empty token, so that a malformed
// bearer request is rejected as invalid_token instead of silently falling
// through to cookie rules.
//
// On QueryTokenPaths a request without that header may send its token as
// `?token=` instead, for MCP clients that cannot set headers. It is a
// bearer token like the header's (CSRF-safe: a page cannot learn it), and
// no log line carries a query string.
func (s *Service) bearerToken(r *http.Request) (token string, ok bool) {
	if token, ok := bearerHeader(r); ok {
		return token, ok
	}
	if r.Header.Get("Authorization") == "" && slices.Contains(s.cfg.QueryTokenPaths, r.URL.Path) && r.URL.Query().Has("token") {
		return strings.TrimSpace(r.URL.Query().Get("token")), true
	}
	return "", false
}

// bearerHeader is the token of an "Authorization: Bearer" header.
func bearerHeader(r *http.Request) (token string, ok bool) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	scheme, rest, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

func quoteHost(h string) string {
	if len(h) > 100 {
		h = h[:100] + "…"
	}
	return `"` + h + `"`
}
