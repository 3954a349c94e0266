package boards

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
	"go.uber.org/zap"
)

// Create records a new board. Name must be a valid scene name; Title,
// Description, Members and Folder are checked as by the setters (the
// folder must exist); the times are stamped, and the board starts outside
// the trash. A record for the name already existing is already_exists:
// change it with the setters instead. The scene itself is not touched.
func (s *Store) Create(ctx context.Context, b Board) (Board, error) {
	b, err := checkBoard(b)
	if err != nil {
		return Board{}, err
	}
	var out Board
	err = s.update(ctx, func(f *boardsFile, now time.Time) (bool, error) {
		i, found := f.findBoard(b.Name)
		if found {
			return false, sceneerr.New(sceneerr.AlreadyExists, "board %q already exists; change its title, members or folder instead of creating it", b.Name).
				With("name", b.Name)
		}
		if b.Folder != "" && f.findFolder(b.Folder) < 0 {
			return false, unknownFolder(b.Folder)
		}
		b.CreatedAt, b.UpdatedAt = now, now
		f.Boards = slices.Insert(f.Boards, i, b)
		out = b.clone()
		return true, nil
	})
	if err != nil {
		return Board{}, err
	}
	s.log.Debug("board created", zap.String("name", out.Name), zap.String("owner", out.Owner))
	return out, nil
}

// checkBoard normalizes and checks what Create is given.
func checkBoard(b Board) (Board, error) {
	if err := checkName(b.Name); err != nil {
		return Board{}, err
	}
	var err error
	if b.Title, err = CheckTitle(b.Title); err != nil {
		return Board{}, err
	}
	if b.Description, err = CheckDescription(b.Description); err != nil {
		return Board{}, err
	}
	if b.Owner != "" {
		if err := checkPerson("the owner", b.Owner); err != nil {
			return Board{}, err
		}
	}
	for id, role := range b.Members {
		if err := checkPerson("a member", id); err != nil {
			return Board{}, err
		}
		if id == b.Owner {
			return Board{}, ownerNotMember(b.Name, id)
		}
		if err := CheckRole(role); err != nil {
			return Board{}, err
		}
	}
	b.Members = maps.Clone(b.Members)
	if len(b.Members) == 0 {
		b.Members = nil
	}
	b.TrashedAt, b.TrashedBy = nil, ""
	return b, nil
}

// Ensure returns the record of the board name, first creating the default
// one (owned by owner, "" for the host's owner; created by createdBy) if
// there is none: for a scene created without metadata. An existing record
// is returned as it is.
func (s *Store) Ensure(ctx context.Context, name, owner, createdBy string) (Board, error) {
	if err := checkName(name); err != nil {
		return Board{}, err
	}
	if owner != "" {
		if err := checkPerson("the owner", owner); err != nil {
			return Board{}, err
		}
	}
	if b, ok, err := s.Get(ctx, name); err != nil || ok {
		return b, err
	}
	var out Board
	err := s.update(ctx, func(f *boardsFile, now time.Time) (bool, error) {
		i, found := f.findBoard(name)
		if !found {
			f.Boards = slices.Insert(f.Boards, i, Board{Name: name, Owner: owner, CreatedBy: createdBy, CreatedAt: now, UpdatedAt: now})
		}
		out = f.Boards[i].clone()
		return !found, nil
	})
	if err != nil {
		return Board{}, err
	}
	return out, nil
}

// SetTitle sets the board's title (see CheckTitle; "" shows the name).
func (s *Store) SetTitle(ctx context.Context, name, title string) (Board, error) {
	title, err := CheckTitle(title)
	if err != nil {
		return Board{}, err
	}
	return s.change(ctx, name, func(b *Board, _ *boardsFile, _ time.Time) (bool, error) {
		if b.Title == title {
			return false, nil
		}
		b.Title = title
		return true, nil
	})
}

// SetDescription sets the board's description (see CheckDescription).
func (s *Store) SetDescription(ctx context.Context, name, desc string) (Board, error) {
	desc, err := CheckDescription(desc)
	if err != nil {
		return Board{}, err
	}
	return s.change(ctx, name, func(b *Board, _ *boardsFile, _ time.Time) (bool, error) {
		if b.Description == desc {
			return false, nil
		}
		b.Description = desc
		return true, nil
	})
}

// SetMember gives person the role identity.RoleEditor or
// identity.RoleViewer on the board, or with role "" takes the person off
// it (a person who is no member is no error). The owner cannot be made a
// member, and "owner" is not a member's role: see SetOwner.
func (s *Store) SetMember(ctx context.Context, name, person, role string) (Board, error) {
	if err := checkPerson("a member", person); err != nil {
		return Board{}, err
	}
	if role != "" {
		if err := CheckRole(role); err != nil {
			return Board{}, err
		}
	}
	return s.change(ctx, name, func(b *Board, _ *boardsFile, _ time.Time) (bool, error) {
		if person == b.Owner {
			return false, ownerNotMember(b.Name, person)
		}
		if b.Members[person] == role {
			return false, nil
		}
		if role == "" {
			delete(b.Members, person)
			if len(b.Members) == 0 {
				b.Members = nil
			}
			return true, nil
		}
		if b.Members == nil {
			b.Members = map[string]string{}
		}
		b.Members[person] = role
		return true, nil
	})
}

