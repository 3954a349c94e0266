package access

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

// Binder binds a board to a bot: the connect token with this id reaches
// it from now on (the host's token store does it).
type Binder interface {
	BindBoard(ctx context.Context, tokenID, board string) error
}

// Guard is the scene service's guard (service.Guard): the policy over the
// board store, and what creating a board records.
type Guard struct {
	*Policy
	store *boards.Store
	bots  Binder
	owner func(context.Context) string
}

// NewGuard guards scenes with the metadata in st; bots (may be nil: then
// bots cannot create boards) binds the boards a bot creates to it, and
// owner is the host owner's person id (nil or "": none).
func NewGuard(st *boards.Store, bots Binder, owner func(context.Context) string) *Guard {
	if owner == nil {
		owner = func(context.Context) string { return "" }
	}
	return &Guard{Policy: New(st), store: st, bots: bots, owner: owner}
}

// FolderOwner is the person whose folders the caller uses: its own
// person, or the host owner for a host token or the process itself.
func (g *Guard) FolderOwner(ctx context.Context) (string, error) {
	if err := CanUseFolders(ctx); err != nil {
		return "", err
	}
	who := identity.Of(ctx)
	if who.Person != "" {
		return who.Person, nil
	}
	if id := g.owner(ctx); id != "" {
		return id, nil
	}
	return "", sceneerr.New(sceneerr.PermissionDenied, "folders belong to people, and this host has none yet")
}

// Boards is the metadata store the guard decides from.
func (g *Guard) Boards() *boards.Store { return g.store }

// Create is nil when the caller may create a board named name.
func (g *Guard) Create(ctx context.Context, name string) error {
	if err := CanCreate(ctx); err != nil {
		return err
	}
	if who := identity.Of(ctx); who.Grant != nil && g.bots == nil {
		return sceneerr.New(sceneerr.PermissionDenied, "this host keeps no token file, so a token cannot be bound to a board it creates")
	}
	return nil
}

// Created records that the caller created the board: its person owns it
// (the host owner's for an admin without one), and a bot that created it
// is bound to it with write.
func (g *Guard) Created(ctx context.Context, name string) error {
	who := identity.Of(ctx)
	owner := who.Person
	if who.HostOwner {
		owner = "" // the host owner's, like every board made before accounts
	}
	// A record left from a scene of this name removed outside dsh is
	// not this board's: its owner, members and folder go with it.
	if _, err := g.store.Forget(ctx, name); err != nil {
		return err
	}
	if _, err := g.store.Ensure(ctx, name, owner, who.Display()); err != nil {
		return err
	}
	if who.Grant != nil && g.bots != nil {
		return g.bots.BindBoard(ctx, who.ID, name)
	}
	return nil
}
