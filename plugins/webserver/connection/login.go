package connection

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/webserver/page"
	"go.uber.org/zap"
)

// DefaultLogoutPath is where LogoutHandler expects to be mounted.
const DefaultLogoutPath = "/logout"

// maxFormBytes bounds the body of the host's own forms (a name, a
// password or two, a landing page): anything bigger is not one of them.
const maxFormBytes = 8 << 10

// ErrInvalidNext is returned by LoginLink for a landing page that is not a
// same-origin path, which a login link would refuse to redirect to.
var ErrInvalidNext = errors.New("connection: next must be a path on this server, like /notes/")

// NewLoginLink mints a one-time login URL (baseURL + LoginPath +
// "?token=..."), in the spirit of Jupyter's token link: printed to the
// terminal of the user who started dsh, it proves they own the process. The
// token works once and only for LoginLinkTTL, so a link left in terminal
// scrollback or shell history is soon worthless.
func (s *Service) NewLoginLink(ctx context.Context, baseURL string) string {
	link, _, _ := s.LoginLink(ctx, baseURL, "")
	return link
}

// LoginLink is NewLoginLink with a landing page: the browser is sent to
// next after logging in ("" or "/" is the home page). It also returns when
// the link stops working. A next that is not a same-origin path is
// ErrInvalidNext and mints nothing.
func (s *Service) LoginLink(ctx context.Context, baseURL, next string) (string, time.Time, error) {
	if next != "" && safeNext(next) != next {
		return "", time.Time{}, fmt.Errorf("%w (got %q)", ErrInvalidNext, next)
	}
	token, expires, err := s.logins.mint(ctx)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("connection: login link not saved: %w", err)
	}
	link := strings.TrimRight(baseURL, "/") + s.cfg.LoginPath + "?token=" + url.QueryEscape(token)
	if next != "" && next != "/" {
		link += "&next=" + url.QueryEscape(next)
	}
	return link, expires, nil
}

// LoginPath is where LoginHandler expects to be mounted.
func (s *Service) LoginPath() string { return s.cfg.LoginPath }

// LogoutPath is where LogoutHandler expects to be mounted.
func (s *Service) LogoutPath() string { return DefaultLogoutPath }

// LoginHandler serves the login path. It must be mounted without
// admission — it is how a browser gets admitted — so it does its own Host
// check (and, for posts, its own CSRF check) before anything else.
//
//   - GET with ?token= exchanges a one-time login link for a session as
//     the host's owner, consuming the token first.
//   - GET without one shows the password form, and POST (the form) signs
//     a person in with their name and password (see servePassword);
//     both only when the host keeps accounts (Config.Accounts). Without
//     accounts a login link is the only way in.
func (s *Service) LoginHandler() http.Handler {
	return http.HandlerFunc(s.serveLogin)
}

func (s *Service) serveLogin(w http.ResponseWriter, r *http.Request) {
	passwords := s.cfg.Accounts != nil
	link := r.Method == http.MethodGet && (r.URL.Query().Has("token") || !passwords)
	// Only GET and the form's POST: a HEAD (link previews, prefetchers)
	// must not burn the one-time token without delivering the cookie to
	// a browser.
	if !s.formPreamble(w, r, signInPage{posts: passwords, methodHint: "Open the login link in your browser.", forLink: link}) {
		return
	}
	switch {
	case link:
		s.serveLoginLink(w, r)
	case r.Method == http.MethodGet:
		s.passwordForm(w, http.StatusOK, "", safeNext(r.URL.Query().Get("next")), "")
	default:
		s.servePassword(w, r)
	}
}

// serveLoginLink exchanges a login link's token for a session.
func (s *Service) serveLoginLink(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ok, err := s.logins.redeem(r.Context(), q.Get("token"))
	if err != nil {
		s.log.Error("login links unreadable; refusing the link", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusServiceUnavailable, "Login unavailable",
			"dsh could not check this login link (see its log). Try the link again in a moment; if it was used meanwhile, get a new one.", true)
		return
	}
	if !ok {
		s.log.Warn("login link rejected", zap.String("remote", r.RemoteAddr))
		s.loginPage(w, http.StatusForbidden, "Login link invalid",
			"This login link is invalid, has expired, or was already used: each link works once, for a few minutes.", true)
		return
	}

	// A login link proves its holder owns the process: they sign in as
	// the host's owner.
	owner := ""
	if s.cfg.People != nil {
		owner = s.cfg.People.OwnerID(r.Context())
	}
	rec, err := s.startSession(w, r, owner)
	if err != nil {
		s.log.Error("browser session not started", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusInternalServerError, "Login failed",
			"dsh could not save the new session (see its log); this link has been used up.", true)
		return
	}
	s.log.Info("browser session started", zap.String("remote", r.RemoteAddr), zap.String("session", rec.ID))
	http.Redirect(w, r, safeNext(q.Get("next")), http.StatusSeeOther)
}

// signInPage is what formPreamble needs to know of the sign-in page it
// guards.
type signInPage struct {
	posts      bool   // its form posts to it; else it takes GET only
	methodHint string // what the page for another method tells to do
	forLink    bool   // the request is a login link's (the wrong-Host page says so)
}