// SetOwner makes person the board's owner ("" gives it back to the host's
// owner). The previous owner, if a person, stays on the board as an
// editor; the new owner stops being a member.
func (s *Store) SetOwner(ctx context.Context, name, person string) (Board, error) {
	if person != "" {
		if err := checkPerson("the owner", person); err != nil {
			return Board{}, err
		}
	}
	return s.change(ctx, name, func(b *Board, _ *boardsFile, _ time.Time) (bool, error) {
		if b.Owner == person {
			return false, nil
		}
		if b.Owner != "" {
			if b.Members == nil {
				b.Members = map[string]string{}
			}
			b.Members[b.Owner] = identity.RoleEditor
		}
		delete(b.Members, person)
		if len(b.Members) == 0 {
			b.Members = nil
		}
		b.Owner = person
		return true, nil
	})
}

// Move files the board in the folder folderID, or in none with "". An
// unknown folder is not_found.
func (s *Store) Move(ctx context.Context, name, folderID string) (Board, error) {
	return s.change(ctx, name, func(b *Board, f *boardsFile, _ time.Time) (bool, error) {
		if folderID != "" && f.findFolder(folderID) < 0 {
			return false, unknownFolder(folderID)
		}
		if b.Folder == folderID {
			return false, nil
		}
		b.Folder = folderID
		return true, nil
	})
}

// Trash puts the board in the trash, recording when and by whom (by, for
// display). A board already in the trash stays as it was trashed.
func (s *Store) Trash(ctx context.Context, name, by string) (Board, error) {
	return s.change(ctx, name, func(b *Board, _ *boardsFile, now time.Time) (bool, error) {
		if b.TrashedAt != nil {
			return false, nil
		}
		b.TrashedAt, b.TrashedBy = &now, by
		return true, nil
	})
}

// Restore takes the board out of the trash; a board that is not in it is
// invalid_operation.
func (s *Store) Restore(ctx context.Context, name string) (Board, error) {
	return s.change(ctx, name, func(b *Board, _ *boardsFile, _ time.Time) (bool, error) {
		if b.TrashedAt == nil {
			return false, sceneerr.New(sceneerr.InvalidOperation, "board %q is not in the trash; only a trashed board can be restored", b.Name).
				With("name", b.Name)
		}
		b.TrashedAt, b.TrashedBy = nil, ""
		return true, nil
	})
}

// Forget removes the board's record, as when its scene is purged, and
// reports whether there was one.
func (s *Store) Forget(ctx context.Context, name string) (bool, error) {
	if err := checkName(name); err != nil {
		return false, err
	}
	var removed bool
	err := s.update(ctx, func(f *boardsFile, _ time.Time) (bool, error) {
		i, found := f.findBoard(name)
		if found {
			f.Boards = slices.Delete(f.Boards, i, i+1)
			removed = true
		}
		return found, nil
	})
	return removed && err == nil, err
}

// change applies fn to the record of name under the file's lock, first
// making the default record (owned by the host's owner) if there is none.
// fn reports whether it changed the record; the file is written when it
// did, or when the record is new, and UpdatedAt is stamped on a change.
func (s *Store) change(ctx context.Context, name string, fn func(b *Board, f *boardsFile, now time.Time) (bool, error)) (Board, error) {
	if err := checkName(name); err != nil {
		return Board{}, err
	}
	var out Board
	err := s.update(ctx, func(f *boardsFile, now time.Time) (bool, error) {
		i, found := f.findBoard(name)
		if !found {
			f.Boards = slices.Insert(f.Boards, i, Board{Name: name, CreatedAt: now, UpdatedAt: now})
		}
		b := &f.Boards[i]
		changed, err := fn(b, f, now)
		if err != nil {
			return false, err
		}
		if changed {
			b.UpdatedAt = now
		}
		out = b.clone()
		return changed || !found, nil
	})
	if err != nil {
		return Board{}, err
	}
	return out, nil
}

// update runs fn on the document's current contents under its lock and
// writes the result when fn says so. now is the one time stamp of the
// change.
func (s *Store) update(ctx context.Context, fn func(f *boardsFile, now time.Time) (bool, error)) error {
	wrote := false
	err := statefile.UpdateDoc(ctx, s.doc, parseFile, func(f boardsFile) (boardsFile, bool, error) {
		write, err := fn(&f, s.now().UTC())
		if err != nil || !write {
			return f, false, err
		}
		f.sort()
		if f.Boards == nil {
			f.Boards = []Board{}
		}
		if f.Folders == nil {
			f.Folders = []Folder{}
		}
		wrote = true
		return f, true, nil
	})
	if wrote {
		// A stat would notice the renamed file too (a version read the
		// new row version); this covers a new file reusing the old one's
		// inode, size and time.
		s.view.Invalidate()
	}
	return err
}

func unknownFolder(id string) error {
	return sceneerr.New(sceneerr.NotFound, "folder %q does not exist; create it first or file the board in no folder", id).With("folder", id)
}

func ownerNotMember(name, person string) error {
	return sceneerr.New(sceneerr.InvalidOperation, "%q owns board %q; the owner has every right and is not listed among the members (transfer ownership to change it)", person, name).
		With("name", name)
}
