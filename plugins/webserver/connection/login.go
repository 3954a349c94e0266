package connection

import (
	"html"
	"net/http"
	"net/url"
	"strings"

	"go.uber.org/zap"
)

// NewLoginLink mints a one-time login URL (baseURL + LoginPath +
// "?token=..."), in the spirit of Jupyter's token link: printed to the
// terminal of the user who started dsh, it proves they own the process. The
// token works once and only for LoginLinkTTL, so a link left in terminal
// scrollback or shell history is soon worthless.
func (s *Service) NewLoginLink(baseURL string) string {
	token, _ := s.logins.add()
	return strings.TrimRight(baseURL, "/") + s.cfg.LoginPath + "?token=" + url.QueryEscape(token)
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
		loginPage(w, http.StatusMethodNotAllowed, "Method not allowed", "Open the login link in your browser.")
		return
	}
	if s.closed.Load() {
		loginPage(w, http.StatusServiceUnavailable, "Login unavailable", "The dsh connection service is shutting down.")
		return
	}
	if !s.hostAllowed(r.Host) {
		loginPage(w, http.StatusForbidden, "Unknown host", "This server does not answer to "+r.Host+".")
		return
	}
	q := r.URL.Query()
	if !s.logins.take(q.Get("token")) {
		s.log.Warn("login link rejected", zap.String("remote", r.RemoteAddr))
		loginPage(w, http.StatusForbidden, "Login link invalid",
			"This login link is invalid, has expired, or was already used. Ask dsh for a new login link.")
		return
	}

	session, expires := s.sessions.add()
	http.SetCookie(w, &http.Cookie{
		Name:     s.cfg.CookieName,
		Value:    session,
		Path:     "/",
		Expires:  expires,
		MaxAge:   int(s.cfg.SessionTTL.Seconds()),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   r.TLS != nil,
	})
	s.log.Info("browser session started", zap.String("remote", r.RemoteAddr))
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

func loginPage(w http.ResponseWriter, status int, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte("<!doctype html><meta charset=utf-8><title>dsh – " + html.EscapeString(title) +
		"</title><h1>" + html.EscapeString(title) + "</h1><p>" + html.EscapeString(body) + "</p>\n"))
}
