package connection

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/webserver/page"
	"go.uber.org/zap"
)

// ErrInvalidNext is returned by LoginLink for a landing page that is not a
// same-origin path, which a login link would refuse to redirect to.
var ErrInvalidNext = errors.New("connection: next must be a path on this server, like /dsh-excalidraw/")

// NewLoginLink mints a one-time login URL (baseURL + LoginPath +
// "?token=..."), in the spirit of Jupyter's token link: printed to the
// terminal of the user who started dsh, it proves they own the process. The
// token works once and only for LoginLinkTTL, so a link left in terminal
// scrollback or shell history is soon worthless.
func (s *Service) NewLoginLink(baseURL string) string {
	link, _, _ := s.LoginLink(baseURL, "")
	return link
}

// LoginLink is NewLoginLink with a landing page: the browser is sent to
// next after logging in ("" or "/" is the home page). It also returns when
// the link stops working. A next that is not a same-origin path is
// ErrInvalidNext and mints nothing.
func (s *Service) LoginLink(baseURL, next string) (string, time.Time, error) {
	if next != "" && safeNext(next) != next {
		return "", time.Time{}, fmt.Errorf("%w (got %q)", ErrInvalidNext, next)
	}
	token, expires := s.logins.add()
	link := strings.TrimRight(baseURL, "/") + s.cfg.LoginPath + "?token=" + url.QueryEscape(token)
	if next != "" && next != "/" {
		link += "&next=" + url.QueryEscape(next)
	}
	return link, expires, nil
}

// LoginPath is where LoginHandler expects to be mounted.
func (s *Service) LoginPath() string { return s.cfg.LoginPath }

// LoginHandler exchanges a login-link token for a session cookie. It must be
// mounted without admission — it is how a browser gets admitted — so it
// does its own Host check and consumes the token before anything else.
func (s *Service) LoginHandler() http.Handler {
	return http.HandlerFunc(s.serveLogin)
}

func (s *Service) serveLogin(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// The token is in the URL: keep it out of caches and Referer headers.
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")

	// Only GET: a HEAD (link previews, prefetchers) must not burn the
	// one-time token without delivering the cookie to a browser.
	if r.Method != http.MethodGet {
		h.Set("Allow", "GET")
		s.loginPage(w, http.StatusMethodNotAllowed, "Method not allowed", "Open the login link in your browser.", false)
		return
	}
	if s.closed.Load() {
		s.loginPage(w, http.StatusServiceUnavailable, "Login unavailable", "This dsh server is shutting down.", false)
		return
	}
	if !s.hostAllowed(r.Host) {
		s.loginPage(w, http.StatusForbidden, "Unknown host", "This server does not answer to "+r.Host+". Open the login link exactly as dsh printed it.", false)
		return
	}
	q := r.URL.Query()
	if !s.logins.take(q.Get("token")) {
		s.log.Warn("login link rejected", zap.String("remote", r.RemoteAddr))
		s.loginPage(w, http.StatusForbidden, "Login link invalid",
			"This login link is invalid, has expired, or was already used: each link works once, for a few minutes.", true)
		return
	}

	session, rec, err := s.sessions.create(r.UserAgent(), s.cfg.SessionTTL)
	if err != nil {
		s.log.Error("browser session not started", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusInternalServerError, "Login failed",
			"dsh could not save the new session (see its log); this link has been used up.", true)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     s.cfg.CookieName,
		Value:    session,
		Path:     "/",
		Expires:  rec.ExpiresAt,
		MaxAge:   int(s.cfg.SessionTTL.Seconds()),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   r.TLS != nil,
	})
	s.log.Info("browser session started", zap.String("remote", r.RemoteAddr), zap.String("session", rec.ID))
	http.Redirect(w, r, safeNext(q.Get("next")), http.StatusSeeOther)
}

// safeNext allows only same-origin relative paths as a redirect target, so
// the login link cannot be turned into an open redirect. Browsers treat "\"
// like "/" and strip tabs and newlines, which would turn "/\evil" or
// "/\t/evil" into the protocol-relative "//evil"; such input is refused.
func safeNext(next string) string {
	const home = "/"
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, `\`) {
		return home
	}
	for i := 0; i < len(next); i++ {
		if next[i] < 0x20 || next[i] == 0x7f {
			return home
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return home
	}
	return next
}

// loginPage renders a login outcome as one of the host's pages (package
// page: nothing to fetch, nothing to run, not frameable). newLink adds the
// command that prints a fresh link.
func (s *Service) loginPage(w http.ResponseWriter, status int, title, message string, newLink bool) {
	p := page.Page{Title: title, Body: message}
	if newLink {
		p.Body += " Run this on the machine where dsh runs to print a new link:"
		p.Command = s.cfg.LoginCommand
	}
	_ = page.Write(w, status, p)
}
