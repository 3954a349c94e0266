package connection

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/page"
	"go.uber.org/zap"
)

// wrongPassword is the one answer to every failed sign-in: an unknown
// name, a wrong password and an account without a password read alike.
const wrongPassword = "Wrong name or password."

// servePassword signs a person in with the password form (a POST that
// passed formPreamble): their name and password are checked with the
// accounts' CheckPassword; on success the browser gets a session for that
// person and is sent to the form's next. A failure shows the form again
// with wrongPassword (401), a throttled name says when to try again (429).
func (s *Service) servePassword(w http.ResponseWriter, r *http.Request) {
	form, ok := s.readForm(w, r)
	if !ok {
		return
	}
	name, next := form.Get("name"), safeNext(form.Get("next"))
	person, err := s.cfg.Accounts.CheckPassword(r.Context(), name, form.Get("password"))
	var refused *accounts.Error
	switch {
	case err == nil:
	case errors.As(err, &refused) && refused.Code == accounts.CodeRateLimited:
		s.log.Warn("password sign-in throttled", zap.String("remote", r.RemoteAddr), zap.Int("retryAfterSec", refused.RetryAfter))
		w.Header().Set("Retry-After", strconv.Itoa(refused.RetryAfter))
		s.passwordForm(w, http.StatusTooManyRequests, name, next,
			fmt.Sprintf("Too many attempts; try again in %d seconds.", refused.RetryAfter))
		return
	case errors.As(err, &refused):
		s.log.Info("password sign-in refused", zap.String("remote", r.RemoteAddr), zap.String("code", refused.Code))
		s.passwordForm(w, http.StatusUnauthorized, name, next, wrongPassword)
		return
	default:
		s.log.Error("password sign-in failed", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusInternalServerError, "Login failed", "dsh could not read its accounts (see its log). Try again in a moment.", false)
		return
	}
	rec, err := s.startSession(w, r, person.ID)
	if err != nil {
		s.log.Error("browser session not started", zap.String("remote", r.RemoteAddr), zap.Error(err))
		s.loginPage(w, http.StatusInternalServerError, "Login failed", "dsh could not save the new session (see its log). Try again in a moment.", false)
		return
	}
	s.log.Info("browser session started", zap.String("remote", r.RemoteAddr), zap.String("session", rec.ID),
		zap.String("person", person.ID), zap.String("via", "password"))
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// passwordForm shows the password form: name prefilled (never the
// password), next carried along, errMsg (if any) above it.
func (s *Service) passwordForm(w http.ResponseWriter, status int, name, next, errMsg string) {
	_ = page.Write(w, status, page.Page{
		Title: "Log in to dsh",
		Body: "Sign in with your name and the password you chose when you accepted your invite. " +
			"The host's owner signs in with a login link instead: run this on the machine where dsh runs.",
		Error: errMsg,
		Form: &page.Form{Action: s.cfg.LoginPath, Submit: "Log in", Fields: []page.Field{
			{Name: "name", Label: "Name", Value: name, Autocomplete: "username", Required: true, Autofocus: name == ""},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true, Autofocus: name != ""},
			{Name: "next", Type: "hidden", Value: next},
		}},
		Command: s.cfg.LoginCommand,
		// Nothing secret in this page's URL; "same-origin" keeps the
		// form's Origin header (no-referrer would send "null").
		ReferrerPolicy: "same-origin",
	})
}
