package service

import (
	"context"
	"reflect"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Profiled is an Edit whose defaults come from the board's profile
// (set_board_profile): the service reads the profile of the write's board
// and gives it to the edit before it plans.
type Profiled interface {
	Edit
	WithProfile(p profile.Profile) Edit
}

// profiled gives e (and each step of Steps) the profile of board name
// when it takes one; the profile is read once, when some edit needs it.
func (s *Service) profiled(ctx context.Context, name string, e Edit) (Edit, error) {
	var p *profile.Profile
	var give func(e Edit) (Edit, error)
	give = func(e Edit) (Edit, error) {
		switch e := e.(type) {
		case Profiled:
			if p == nil {
				got, err := s.BoardProfile(ctx, name)
				if err != nil {
					return nil, err
				}
				p = &got
			}
			return e.WithProfile(*p), nil
		case Steps:
			out := make(Steps, len(e))
			for i, step := range e {
				var err error
				if out[i], err = give(step); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		return e, nil
	}
	return give(e)
}

// BoardProfile is the profile in force on board name: its folder's with
// the board's own over it, field by field. The zero Profile when neither
// has one, or when the host keeps no board metadata. It does not check
// the caller's access: a write asks before it plans, and
// ReadBoardProfile for a read-back.
func (s *Service) BoardProfile(ctx context.Context, name string) (profile.Profile, error) {
	g, err := s.boardGuard()
	if err != nil {
		return profile.Profile{}, nil
	}
	b, _, err := g.Boards().Get(ctx, name)
	if err != nil {
		return profile.Profile{}, mapError(err)
	}
	var under profile.Profile
	if b.Folder != "" {
		f, ok, err := g.Boards().Folder(ctx, b.Folder)
		if err != nil {
			return profile.Profile{}, mapError(err)
		}
		if ok && f.Profile != nil {
			under = *f.Profile
		}
	}
	if under.IsZero() {
		return b.Profile, nil
	}
	return under.Over(b.Profile), nil
}

// ProfileScope is where a profile is set: a board (by name) or a folder
// (by id), one of them.
type ProfileScope struct {
	Board  string `json:"board,omitempty"`
	Folder string `json:"folder,omitempty"`
}

// SetBoardProfileRequest is set_board_profile's input: Profile nil reads
// the scope's profile back; otherwise it replaces the scope's own (the
// zero Profile clears it).
type SetBoardProfileRequest struct {
	Scope   ProfileScope
	Profile *profile.Profile
}

// BoardProfileInfo is set_board_profile's answer: the scope's own profile
// and, for a board, the one in force there (its folder's under it).
type BoardProfileInfo struct {
	Scope     ProfileScope     `json:"scope"`
	Profile   profile.Profile  `json:"profile"`
	Effective *profile.Profile `json:"effective,omitempty"`
	Changed   bool             `json:"changed,omitempty"`
}

// SetBoardProfile sets or reads back a board's or a folder's profile. A
// board's is set by whoever may change its drawing (its owner or an
// editor: the profile is part of how it is drawn) and read by whoever
// may read it; a folder's is its owner's alone, to set and to read
// (folders are private to their owner). The profile is checked before
// anything is looked at, with a pointer under /profile.
func (s *Service) SetBoardProfile(ctx context.Context, r SetBoardProfileRequest) (*BoardProfileInfo, error) {
	if (r.Scope.Board == "") == (r.Scope.Folder == "") {
		return nil, opError("/scope", "give scope {board: name} or {folder: id}, one of them")
	}
	if r.Profile != nil {
		if err := r.Profile.Check("/profile"); err != nil {
			return nil, err
		}
	}
	g, err := s.boardGuard()
	if err != nil {
		return nil, err
	}
	if r.Scope.Folder != "" {
		return s.folderProfile(ctx, g, r)
	}
	name := r.Scope.Board
	action := access.Read
	if r.Profile != nil {
		action = access.Write
	}
	if err := s.store.check(ctx, name, action); err != nil {
		return nil, withPointer(err, "/scope/board")
	}
	if _, err := s.store.Head(ctx, name); err != nil { // a board is a stored scene
		return nil, withPointer(err, "/scope/board")
	}
	b, _, err := g.Boards().Get(ctx, name)
	if err != nil {
		return nil, mapError(err)
	}
	out := &BoardProfileInfo{Scope: r.Scope}
	if r.Profile != nil {
		before := b.Profile
		if b, err = g.Boards().SetProfile(ctx, name, *r.Profile); err != nil {
			return nil, mapError(err)
		}
		out.Changed = !reflect.DeepEqual(before, b.Profile)
	}
	eff, err := s.BoardProfile(ctx, name)
	if err != nil {
		return nil, err
	}
	out.Profile, out.Effective = b.Profile, &eff
	return out, nil
}

// folderProfile is SetBoardProfile on a folder: the caller's own.
func (s *Service) folderProfile(ctx context.Context, g BoardGuard, r SetBoardProfileRequest) (*BoardProfileInfo, error) {
	f, err := s.ownFolder(ctx, g, r.Scope.Folder)
	if err != nil {
		return nil, withPointer(err, "/scope/folder")
	}
	out := &BoardProfileInfo{Scope: r.Scope}
	before := f.Profile
	if r.Profile != nil {
		if f, err = g.Boards().SetFolderProfile(ctx, f.ID, *r.Profile); err != nil {
			return nil, mapError(err)
		}
		out.Changed = !reflect.DeepEqual(before, f.Profile)
	}
	if f.Profile != nil {
		out.Profile = *f.Profile
	}
	return out, nil
}

// visualQA is validate_scene's profile "visual-qa": the visual-qa rules
// over doc, checked against the profile of the board name. A board
// without one, or a document given rather than stored, is skipped:
// nothing is guessed.
func (s *Service) visualQA(ctx context.Context, name string, doc *scene.Document) ([]lint.Finding, string, error) {
	if name == "" {
		return nil, "no profile", nil
	}
	p, err := s.BoardProfile(ctx, name)
	if err != nil {
		return nil, "", err
	}
	if p.IsZero() {
		return nil, "no profile", nil
	}
	return lint.VisualQA(doc.Elements(), p), "", nil
}