// formPreamble is what every request to the sign-in pages passes first.
// Its answer is kept out of caches and Referer headers (a login link's
// or an invite's URL holds a secret) and is not sniffed; its method is
// GET, or POST where the page's form posts; the service is not closed,
// the Host is one this server answers to, and a POST comes from this
// server's own pages (formRejection). It answers the request itself and
// reports false when one fails.
func (s *Service) formPreamble(w http.ResponseWriter, r *http.Request, p signInPage) bool {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && (r.Method != http.MethodPost || !p.posts) {
		allow := "GET"
		if p.posts {
			allow = "GET, POST"
		}
		h.Set("Allow", allow)
		s.loginPage(w, http.StatusMethodNotAllowed, "Method not allowed", p.methodHint, false)
		return false
	}
	if s.closed.Load() {
		s.loginPage(w, http.StatusServiceUnavailable, "Login unavailable", "This dsh server is shutting down.", false)
		return false
	}
	if !s.hostAllowed(r.Host) {
		hint := "Open dsh at the address it printed."
		if p.forLink {
			hint = "Open the login link exactly as dsh printed it."
		}
		s.loginPage(w, http.StatusForbidden, "Unknown host", "This server does not answer to "+r.Host+". "+hint, false)
		return false
	}
	if r.Method == http.MethodPost {
		if rej := s.formRejection(r); rej != nil {
			s.log.Warn("form post refused", zap.String("path", r.URL.Path), zap.String("remote", r.RemoteAddr), zap.String("code", rej.Code))
			_ = page.Write(w, rej.Status, page.Page{Title: "Refused",
				Body:   "dsh accepts this form only from its own pages: " + rej.Message + ". Open the page at the address dsh printed and send the form again.",
				Detail: "code " + rej.Code})
			return false
		}
	}
	return true
}

// formRejection is the CSRF rule for the forms of the sign-in pages: the
// rule a cookie request follows (checkProvenance), since a forged post of
// them would sign a browser in or out as someone it did not choose. A
// cross-site post is refused with 403, as is one that does not prove it
// comes from this server's own origin.
//
// One addition: "Origin: null" together with "Sec-Fetch-Site:
// same-origin". A form posted from a page served with Referrer-Policy:
// no-referrer (the invite page, whose URL holds the invite's secret)
// carries Origin: null, by the Fetch standard's rule; Sec-Fetch-Site,
// which pages cannot forge, still says the post comes from our origin.
// Another site's post, or one from a sandboxed frame (an opaque origin),
// says cross-site and is refused.
func (s *Service) formRejection(r *http.Request) *Rejection {
	if o := r.Header.Values("Origin"); len(o) == 1 && o[0] == "null" &&
		strings.EqualFold(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site")), "same-origin") {
		return nil
	}
	return checkProvenance(r, s.origins.Load())
}

// readForm reads the urlencoded body of a form post (at most
// maxFormBytes). On failure it answers the request itself and reports
// false.
func (s *Service) readForm(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		s.loginPage(w, http.StatusUnsupportedMediaType, "Not a form", "Send this page's form from your browser.", false)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxFormBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		s.loginPage(w, http.StatusRequestEntityTooLarge, "Form too large", "What was sent is far bigger than this page's form.", false)
		return nil, false
	case err != nil:
		s.loginPage(w, http.StatusBadRequest, "Form not received", "The form did not arrive whole; send it again.", false)
		return nil, false
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		s.loginPage(w, http.StatusBadRequest, "Form not understood", "The form did not arrive as this page sends it; send it again.", false)
		return nil, false
	}
	return form, true
}

// startSession starts a browser session for person ("" is the host's
// owner) and sets its cookie on w: HttpOnly (no script reads it),
// SameSite=Strict (no other site's request carries it), Secure over TLS.
func (s *Service) startSession(w http.ResponseWriter, r *http.Request, person string) (SessionRecord, error) {
	session, rec, err := s.sessions.create(r.Context(), r.UserAgent(), person, s.cfg.SessionTTL)
	if err != nil {
		return SessionRecord{}, err
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
	return rec, nil
}

// LogoutHandler ends the session of the browser that asks. POST (sent by
// a page of this server only: the sign-in forms' CSRF rule) revokes the
// session its cookie names, clears the cookie and redirects to the login
// page; GET shows a page with that one button. Mount it without
// admission: an expired session must still be able to clear its cookie.
func (s *Service) LogoutHandler() http.Handler {
	return http.HandlerFunc(s.serveLogout)
}

func (s *Service) serveLogout(w http.ResponseWriter, r *http.Request) {
	if !s.formPreamble(w, r, signInPage{posts: true, methodHint: "Log out with the button on this page."}) {
		return
	}
	if r.Method == http.MethodGet {
		_ = page.Write(w, http.StatusOK, page.Page{
			Title: "Log out", Body: "End this browser's dsh session?",
			Form:           &page.Form{Action: DefaultLogoutPath, Submit: "Log out"},
			ReferrerPolicy: "same-origin",
		})
		return
	}
	if c, err := r.Cookie(s.cfg.CookieName); err == nil {
		rec, ok, err := s.sessions.lookup(r.Context(), c.Value)
		if err == nil && ok {
			err = s.RevokeSession(r.Context(), rec.ID)
			if errors.Is(err, ErrSessionNotFound) {
				err = nil // revoked meanwhile: the outcome asked for
			}
		}
		if err != nil {
			s.log.Error("logout failed", zap.String("remote", r.RemoteAddr), zap.Error(err))
			s.loginPage(w, http.StatusInternalServerError, "Logout failed",
				"dsh could not end the session (see its log); this browser is still logged in.", false)
			return
		}
		if ok {
			s.log.Info("browser session ended by logout", zap.String("remote", r.RemoteAddr), zap.String("session", rec.ID))
		}
	}
	http.SetCookie(w, &http.Cookie{
		Name: s.cfg.CookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	http.Redirect(w, r, s.cfg.LoginPath, http.StatusSeeOther)
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
