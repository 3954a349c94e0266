package connection

import (
	"context"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// accountsPeople is People over the host's accounts.
type accountsPeople struct{ st *accounts.Store }

// PeopleOf is People answered from an accounts store.
func PeopleOf(st *accounts.Store) People { return accountsPeople{st} }

func (a accountsPeople) Person(ctx context.Context, id string) (string, bool, bool) {
	p, ok, err := a.st.Get(ctx, id)
	if err != nil || !ok {
		return "", false, false
	}
	return p.Name, p.Owner, true
}

func (a accountsPeople) OwnerID(ctx context.Context) string {
	p, ok, err := a.st.Owner(ctx)
	if err != nil || !ok {
		return ""
	}
	return p.ID
}

// OwnerID is the host owner's person id ("" without accounts).
func (s *Service) OwnerID(ctx context.Context) string {
	if s.cfg.People == nil {
		return ""
	}
	return s.cfg.People.OwnerID(ctx)
}

// Accounts is the host's people (nil when it keeps none).
func (s *Service) Accounts() *accounts.Store { return s.cfg.Accounts }

// RemovePerson removes a person's account and ends, at once, every
// request and MCP session of theirs and of the connect tokens they minted
// (which no longer work: they act for no one).
func (s *Service) RemovePerson(ctx context.Context, idOrName string) (accounts.Person, error) {
	if s.cfg.Accounts == nil {
		return accounts.Person{}, &accounts.Error{Code: accounts.CodeNotFound, Message: "this host keeps no accounts"}
	}
	p, err := s.cfg.Accounts.Remove(ctx, idOrName)
	if err != nil {
		return accounts.Person{}, err
	}
	if _, err := s.sessions.revokeWhere(ctx, func(r SessionRecord) bool { return r.Person == p.ID }); err != nil {
		s.log.Warn("sessions of a removed person not revoked", zap.String("person", p.ID), zap.Error(err))
	}
	s.CutPerson(p.ID)
	return p, nil
}

// PersonID is the id of the person with this login name.
func (s *Service) PersonID(ctx context.Context, name string) (string, bool) {
	if s.cfg.Accounts == nil {
		return "", false
	}
	p, ok, err := s.cfg.Accounts.ByName(ctx, name)
	if err != nil || !ok {
		return "", false
	}
	return p.ID, true
}

// PersonName is the login name of the person with this id.
func (s *Service) PersonName(ctx context.Context, id string) (string, bool) {
	if s.cfg.People == nil {
		return "", false
	}
	name, _, ok := s.cfg.People.Person(ctx, id)
	return name, ok
}
