package service

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/identity"
)

// BoardGuard is a Guard that also keeps board metadata and folders
// (access.Guard): without one, the board use cases are unavailable.
type BoardGuard interface {
	Guard
	Boards() *boards.Store
	FolderOwner(ctx context.Context) (string, error)
}

// MaxFoldersPerPerson bounds the folders one person has (seed 001).
const MaxFoldersPerPerson = 100

// BoardInfo is a board as listed: its scene, metadata and the caller's
// role.
type BoardInfo struct {
	Name        string     `json:"name"`
	Title       string     `json:"title"`
	Description string     `json:"description,omitempty"`
	Role        string     `json:"role"`
	Folder      *FolderRef `json:"folder,omitempty"`
	Revision    int64      `json:"revision"`
	UpdatedAt   string     `json:"updatedAt,omitempty"`
	// UpdatedBy is the last writer's kind (agent, ui, ...) and
	// UpdatedByName who they are, as the board's history names them.
	UpdatedBy     string     `json:"updatedBy,omitempty"`
	UpdatedByName string     `json:"updatedByName,omitempty"`
	TrashedAt     *time.Time `json:"trashedAt,omitempty"`
}

// FolderRef names a board's folder.
type FolderRef struct {
	ID   string `json:"folderId"`
	Name string `json:"name"`
}

// FolderInfo is a folder as listed, with the boards in it the caller
// reaches.
type FolderInfo struct {
	ID     string   `json:"folderId"`
	Name   string   `json:"name"`
	Boards []string `json:"boards"`
}

func (s *Service) boardGuard() (BoardGuard, error) {
	g, ok := s.store.guard.(BoardGuard)
	if !ok {
		return nil, sceneerr.New(sceneerr.InvalidOperation, "this host keeps no board metadata")
	}
	return g, nil
}

// titleOf is how a board is shown: its title, else its name.
func titleOf(b boards.Board, name string) string {
	if b.Title != "" {
		return b.Title
	}
	return name
}

// boardInfo is the board name, whose metadata is b, as who sees it: its
// title, its description and who's role there.
func boardInfo(who identity.Principal, name string, b boards.Board) BoardInfo {
	b.Name = name
	return BoardInfo{Name: name, Title: titleOf(b, name), Description: b.Description, Role: access.RoleOn(who, b)}
}

// folderRef names f; nil for none (the zero Folder).
func folderRef(f boards.Folder) *FolderRef {
	if f.ID == "" {
		return nil
	}
	return &FolderRef{ID: f.ID, Name: f.Name}
}

// folderInfo is f as listed: with those of all filed in it that sees
// shows the caller.
func folderInfo(f boards.Folder, all []boards.Board, sees func(name string) bool) FolderInfo {
	fi := FolderInfo{ID: f.ID, Name: f.Name, Boards: []string{}}
	for _, b := range all {
		if b.Folder == f.ID && sees(b.Name) {
			fi.Boards = append(fi.Boards, b.Name)
		}
	}
	return fi
}

// ListBoards lists the boards the caller reaches (trash: those in the
// trash it owns instead), with its role and each board's title,
// description and (when the caller uses folders) folder.
func (s *Service) ListBoards(ctx context.Context, trash bool) ([]BoardInfo, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	who := identity.Of(ctx)
	folderOwner, ferr := g.FolderOwner(ctx)
	folders := map[string]boards.Folder{}
	if ferr == nil {
		list, err := g.Boards().Folders(ctx, folderOwner)
		if err == nil { // a failed folder lookup degrades to the plain list
			for _, f := range list {
				folders[f.ID] = f
			}
		}
	}
	info := func(name string, b boards.Board, rev int64, updated string) BoardInfo {
		out := boardInfo(who, name, b)
		out.Revision, out.UpdatedAt, out.TrashedAt = rev, updated, b.TrashedAt
		out.Folder = folderRef(folders[b.Folder])
		return out
	}
	out := []BoardInfo{}
	if trash {
		list, err := g.Boards().List(ctx)
		if err != nil {
			return nil, mapError(err)
		}
		for _, b := range list {
			if b.TrashedAt != nil && access.RoleOn(who, b) == identity.RoleOwner {
				out = append(out, info(b.Name, b, 0, ""))
			}
		}
		return out, nil
	}
	rows, err := s.store.List(ctx)
	if err != nil {
		return nil, mapError(err)
	}
	for _, r := range rows {
		b, _, err := g.Boards().Get(ctx, r.Name)
		if err != nil {
			return nil, mapError(err)
		}
		b.Name = r.Name
		row := info(r.Name, b, r.Revision, formatTime(r.UpdatedAt))
		row.UpdatedBy, row.UpdatedByName = string(r.UpdatedBy), r.UpdatedByName
		out = append(out, row)
	}
	return out, nil
}

