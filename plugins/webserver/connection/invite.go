package connection

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/page"
	"go.uber.org/zap"
)

// inviteSuffix is the invite page's path under the login path.
const inviteSuffix = "/invite"

// passwordMinLength is the browser's hint for a new password; the
// accounts store decides (its rule is at least 8 characters).
const passwordMinLength = 8

// InviteURL is the link an invite's secret is sent as: baseURL +
// loginPath + "/invite?token=" + secret. `dsh user add` prints it.
func InviteURL(baseURL, loginPath, secret string) string {
	return strings.TrimRight(baseURL, "/") + loginPath + inviteSuffix + "?token=" + url.QueryEscape(secret)
}

// InvitePath is where InviteHandler expects to be mounted: the login
// path + "/invite".
func (s *Service) InvitePath() string { return s.cfg.LoginPath + inviteSuffix }

// InviteHandler is the invite page. GET ?token=SECRET shows a form to
// choose a password (the secret goes along in a hidden field, and the page
// sends no Referer anywhere); POST (the form, from this server's own page
// only) accepts the invite with the accounts' AcceptInvite, signs the
// person in and sends them to the home page. A bad, expired or used
// invite gets a page that says so and how the owner makes a new one; a
// weak password or two that differ get the form again, and the invite
// stays usable. Mount it without admission, like LoginHandler.
func (s *Service) InviteHandler() http.Handler {
	return http.HandlerFunc(s.serveInvite)
}

func (s *Service) serveInvite(w http.ResponseWriter, r *http.Request) {
	if !s.formPreamble(w, r, signInPage{posts: true, methodHint: "Open the invite link in your browser."}) {
		return
	}
	if r.Method == http.MethodGet {
		secret := r.URL.Query().Get("token")
		person, ok := s.invitee(r.Context(), secret)
		if !ok {
			s.log.Warn("invite link rejected", zap.String("remote", r.RemoteAddr))
			s.invalidInvite(w)
			return
		}
		s.inviteForm(w, http.StatusOK, person.Name, secret, "")
		return
	}

	form, ok := s.readForm(w, r)
	if !ok {
		return
	}
	secret, password := form.Get("token"), form.Get("password")
	invited, ok := s.invitee(r.Context(), secret)
	if !ok {
		s.log.Warn("invite rejected", zap.String("remote", r.RemoteAddr))
		s.invalidInvite(w)
		return
	}
	if password != form.Get("confirm") {
		s.inviteForm(w, http.StatusBadRequest, invited.Name, secret, "The two passwords are not the same; type the same password twice.")
		return
	}
	person, err := s.cfg.Accounts.AcceptInvite(r.Context(), secret, password)
	var refused *accounts.Error
	switch {
	case err == nil:
	case errors.As(err, &refused) && refused.Code == accounts.CodeWeakPassword:
		s.inviteForm(w, http.StatusBadRequest, invited.Name, secret, sentence(refused.Message))
		return
	case errors.As(err, &refused) && refused.Code == accounts.CodeInvalidInvite:
		// Used or replaced since invitee looked.
		s.invalidInvite(w)
		return
	default:
		s.log.Error("invite not accepted", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusInternalServerError, "Invite not accepted",
			"dsh could not save your password (see its log). Your invite still works: try again in a moment.", false)
		return
	}
	rec, err := s.startSession(w, r, person.ID)
	if err != nil {
		// The password is set: they can sign in with it.
		s.log.Error("browser session not started", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusInternalServerError, "Password set, login failed",
			"Your password is set, but dsh could not start your session (see its log). Log in with your name and password.", false)
		return
	}
	s.log.Info("invite accepted; browser session started", zap.String("remote", r.RemoteAddr),
		zap.String("session", rec.ID), zap.String("person", person.ID))
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// invitee is the person whose live invite this secret is. It only looks
// (the accounts keep the invite's SHA-256, in hex, which is HashToken):
// AcceptInvite decides, under the accounts file's lock.
func (s *Service) invitee(ctx context.Context, secret string) (accounts.Person, bool) {
	if s.cfg.Accounts == nil || secret == "" {
		return accounts.Person{}, false
	}
	people, err := s.cfg.Accounts.List(ctx)
	if err != nil {
		s.log.Error("accounts unreadable", zap.Error(err))
		return accounts.Person{}, false
	}
	hash := []byte(HashToken(secret))
	now := s.now()
	for _, p := range people {
		if p.Invite != nil && subtle.ConstantTimeCompare([]byte(p.Invite.SHA256), hash) == 1 && now.Before(p.Invite.ExpiresAt) {
			return p, true
		}
	}
	return accounts.Person{}, false
}

// inviteForm shows the form to choose a password: the name read-only
// (for password managers), the secret hidden, never in a link.
func (s *Service) inviteForm(w http.ResponseWriter, status int, name, secret, errMsg string) {
	_ = page.Write(w, status, page.Page{
		Title: "Welcome to dsh",
		Body:  "Choose a password for your account (at least 8 characters). You sign in with your name and this password.",
		Error: errMsg,
		Form: &page.Form{Action: s.InvitePath(), Submit: "Set password and log in", Fields: []page.Field{
			{Name: "name", Label: "Name", Value: name, Autocomplete: "username", ReadOnly: true},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "new-password", MinLength: passwordMinLength, Required: true, Autofocus: true},
			{Name: "confirm", Label: "The same password again", Type: "password", Autocomplete: "new-password", MinLength: passwordMinLength, Required: true},
			{Name: "token", Type: "hidden", Value: secret},
		}},
		// The default, no-referrer: this page's URL holds the secret.
	})
}

// invalidInvite is the one answer for an unknown, expired or used invite.
func (s *Service) invalidInvite(w http.ResponseWriter) {
	_ = page.Write(w, http.StatusForbidden, page.Page{
		Title: "Invite not valid",
		Body: "This invite link is invalid, has expired, or was already used: each invite works once. " +
			"Ask the host's owner for a new one; they can run this on the machine where dsh runs:",
		Command: s.reinviteCommand(),
		Link:    s.cfg.LoginPath, LinkText: "Already set a password? Log in",
	})
}

// reinviteCommand is the command that makes a new invite, with the same
// --config as the login command.
func (s *Service) reinviteCommand() string {
	const cmd = "dsh user reinvite NAME"
	if rest, ok := strings.CutPrefix(s.cfg.LoginCommand, "dsh login"); ok {
		return cmd + rest
	}
	return cmd
}

// sentence makes an error message one to show: a capital first letter and
// a full stop.
func sentence(msg string) string {
	r, n := utf8.DecodeRuneInString(msg)
	if n == 0 {
		return msg
	}
	msg = string(unicode.ToUpper(r)) + msg[n:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}
