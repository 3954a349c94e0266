// Package access decides what a principal may do on a board: the one
// place where people's and bots' roles meet board metadata. Tools, HTTP
// routes and the file service all ask it, through the scene service.
//
// A principal's role on a board:
//
//	admin (host owner, host token, local) ─► owner, everywhere
//	person ─► owner if the board is theirs (a board with no owner is
//	          the host owner's), else their member role, else none
//	bot    ─► none unless the board is bound to it (by name, or its
//	          folder); then the lesser of its grant's role and its
//	          person's role there
//
// What each role may do: viewer reads (list, read, query, render, export,
// history), editor also writes (every tool, the editor's save, restore,
// files), owner also manages (rename, describe, move, members, trash).
// No role is not_found, worded as for a board that does not exist, so a
// caller learns nothing of boards it does not reach. A board in the trash
// is seen only by its owner.
package access

import (
	"context"
	"fmt"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/identity"
)

// Action is what a call does to a board.
type Action int

const (
	Read   Action = iota // list, read, query, render, export, history, events
	Write                // any change to the drawing or its files
	Manage               // rename, describe, move to a folder, members, trash
)

func (a Action) String() string {
	switch a {
	case Read:
		return "read"
	case Write:
		return "write"
	case Manage:
		return "manage"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// rank orders roles; "" (none) is 0.
func rank(role string) int {
	switch role {
	case identity.RoleViewer:
		return 1
	case identity.RoleEditor:
		return 2
	case identity.RoleOwner:
		return 3
	}
	return 0
}

func (a Action) needs() string {
	switch a {
	case Read:
		return identity.RoleViewer
	case Write:
		return identity.RoleEditor
	}
	return identity.RoleOwner
}

// Metadata is where boards' owners and members are kept (*boards.Store).
type Metadata interface {
	Get(ctx context.Context, name string) (boards.Board, bool, error)
}

// Policy answers access questions from board metadata.
type Policy struct {
	boards Metadata
}

// New is a policy over meta.
func New(meta Metadata) *Policy { return &Policy{boards: meta} }

// Role is who's role on the board name: identity.RoleOwner, RoleEditor,
// RoleViewer or "" (none); ctx bounds the metadata's read.
func (p *Policy) Role(ctx context.Context, who identity.Principal, name string) (string, error) {
	b, err := p.board(ctx, name)
	if err != nil {
		return "", err
	}
	return RoleOn(who, b), nil
}

// board is the metadata of the board name: its record, or the default
// one (no owner: the host owner's) for a scene that has none.
func (p *Policy) board(ctx context.Context, name string) (boards.Board, error) {
	b, _, err := p.boards.Get(ctx, name)
	b.Name = name
	return b, err
}

// RoleOf is the role of the caller ctx acts for on the board name.
func (p *Policy) RoleOf(ctx context.Context, name string) (string, error) {
	return p.Role(ctx, identity.Of(ctx), name)
}

// RoleOn is who's role on b (a board's metadata, or the zero Board with
// its Name set for a scene that has none).
func RoleOn(who identity.Principal, b boards.Board) string {
	if who.Grant != nil {
		g := GrantOf(who.Grant)
		bound := g.Role
		switch {
		case b.TrashedAt != nil:
			return ""
		case slices.Contains(g.Created, b.Name):
			bound = identity.RoleEditor
		case !slices.Contains(g.Boards, b.Name) && (b.Folder == "" || !slices.Contains(g.Folders, b.Folder)):
			return ""
		}
		mine := personRole(who.Person, who.HostOwner, b)
		if rank(bound) < rank(mine) {
			return bound
		}
		return mine
	}
	if who.Admin {
		return identity.RoleOwner
	}
	return personRole(who.Person, who.HostOwner, b)
}

// personRole is the role of the person with this id on b.
func personRole(person string, hostOwner bool, b boards.Board) string {
	if hostOwner {
		return identity.RoleOwner
	}
	if person == "" {
		return ""
	}
	if b.Owner == person {
		return identity.RoleOwner
	}
	role := b.Members[person]
	if b.TrashedAt != nil {
		return "" // in the trash: its owner's alone
	}
	return role
}

// Check returns nil when the caller ctx acts for (identity.Of) may do a
// to the board name, and otherwise the error to answer with: not_found
// when it has no role there (as if there were no such board),
// permission_denied when its role is too weak.
//
// Managing a board is its owner's; a bot may do it for its person when
// it could write there and its person owns the board (seed 001's rule
// for rename_board and set_board_description).
func (p *Policy) Check(ctx context.Context, name string, a Action) error {
	who := identity.Of(ctx)
	b, err := p.board(ctx, name)
	if err != nil {
		return err
	}
	role := RoleOn(who, b)
	if a == Manage && who.Grant != nil && rank(role) >= rank(identity.RoleEditor) &&
		personRole(who.Person, who.HostOwner, b) == identity.RoleOwner {
		return nil
	}
	return Allowed(who, name, role, a)
}

// Allowed is Check's verdict for a role already known.
func Allowed(who identity.Principal, name, role string, a Action) error {
	if role == "" {
		return store.NotFound(name)
	}
	if rank(role) >= rank(a.needs()) {
		return nil
	}
	subject := "you are"
	if who.Grant != nil {
		subject = "this token is"
	}
	msg := fmt.Sprintf("%s a %s on %s: %s needs %s", subject, role, name, verb(a), article(a.needs()))
	return sceneerr.New(sceneerr.PermissionDenied, "%s", msg).
		With("name", name).With("role", role).With("needs", a.needs())
}

// Unavailable is the one answer to creating a board whose name the
// caller may not have for a reason it is not told: a board it does not
// reach has the name, or one in the trash (its own too). Every such
// reason answers these same code, message and details, so the answer
// tells a hidden board from none of the others; a board the caller sees
// is already_exists, as the store says.
func Unavailable(name string) error {
	return sceneerr.New(sceneerr.NameUnavailable,
		"the name %s is not available (a board you cannot see, or one in the trash, has it); pick another name", name).
		With("name", name)
}

func verb(a Action) string {
	switch a {
	case Write:
		return "changing it"
	case Manage:
		return "managing it (rename, description, folder, members, trash)"
	}
	return "reading it"
}

func article(role string) string {
	if role == identity.RoleEditor {
		return "an editor"
	}
	return "a " + role
}

// Visible returns, for the caller ctx acts for, whether it sees a board
// (any role): listings keep only those.
//
// Boards in the trash are left out, for their owner too: the trash has a
// listing of its own.
func (p *Policy) Visible(ctx context.Context) func(name string) bool {
	who := identity.Of(ctx)
	return func(name string) bool {
		b, err := p.board(ctx, name)
		return err == nil && b.TrashedAt == nil && RoleOn(who, b) != ""
	}
}

// CanUseFolders returns nil when the caller may list, create and file
// into folders: people may; a bot needs canCreateFolders, which counts
// only with canCreateBoards (seed 001).
func CanUseFolders(ctx context.Context) error {
	who := identity.Of(ctx)
	if g := GrantOf(who.Grant); who.Grant != nil && !(g.CanCreateFolders && g.CanCreateBoards) {
		return sceneerr.New(sceneerr.PermissionDenied, "this token may not use folders (it needs canCreateFolders and canCreateBoards)").With("permission", "canCreateFolders")
	}
	if who.Grant == nil && !who.Admin && who.Person == "" {
		return sceneerr.New(sceneerr.PermissionDenied, "folders belong to people; sign in first")
	}
	return nil
}

// CanCreate returns nil when the caller may create boards: people and
// admins may; a bot only with canCreateBoards.
func CanCreate(ctx context.Context) error {
	who := identity.Of(ctx)
	switch {
	case who.Grant != nil && !GrantOf(who.Grant).CanCreateBoards:
		return sceneerr.New(sceneerr.PermissionDenied, "this token may not create boards (it has no canCreateBoards permission)").With("permission", "canCreateBoards")
	case who.Grant == nil && !who.Admin && who.Person == "":
		return sceneerr.New(sceneerr.PermissionDenied, "only a signed-in person or an agent they connected may create boards")
	}
	return nil
}