// CreateBoardRequest is create_board: a new empty board, optionally
// titled, described and filed.
type CreateBoardRequest struct {
	Name, Title, Description, Folder string
	RequestID                        string
	Actor                            store.Actor
	Attribution                      store.Attribution
}

// CreatedBoard is create_board's answer; FolderWarning says why filing
// failed (the board is created all the same).
type CreatedBoard struct {
	BoardInfo
	FolderWarning string `json:"folderWarning,omitempty"`
}

// CreateBoard creates a board: the scene (as Create, with its checks and
// its creation quota), then its metadata.
func (s *Service) CreateBoard(ctx context.Context, r CreateBoardRequest) (*CreatedBoard, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	// May it create boards at all? Asked before the folder, so a bot
	// without canCreateBoards hears that, not that it lacks folders.
	if err := access.CanCreate(ctx); err != nil {
		return nil, err
	}
	title, err := boards.CheckTitle(r.Title)
	if err != nil {
		return nil, withPointer(err, "/title")
	}
	desc, err := boards.CheckDescription(r.Description)
	if err != nil {
		return nil, withPointer(err, "/description")
	}
	var folder boards.Folder
	if r.Folder != "" {
		folder, err = s.ownFolder(ctx, g, r.Folder)
		if err != nil {
			return nil, withPointer(err, "/folderId")
		}
	}
	created, err := s.Create(ctx, CreateRequest{Name: r.Name, RequestID: r.RequestID, Actor: r.Actor, Attribution: r.Attribution})
	if err != nil {
		return nil, err
	}
	st := g.Boards()
	b, err := st.SetTitle(ctx, r.Name, title)
	if err == nil {
		b, err = st.SetDescription(ctx, r.Name, desc)
	}
	if err != nil {
		return nil, mapError(err)
	}
	out := &CreatedBoard{}
	if folder.ID != "" {
		if b2, err := st.Move(ctx, r.Name, folder.ID); err != nil {
			out.FolderWarning = "the board was not filed: " + mapError(err).(*sceneerr.Error).Message
		} else {
			b = b2
		}
	}
	// The caller's principal was taken before the board existed: a bot's
	// grant does not list it among the boards it created yet (the binder
	// recorded it for its next call), so its role is worked out as it
	// will be then. The revision is the create's own, which a Head
	// through the guard would not see for that same reason.
	who := identity.Of(ctx)
	if who.Grant != nil {
		g := access.GrantOf(who.Grant)
		g.Created = append(slices.Clone(g.Created), r.Name)
		who.Grant = access.NewGrant(g)
	}
	out.BoardInfo = boardInfo(who, r.Name, b)
	out.Revision = created.Revision
	if out.FolderWarning == "" {
		out.Folder = folderRef(folder)
	}
	return out, nil
}

// ownFolder is the caller's folder with this id (not_found when it is
// not theirs).
func (s *Service) ownFolder(ctx context.Context, g BoardGuard, id string) (boards.Folder, error) {
	owner, err := g.FolderOwner(ctx)
	if err != nil {
		return boards.Folder{}, err
	}
	f, ok, err := g.Boards().Folder(ctx, id)
	if err != nil {
		return boards.Folder{}, mapError(err)
	}
	if !ok || f.Owner != owner {
		return boards.Folder{}, sceneerr.New(sceneerr.NotFound, "you have no folder %s (list_folders shows yours)", id).With("folderId", id)
	}
	return f, nil
}

func withPointer(err error, ptr string) error {
	e := mapError(err)
	if se, ok := e.(*sceneerr.Error); ok && se.Details["pointer"] == nil {
		return se.With("pointer", ptr)
	}
	return e
}

// BoardChange is what a rename or a new description did.
type BoardChange struct {
	Name                string `json:"name"`
	Title               string `json:"title"`
	PreviousTitle       string `json:"previousTitle,omitempty"`
	Description         string `json:"description,omitempty"`
	PreviousDescription string `json:"previousDescription,omitempty"`
}

