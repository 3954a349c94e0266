package connection

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// Admitter's richer form: Admit decides like RequestRejection and, for a
// request it lets in, returns it marked with its principal
// (identity.With) and bound to its credential: the request's context ends
// the moment the credential is revoked, so an open event stream or a long
// tool call of a revoked token or session stops at once. done releases
// the binding; call it when the request is served.
type Binder interface {
	Admit(r *http.Request) (admitted *http.Request, done func(), rej *Rejection)
}

var _ Binder = (*Service)(nil)

// holds is the registry of admitted requests by principal key, each with
// the cancel of its context, and of those told about revocations.
type holds struct {
	mu      sync.Mutex
	live    map[string]map[*hold]struct{} // Principal.String() → requests
	persons map[string]map[*hold]struct{} // person id → requests
	subs    map[*func(Principal)]struct{}
	used    sync.Map // token id → time.Time it was last used
}

type hold struct {
	p      Principal
	cancel context.CancelFunc
}

// Admit implements Binder.
func (s *Service) Admit(r *http.Request) (*http.Request, func(), *Rejection) {
	if s == nil {
		return nil, nil, Unavailable()
	}
	p, rej := s.decide(r)
	if rej != nil {
		s.log.Debug("request rejected",
			zap.String("method", r.Method), zap.String("path", r.URL.Path),
			zap.String("host", r.Host), zap.String("code", rej.Code))
		return nil, nil, rej
	}
	ctx, cancel := context.WithCancel(identity.With(r.Context(), p))
	h := &hold{p: p, cancel: cancel}
	key := p.String()
	s.holds.mu.Lock()
	if s.holds.live == nil {
		s.holds.live, s.holds.persons = map[string]map[*hold]struct{}{}, map[string]map[*hold]struct{}{}
	}
	add(s.holds.live, key, h)
	if p.Person != "" {
		add(s.holds.persons, p.Person, h)
	}
	s.holds.mu.Unlock()
	done := func() {
		s.holds.mu.Lock()
		remove(s.holds.live, key, h)
		if p.Person != "" {
			remove(s.holds.persons, p.Person, h)
		}
		s.holds.mu.Unlock()
		cancel()
	}
	return r.WithContext(ctx), done, nil
}

func add(m map[string]map[*hold]struct{}, k string, h *hold) {
	if m[k] == nil {
		m[k] = map[*hold]struct{}{}
	}
	m[k][h] = struct{}{}
}

func remove(m map[string]map[*hold]struct{}, k string, h *hold) {
	delete(m[k], h)
	if len(m[k]) == 0 {
		delete(m, k)
	}
}

// OnRevoke calls fn (quickly, on the revoker's goroutine) with every
// principal whose credential is revoked from now on: the MCP endpoint
// closes its sessions. The returned function stops the calls.
func (s *Service) OnRevoke(fn func(Principal)) (stop func()) {
	s.holds.mu.Lock()
	defer s.holds.mu.Unlock()
	if s.holds.subs == nil {
		s.holds.subs = map[*func(Principal)]struct{}{}
	}
	key := &fn
	s.holds.subs[key] = struct{}{}
	return func() {
		s.holds.mu.Lock()
		defer s.holds.mu.Unlock()
		delete(s.holds.subs, key)
	}
}

// cut ends every admitted request of the principals that match and tells
// the subscribers. kind and id name one credential; person (with kind "")
// every credential of that person.
func (s *Service) cut(match func(Principal) bool, keys ...string) {
	s.holds.mu.Lock()
	var cancels []context.CancelFunc
	seen := map[string]Principal{}
	for k, hs := range s.holds.live {
		for h := range hs {
			if match(h.p) {
				cancels = append(cancels, h.cancel)
				seen[k] = h.p
			}
		}
	}
	subs := make([]func(Principal), 0, len(s.holds.subs))
	for f := range s.holds.subs {
		subs = append(subs, *f)
	}
	s.holds.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	for _, k := range keys {
		if _, ok := seen[k]; !ok {
			kind, id, _ := strings.Cut(k, ":")
			seen[k] = Principal{Kind: kind, ID: id}
		}
	}
	for _, p := range seen {
		for _, f := range subs {
			f(p)
		}
	}
}

// used notes that the token with this id was just used (LastUsed).
func (s *Service) used(id string) { s.holds.used.Store(id, s.now().UTC()) }

