package boards

import (
	"context"
	"reflect"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
)

// SetProfile replaces the board's own profile with p (the zero Profile
// removes it), after profile.Check (its pointers under "/profile").
func (s *Store) SetProfile(ctx context.Context, name string, p profile.Profile) (Board, error) {
	if err := p.Check("/profile"); err != nil {
		return Board{}, err
	}
	p = p.Clone()
	return s.change(ctx, name, func(b *Board, _ *boardsFile, _ time.Time) (bool, error) {
		if reflect.DeepEqual(b.Profile, p) {
			return false, nil
		}
		b.Profile = p
		return true, nil
	})
}

// SetFolderProfile replaces the folder's profile with p (the zero
// Profile removes it), after profile.Check. An unknown id is not_found.
func (s *Store) SetFolderProfile(ctx context.Context, id string, p profile.Profile) (Folder, error) {
	if err := p.Check("/profile"); err != nil {
		return Folder{}, err
	}
	p = p.Clone()
	var out Folder
	err := s.update(ctx, func(file *boardsFile, _ time.Time) (bool, error) {
		i := file.findFolder(id)
		if i < 0 {
			return false, unknownFolder(id)
		}
		fo := &file.Folders[i]
		var next *profile.Profile
		if !p.IsZero() {
			next = &p
		}
		changed := !reflect.DeepEqual(fo.Profile, next)
		fo.Profile = next
		out = fo.clone()
		return changed, nil
	})
	if err != nil {
		return Folder{}, err
	}
	return out, nil
}