// RenameBoard sets a board's title (one line, at most 120 characters,
// not empty). It is the board owner's, or their bot's where it writes.
func (s *Service) RenameBoard(ctx context.Context, name, title string) (*BoardChange, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	t, err := boards.CheckTitle(title)
	if err != nil {
		return nil, withPointer(err, "/title")
	}
	if t == "" {
		return nil, sceneerr.New(sceneerr.InvalidOperation, "title must not be empty").With("pointer", "/title")
	}
	before, b, err := s.changeBoard(ctx, g, name, func(st *boards.Store) (boards.Board, error) { return st.SetTitle(ctx, name, t) })
	if err != nil {
		return nil, err
	}
	return &BoardChange{Name: name, Title: b.Title, PreviousTitle: titleOf(before, name), Description: b.Description}, nil
}

// DescribeBoard sets (or with "" removes) a board's description: one
// paragraph of at most 300 characters. Same rule as RenameBoard.
func (s *Service) DescribeBoard(ctx context.Context, name, description string) (*BoardChange, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	d, err := boards.CheckDescription(description)
	if err != nil {
		return nil, withPointer(err, "/description")
	}
	before, b, err := s.changeBoard(ctx, g, name, func(st *boards.Store) (boards.Board, error) { return st.SetDescription(ctx, name, d) })
	if err != nil {
		return nil, err
	}
	return &BoardChange{Name: name, Title: titleOf(b, name), Description: b.Description, PreviousDescription: before.Description}, nil
}

// changeBoard changes the metadata of a board the caller manages: set
// makes the change in st. It returns the board's record before and after.
func (s *Service) changeBoard(ctx context.Context, g BoardGuard, name string, set func(st *boards.Store) (boards.Board, error)) (before, after boards.Board, err error) {
	if err := s.manageable(ctx, name); err != nil {
		return before, after, err
	}
	if before, _, err = g.Boards().Get(ctx, name); err != nil {
		return before, after, mapError(err)
	}
	if after, err = set(g.Boards()); err != nil {
		return before, after, mapError(err)
	}
	return before, after, nil
}

// manageable checks that the board exists and the caller may manage it.
func (s *Service) manageable(ctx context.Context, name string) error {
	if err := s.store.check(ctx, name, access.Manage); err != nil {
		return mapError(err)
	}
	_, err := s.store.Head(ctx, name) // a board is a stored scene
	return mapError(err)
}

// MoveBoard files a board into one of the caller's folders ("" takes it
// out). Reading the board is enough, but the folders are the board
// owner's: the caller's person must own it.
func (s *Service) MoveBoard(ctx context.Context, name, folderID string) (*BoardInfo, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	owner, err := g.FolderOwner(ctx)
	if err != nil {
		return nil, err
	}
	var folder boards.Folder
	if folderID != "" {
		if folder, err = s.ownFolder(ctx, g, folderID); err != nil {
			return nil, withPointer(err, "/folderId")
		}
	}
	head, err := s.store.Head(ctx, name)
	if err != nil {
		return nil, mapError(err)
	}
	b, _, err := g.Boards().Get(ctx, name)
	if err != nil {
		return nil, mapError(err)
	}
	if boardOwner := b.Owner; boardOwner != owner && !(boardOwner == "" && identity.Of(ctx).HostOwner) && !(boardOwner == "" && identity.Of(ctx).Admin && identity.Of(ctx).Person == "") {
		return nil, sceneerr.New(sceneerr.PermissionDenied, "%s is not yours to file: folders are the board owner's", name).With("name", name)
	}
	if b, err = g.Boards().Move(ctx, name, folder.ID); err != nil {
		return nil, mapError(err)
	}
	out := boardInfo(identity.Of(ctx), name, b)
	out.Revision, out.Folder = head.Revision, folderRef(folder)
	return &out, nil
}

// TrashBoard moves a board to the trash: hidden from every listing and
// from everyone but its owner, who can restore it. People only (bots do
// not delete).
func (s *Service) TrashBoard(ctx context.Context, name string) (*BoardInfo, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	who := identity.Of(ctx)
	if who.Grant != nil {
		return nil, sceneerr.New(sceneerr.PermissionDenied, "a connect token cannot delete boards; their owner can, in the editor")
	}
	if err := s.manageable(ctx, name); err != nil {
		return nil, err
	}
	b, err := g.Boards().Trash(ctx, name, who.Display())
	if err != nil {
		return nil, mapError(err)
	}
	return &BoardInfo{Name: name, Title: titleOf(b, name), Role: identity.RoleOwner, TrashedAt: b.TrashedAt}, nil
}

