package service

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Guard decides who may do what to which scene (access.Policy does). The
// service asks it before every store call, with the principal of the
// call's context (identity.Of), so no tool, route or use case can reach a
// scene it was not let at: the check sits where they all meet.
type Guard interface {
	// Check is nil when the caller may do a to the scene name, else the
	// error to answer (not_found: it may not know the scene exists;
	// permission_denied: its role is too weak).
	Check(ctx context.Context, name string, a access.Action) error
	// RoleOf is the caller's role on the scene name ("" for none).
	RoleOf(ctx context.Context, name string) (string, error)
	// Visible says which scenes a listing shows the caller.
	Visible(ctx context.Context) func(name string) bool
	// Create is nil when the caller may create the scene name; Created
	// records a scene it created (its owner, a bot's binding).
	Create(ctx context.Context, name string) error
	Created(ctx context.Context, name string) error
}

// guarded is the store as the service sees it: each call checked by the
// guard first (none: every call allowed), and each write attributed to
// the principal's bot and person.
type guarded struct {
	st     store.Backend
	guard  Guard
	quotas *quota.Limiter
	obs    *observing // who is told of commits and renders (observe.go)
}

// May is nil when the caller of ctx may do a to the scene name: for
// what serves over time (an event stream asks before each event it
// sends, so taking access away ends it).
func (s *Service) May(ctx context.Context, name string, a access.Action) error {
	return mapError(s.store.check(ctx, name, a))
}

// Role is the caller's role on the scene name: identity.RoleOwner,
// RoleEditor, RoleViewer, or "" when it does not reach it.
func (s *Service) Role(ctx context.Context, name string) (string, error) {
	if err := store.ValidName(name); err != nil {
		return "", mapError(err)
	}
	if s.store.guard == nil {
		return identity.RoleOwner, nil
	}
	role, err := s.store.guard.RoleOf(ctx, name)
	return role, mapError(err)
}

func (g guarded) check(ctx context.Context, name string, a access.Action) error {
	if g.guard == nil {
		return nil
	}
	if err := store.ValidName(name); err != nil {
		return err // the name's own error first, as the store gives it
	}
	return g.guard.Check(ctx, name, a)
}

// maxAccessID bounds the request id a journal entry keeps.
const maxAccessID = 128

// attribute names who writes a commit, the one place every write's name
// comes from: the principal's author name (identity.Principal.Author: a
// bot by its token and person, a person by their name, a host token by
// its name), its bot, and its person's name and id. A client's claimed
// name stays in Client. An unmarked context (in-process callers) keeps
// what the caller said. The request's id (apierr.RequestID) is kept
// when it is at most maxAccessID bytes (a client may send its own).
func attribute(ctx context.Context, a store.Attribution) store.Attribution {
	if id := apierr.RequestID(ctx); len(id) <= maxAccessID {
		a.AccessID = id
	}
	who, ok := identity.From(ctx)
	if !ok {
		return a
	}
	a.Name = who.Author()
	if who.Grant != nil {
		a.Bot = who.Name
	}
	if a.Person == "" {
		a.Person = who.PersonName
	}
	if a.PersonID == "" {
		a.PersonID = who.Person
	}
	return a
}

func (g guarded) Read(ctx context.Context, name string) (*store.Scene, error) {
	if err := g.check(ctx, name, access.Read); err != nil {
		return nil, err
	}
	return g.st.Read(ctx, name)
}

func (g guarded) ReadRevision(ctx context.Context, name string, rev int64) ([]byte, error) {
	if err := g.check(ctx, name, access.Read); err != nil {
		return nil, err
	}
	return g.st.ReadRevision(ctx, name, rev)
}

func (g guarded) Head(ctx context.Context, name string) (store.Meta, error) {
	if err := g.check(ctx, name, access.Read); err != nil {
		return store.Meta{}, err
	}
	return g.st.Head(ctx, name)
}

// CommittedHere answers from the sidecar alone, for the event streams'
// dedup, and reveals nothing: it is not checked.
func (g guarded) CommittedHere(ctx context.Context, name string) bool {
	return g.st.CommittedHere(ctx, name)
}

func (g guarded) Log(ctx context.Context, q store.LogQuery) (*store.LogPage, error) {
	if err := g.check(ctx, q.Name, access.Read); err != nil {
		return nil, err
	}
	return g.st.Log(ctx, q)
}

func (g guarded) Commit(ctx context.Context, name, id string) (*journal.Entry, *journal.Images, error) {
	if err := g.check(ctx, name, access.Read); err != nil {
		return nil, nil, err
	}
	return g.st.Commit(ctx, name, id)
}

func (g guarded) List(ctx context.Context) ([]store.Summary, error) {
	rows, err := g.st.List(ctx)
	if err != nil || g.guard == nil {
		return rows, err
	}
	sees := g.guard.Visible(ctx)
	kept := rows[:0]
	for _, r := range rows {
		if sees(r.Name) {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

func (g guarded) Create(ctx context.Context, r store.CreateRequest) (*store.Result, error) {
	if g.guard != nil {
		if err := store.ValidName(r.Name); err != nil {
			return nil, err
		}
		if err := g.guard.Create(ctx, r.Name); err != nil {
			return nil, err
		}
	}
	// A bot creates at most quota.CreateBoard boards an hour; one that
	// fails does not count.
	bot := identity.Of(ctx)
	counted := bot.Grant != nil && g.quotas != nil
	if counted {
		if err := g.quotas.Take(ctx, quota.CreateBoard, bot.String()); err != nil {
			return nil, err
		}
	}
	r.Attribution = attribute(ctx, r.Attribution)
	done := g.obs.commit("create")
	res, err := g.st.Create(ctx, r)
	done(res, err)
	if counted && (err != nil || res.Duplicate) {
		g.quotas.GiveBack(ctx, quota.CreateBoard, bot.String())
	}
	if err != nil && g.guard != nil && sceneerr.CodeOf(mapError(err)) == sceneerr.AlreadyExists && !g.guard.Visible(ctx)(r.Name) {
		// Taken by a board the caller does not see (or one in the
		// trash): told as every such name is, never as existing.
		return nil, access.Unavailable(r.Name)
	}
	if err != nil || g.guard == nil || res.Duplicate {
		return res, err
	}
	if err := g.guard.Created(ctx, r.Name); err != nil {
		return nil, err
	}
	return res, nil
}

func (g guarded) Update(ctx context.Context, r store.UpdateRequest) (*store.Result, error) {
	if err := g.check(ctx, r.Name, access.Write); err != nil {
		return nil, err
	}
	r.Attribution = attribute(ctx, r.Attribution)
	done := g.obs.commit("update")
	res, err := g.st.Update(ctx, r)
	done(res, err)
	return res, err
}

func (g guarded) Save(ctx context.Context, r store.SaveRequest) (*store.Result, error) {
	if err := g.check(ctx, r.Name, access.Write); err != nil {
		return nil, err
	}
	r.Attribution = attribute(ctx, r.Attribution)
	done := g.obs.commit("save")
	res, err := g.st.Save(ctx, r)
	done(res, err)
	return res, err
}

func (g guarded) Close() error { return g.st.Close() }
