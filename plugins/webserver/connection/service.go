package connection

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Admitter decides whether a request may reach a plugin route. The web
// server depends on this interface, not on Service, so it can fail closed
// when no admission service is loaded and tests can substitute their own.
type Admitter interface {
	RequestRejection(r *http.Request) *Rejection
}

// Service is the default Admitter: host allow-list, bearer tokens, browser
// provenance checks and cookie sessions. It starts no goroutines.
type Service struct {
	cfg    Config
	log    *zap.Logger
	hosts  hostMatcher
	tokens *tokenWatch // nil when no TokenFile is configured
	now    func() time.Time

	public   []string                  // PublicOrigins, kept for SetOrigins
	origins  atomic.Pointer[originSet] // PublicOrigins ∪ SetOrigins
	sessions *secretSet
	logins   *secretSet
	closed   atomic.Bool
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
	s := &Service{cfg: cfg, log: log, hosts: hosts, now: time.Now, public: slices.Clone(cfg.PublicOrigins)}
	s.origins.Store(set)
	if cfg.TokenFile != "" {
		if s.tokens, err = newTokenWatch(cfg.TokenFile, log); err != nil {
			return nil, err
		}
	}
	s.sessions = newSecretSet(cfg.SessionTTL, func() time.Time { return s.now() })
	s.logins = newSecretSet(cfg.LoginLinkTTL, func() time.Time { return s.now() })
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
	rej := s.decide(r)
	if rej != nil {
		s.log.Debug("request rejected",
			zap.String("method", r.Method), zap.String("path", r.URL.Path),
			zap.String("host", r.Host), zap.String("code", rej.Code))
	}
	return rej
}

func (s *Service) decide(r *http.Request) *Rejection {
	if s.closed.Load() {
		return Unavailable()
	}
	if !s.hostAllowed(r.Host) {
		return reject(http.StatusForbidden, CodeForbiddenHost, "requests for host "+quoteHost(r.Host)+" are not served here")
	}
	if token, ok := bearerToken(r); ok {
		if _, ok := s.verifyBearer(token); ok {
			return nil
		}
		return reject(http.StatusUnauthorized, CodeInvalidToken, "the bearer token is not valid")
	}
	if rej := checkProvenance(r, s.origins.Load()); rej != nil {
		return rej
	}
	c, err := r.Cookie(s.cfg.CookieName)
	if err != nil || !s.sessions.valid(c.Value) {
		return reject(http.StatusUnauthorized, CodeUnauthenticated, "log in with a dsh login link or send a bearer token")
	}
	return nil
}

func (s *Service) hostAllowed(host string) bool {
	return s.hosts.allows(host) || s.origins.Load().hosts.allows(host)
}

func (s *Service) verifyBearer(token string) (TokenRecord, bool) {
	var fromFile []TokenRecord
	if s.tokens != nil {
		fromFile = s.tokens.current()
	}
	return matchToken(token, s.cfg.Tokens, fromFile)
}

// Sessions is the number of live browser sessions.
func (s *Service) Sessions() int { return s.sessions.len() }

// Close ends all sessions and makes the service refuse everything. There is
// no goroutine to stop: expiry is lazy.
func (s *Service) Close() {
	s.closed.Store(true)
	s.sessions.clear()
	s.logins.clear()
}

// bearerToken extracts "Authorization: Bearer <token>". ok is true whenever
// the Bearer scheme is used, even with an empty token, so that a malformed
// bearer request is rejected as invalid_token instead of silently falling
// through to cookie rules.
func bearerToken(r *http.Request) (token string, ok bool) {
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