// RestoreBoard takes a board out of the trash (its owner's).
func (s *Service) RestoreBoard(ctx context.Context, name string) (*BoardInfo, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	if identity.Of(ctx).Grant != nil {
		return nil, sceneerr.New(sceneerr.PermissionDenied, "a connect token cannot restore boards")
	}
	if err := s.store.check(ctx, name, access.Manage); err != nil {
		return nil, mapError(err)
	}
	b, err := g.Boards().Restore(ctx, name)
	if err != nil {
		return nil, mapError(err)
	}
	out := boardInfo(identity.Of(ctx), name, b)
	return &out, nil
}

// Folders lists the caller's folders, each with the boards in it the
// caller reaches.
func (s *Service) Folders(ctx context.Context) ([]FolderInfo, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	owner, err := g.FolderOwner(ctx)
	if err != nil {
		return nil, err
	}
	list, err := g.Boards().Folders(ctx, owner)
	if err != nil {
		return nil, mapError(err)
	}
	all, err := g.Boards().List(ctx)
	if err != nil {
		return nil, mapError(err)
	}
	sees := g.Visible(ctx)
	out := make([]FolderInfo, 0, len(list))
	for _, f := range list {
		out = append(out, folderInfo(f, all, sees))
	}
	return out, nil
}

// CreatedFolder is create_folder's answer.
type CreatedFolder struct {
	FolderInfo
	Created bool `json:"created"`
}

// CreateFolder makes one of the caller's folders, or finds the one of
// that name (case-insensitively): idempotent, and only a new folder
// counts against the bot's hourly quota and the person's 100.
func (s *Service) CreateFolder(ctx context.Context, name string) (*CreatedFolder, error) {
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	n, err := boards.CheckFolderName(name)
	if err != nil {
		return nil, withPointer(err, "/name")
	}
	owner, err := g.FolderOwner(ctx)
	if err != nil {
		return nil, err
	}
	list, err := g.Boards().Folders(ctx, owner)
	if err != nil {
		return nil, mapError(err)
	}
	for _, f := range list {
		if strings.EqualFold(strings.TrimSpace(f.Name), n) {
			// The folder it already was: with the boards in it, as
			// list_folders shows them, not as if it were empty.
			all, err := g.Boards().List(ctx)
			if err != nil {
				return nil, mapError(err)
			}
			return &CreatedFolder{FolderInfo: folderInfo(f, all, g.Visible(ctx))}, nil
		}
	}
	who := identity.Of(ctx)
	if who.Grant != nil {
		if err := s.quotas.Take(ctx, quota.CreateFolder, who.String()); err != nil {
			return nil, err
		}
	}
	// The person's cap is counted under the board file's lock: creates at
	// the same moment cannot pass it together.
	f, created, err := g.Boards().CreateFolderUpTo(ctx, owner, n, MaxFoldersPerPerson)
	if who.Grant != nil && (err != nil || !created) {
		s.quotas.GiveBack(ctx, quota.CreateFolder, who.String()) // only a new folder counts
	}
	if err != nil {
		return nil, mapError(err)
	}
	return &CreatedFolder{FolderInfo: FolderInfo{ID: f.ID, Name: f.Name, Boards: []string{}}, Created: created}, nil
}

// BotInfo is get_bot_info's answer: what the caller may do, before it
// tries.
type BotInfo struct {
	Kind        string          `json:"kind"` // bot, person, host
	Name        string          `json:"name"`
	Person      string          `json:"person,omitempty"`
	Role        string          `json:"role,omitempty"`
	Permissions map[string]bool `json:"permissions"`
	Boards      []BoardInfo     `json:"boards"`
	Quotas      []quota.Usage   `json:"quotas"`
}

// BotInfo describes the caller: its permissions, the boards it reaches
// and its quotas with usage and reset times.
func (s *Service) BotInfo(ctx context.Context) (*BotInfo, error) {
	who := identity.Of(ctx)
	list, err := s.ListBoards(ctx, false)
	if err != nil {
		return nil, err
	}
	out := &BotInfo{Kind: "person", Name: who.Name, Person: who.PersonName, Boards: list,
		Permissions: map[string]bool{"canCreateBoards": access.CanCreate(ctx) == nil, "canCreateFolders": access.CanUseFolders(ctx) == nil},
		Quotas:      []quota.Usage{}}
	switch {
	case who.Grant != nil:
		out.Kind, out.Role = "bot", access.GrantOf(who.Grant).Role
		out.Quotas = append(out.Quotas, s.quotas.Usage(ctx, quota.CreateBoard, who.String()), s.quotas.Usage(ctx, quota.CreateFolder, who.String()))
	case who.Admin && who.Person == "":
		out.Kind = "host"
	}
	return out, nil
}
