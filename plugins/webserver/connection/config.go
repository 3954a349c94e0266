package connection

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// Defaults chosen for a single-user tool on loopback: a working day's
// session, a login link that is useless a few minutes after it was printed.
const (
	DefaultSessionTTL   = 24 * time.Hour
	DefaultCookieName   = "dsh_session"
	DefaultLoginPath    = "/login"
	DefaultLoginLinkTTL = 10 * time.Minute
)

// The documents of a shared backend (Config.State) admission keeps.
const (
	TokensDoc     = "tokens"      // the bearer and connect tokens (the token file's shape)
	SessionsDoc   = "sessions"    // the browser sessions (the sessions file's shape)
	LoginLinksDoc = "login-links" // the unused one-time login links, hashed
)

// Config configures admission. The zero value is the safe default posture
// for a server on 127.0.0.1.
type Config struct {
	// PublicOrigins are the origins the server is reached at, e.g.
	// "http://127.0.0.1:7420", beyond the listen origin(s) the server adds
	// via SetOrigins (for example a reverse proxy's https origin). Their
	// hosts are implicitly allowed Host values.
	PublicOrigins []string
	// AllowedOrigins are origins of other pages that may call the server
	// with a bearer token, e.g. a browser-based MCP client served from
	// another localhost port. Every request that carries an Origin header
	// must carry one of the server's own origins or one of these, or it is
	// refused (403 forbidden_origin) whatever its credential, on every
	// route, public ones (sign-in pages, share links' files) included; on
	// those a write that Sec-Fetch-Site marks cross-site or same-site is
	// refused too (PublicRejection). They never
	// make a session cookie count (a cookie request must come from the
	// server's own origins) and, unlike PublicOrigins, are not Host values
	// the server accepts.
	AllowedOrigins []string
	// AllowedHosts are accepted Host header values (DNS-rebinding
	// protection). An entry without a port allows any port. When empty:
	// localhost, 127.0.0.1 and [::1] with any port.
	AllowedHosts []string
	// SessionTTL is how long a browser session lasts. Default 24h.
	SessionTTL time.Duration
	// SessionFile is where browser sessions are kept (JSON, hashes only),
	// so they survive a restart; "" keeps them in memory, ending with the
	// process. See SessionStore. Unused with State.
	SessionFile string
	// CookieName is the session cookie's name. Default "dsh_session".
	CookieName string
	// TokenFile is the bearer token store (JSON); "" means none. Unused
	// with State.
	TokenFile string
	// State, when set, is a backend shared by several nodes (pgstate's):
	// the tokens, the browser sessions and the unused login links are its
	// documents TokensDoc, SessionsDoc and LoginLinksDoc, so a login on one
	// node is valid on every node, a logout or revocation on any ends it
	// on all (at the next request; Recheck ends open streams at once), and
	// a login link minted on one node works on another, once. nil: the
	// files above, and login links in this process's memory.
	State statefile.Backend
	// Tokens are extra hashed tokens, e.g. from the YAML config.
	Tokens []TokenRecord
	// QueryTokenPaths are paths (the MCP endpoint) where a bearer token
	// may also come as the query parameter `token`.
	QueryTokenPaths []string
	// LoginPath is where LoginHandler is mounted. Default "/login".
	LoginPath string
	// LoginLinkTTL bounds how long an unused login link works. Default 10m.
	LoginLinkTTL time.Duration
	// People resolves the person behind a session or connect token (the
	// host's accounts); nil: every session is the host's owner and connect
	// tokens do not work.
	People People
	// Accounts are the host's people: the password login page and invite
	// links use them, and People defaults to them.
	Accounts *accounts.Store
	// TrustedProxies are the addresses (IPs or CIDR ranges) of a reverse
	// proxy whose identity headers count: a request from one of them
	// carrying ProxyUserHeader (or ProxyEmailHeader) acts for the person
	// of that name (or email), who must have an account. From anywhere
	// else the headers are ignored.
	TrustedProxies []string
	// ProxyUserHeader and ProxyEmailHeader name those headers. Defaults
	// X-Forwarded-User, X-Forwarded-Email.
	ProxyUserHeader, ProxyEmailHeader string
	// LoginCommand is what the login pages tell a person to run for a new
	// link ("dsh login --config /srv/dsh.yaml"). Default "dsh login".
	LoginCommand string
}

// withDefaults fills zero fields and validates the rest, so New fails fast on
// configuration that could only ever produce confusing rejections.
func (c Config) withDefaults() (Config, error) {
	if c.SessionTTL <= 0 {
		c.SessionTTL = DefaultSessionTTL
	}
	if c.CookieName == "" {
		c.CookieName = DefaultCookieName
	}
	if c.LoginPath == "" {
		c.LoginPath = DefaultLoginPath
	}
	if c.People == nil && c.Accounts != nil {
		c.People = PeopleOf(c.Accounts)
	}
	if c.ProxyUserHeader == "" {
		c.ProxyUserHeader = "X-Forwarded-User"
	}
	if c.ProxyEmailHeader == "" {
		c.ProxyEmailHeader = "X-Forwarded-Email"
	}
	if c.LoginCommand == "" {
		c.LoginCommand = "dsh login"
	}
	if c.LoginLinkTTL <= 0 {
		c.LoginLinkTTL = DefaultLoginLinkTTL
	}
	if len(c.AllowedHosts) == 0 {
		c.AllowedHosts = slices.Clone(defaultHosts)
	}
	if !strings.HasPrefix(c.LoginPath, "/") || strings.ContainsAny(c.LoginPath, "?#") {
		return Config{}, fmt.Errorf("connection: login path %q must be an absolute path", c.LoginPath)
	}
	if strings.ContainsAny(c.CookieName, " ;,=\t\r\n") {
		return Config{}, fmt.Errorf("connection: invalid cookie name %q", c.CookieName)
	}
	for _, rec := range c.Tokens {
		if err := validateRecord(rec); err != nil {
			return Config{}, err
		}
	}
	return c, nil
}