// LastUsed is when the token with this id was last used by this process
// (zero: not since it started).
func (s *Service) LastUsed(id string) time.Time {
	v, ok := s.holds.used.Load(id)
	if !ok {
		return time.Time{}
	}
	return v.(time.Time)
}

// Tokens is the token document's store (nil when neither TokenFile nor
// State is configured): where connect tokens are minted and listed.
func (s *Service) Tokens() *TokenStore { return s.tokenStore }

// RevokeToken deletes the token with this id (or name) and ends at once
// every request and MCP session it holds open.
func (s *Service) RevokeToken(ctx context.Context, idOrName string) (TokenRecord, error) {
	ts := s.Tokens()
	if ts == nil {
		return TokenRecord{}, ErrTokenNotFound
	}
	rec, err := ts.Revoke(ctx, idOrName)
	if err != nil {
		return TokenRecord{}, err
	}
	if s.tokens != nil {
		s.tokens.view.Invalidate()
	}
	key := PrincipalToken + ":" + rec.ID
	s.cut(func(p Principal) bool { return p.String() == key }, key)
	s.log.Info("token revoked", zap.String("id", rec.ID), zap.String("name", rec.Name))
	return rec, nil
}

// CutPerson ends every request and session of the person with this id
// (their account was removed).
func (s *Service) CutPerson(person string) {
	s.cut(func(p Principal) bool { return p.Person == person })
}

// Recheck ends every admitted request, and tells OnRevoke's subscribers
// of every principal, whose credential no longer admits: a token or a
// browser session revoked or expired, a person removed, by another
// process or node. A host on a shared backend calls it on each change
// notice of the tokens, sessions or accounts (pgstate.Backend.Listen,
// which also calls with "" after a lost connection: anything may have
// changed); doc is the document that changed, "" for all. Requests
// already refuse a dead credential on their next admission; Recheck is
// for the streams and tool calls open now. When the state cannot be read
// it ends nothing (new requests are refused anyway) and logs why.
func (s *Service) Recheck(doc string) {
	switch doc {
	case "", TokensDoc, SessionsDoc, accounts.StateDoc:
	default:
		return
	}
	// A change notice has no caller to take a context from: the reads
	// are bounded by the backend alone (pgstate's per-query timeout).
	ctx := context.Background()
	var tokens []TokenRecord
	if s.tokens != nil {
		var err error
		if tokens, err = s.tokens.view.Load(ctx); err != nil {
			s.log.Warn("recheck: tokens unreadable", zap.Error(err))
			return
		}
	}
	sessions, err := s.sessions.current(ctx)
	if err != nil {
		s.log.Warn("recheck: sessions unreadable", zap.Error(err))
		return
	}
	if s.cfg.Accounts != nil {
		if _, err := s.cfg.Accounts.List(ctx); err != nil {
			s.log.Warn("recheck: accounts unreadable", zap.Error(err))
			return
		}
	}
	byID := map[string]TokenRecord{}
	for _, recs := range [][]TokenRecord{s.cfg.Tokens, tokens} {
		for _, r := range recs {
			byID[tokenKey(r)] = r
		}
	}
	sessionByID := map[string]SessionRecord{}
	for _, r := range sessions.records {
		sessionByID[r.ID] = r
	}
	valid := func(p Principal) bool {
		switch p.Kind {
		case PrincipalToken:
			rec, ok := byID[p.ID]
			if !ok {
				return false
			}
			_, ok = s.recordPrincipal(ctx, rec)
			return ok
		case PrincipalSession:
			rec, ok := sessionByID[p.ID]
			if !ok || !s.now().Before(rec.ExpiresAt) {
				return false
			}
			_, ok = s.sessionPrincipal(ctx, rec)
			return ok
		default:
			if p.Person != "" && s.cfg.People != nil {
				_, _, ok := s.cfg.People.Person(ctx, p.Person)
				return ok
			}
			return true
		}
	}
	// The principals are judged outside the lock: that may read the
	// accounts, and admission must not wait for it.
	s.holds.mu.Lock()
	held := map[string]Principal{}
	for k, hs := range s.holds.live {
		for h := range hs {
			held[k] = h.p
			break
		}
	}
	s.holds.mu.Unlock()
	var keys []string
	for k, p := range held {
		if !valid(p) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	s.cut(func(p Principal) bool { return slices.Contains(keys, p.String()) }, keys...)
	s.log.Info("credentials gone elsewhere: their requests ended", zap.Strings("principals", keys))
}
