package boards

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"go.uber.org/zap"
)

// folderIDPrefix marks folder ids, as "per_" marks people.
const folderIDPrefix = "fld_"

// CreateFolder makes a folder called name (see CheckFolderName) for the
// person owner. It is idempotent: if owner already has a folder of that
// name, ignoring case, that folder is returned with created false. Two
// people may each have a folder of the same name.
func (s *Store) CreateFolder(ctx context.Context, owner, name string) (f Folder, created bool, err error) {
	return s.CreateFolderUpTo(ctx, owner, name, 0)
}

// CreateFolderUpTo is CreateFolder with a cap: owner may have at most max
// folders (0: no cap). The count is taken under the document's lock, so
// concurrent creates cannot pass it; at the cap a new name is
// rate_limited (not retryable: time does not lift it), while a name the
// owner already has is still found.
func (s *Store) CreateFolderUpTo(ctx context.Context, owner, name string, max int) (f Folder, created bool, err error) {
	if err := checkPerson("a folder's owner", owner); err != nil {
		return Folder{}, false, err
	}
	if name, err = CheckFolderName(name); err != nil {
		return Folder{}, false, err
	}
	err = s.update(ctx, func(file *boardsFile, now time.Time) (bool, error) {
		if i := file.folderNamed(owner, name, ""); i >= 0 {
			f = file.Folders[i]
			return false, nil
		}
		if max > 0 {
			have := 0
			for _, fo := range file.Folders {
				if fo.Owner == owner {
					have++
				}
			}
			if have >= max {
				return false, sceneerr.New(sceneerr.RateLimited, "a person has at most %d folders; this one has %d", max, have).
					With("limit", "folders").With("max", max).With("retryable", false)
			}
		}
		f = Folder{ID: file.newFolderID(), Name: name, Owner: owner, CreatedAt: now}
		file.Folders = append(file.Folders, f)
		created = true
		return true, nil
	})
	if err != nil {
		return Folder{}, false, err
	}
	if created {
		s.log.Debug("folder created", zap.String("id", f.ID), zap.String("owner", owner))
	}
	return f, created, nil
}

// RenameFolder renames the folder id (see CheckFolderName). Its owner
// having another folder of the new name, ignoring case, is already_exists;
// an unknown id is not_found.
func (s *Store) RenameFolder(ctx context.Context, id, name string) (Folder, error) {
	name, err := CheckFolderName(name)
	if err != nil {
		return Folder{}, err
	}
	var out Folder
	err = s.update(ctx, func(file *boardsFile, _ time.Time) (bool, error) {
		i := file.findFolder(id)
		if i < 0 {
			return false, unknownFolder(id)
		}
		fo := &file.Folders[i]
		if j := file.folderNamed(fo.Owner, name, id); j >= 0 {
			return false, sceneerr.New(sceneerr.AlreadyExists, "the owner already has a folder named %q (%s); folder names are unique per owner, ignoring case",
				file.Folders[j].Name, file.Folders[j].ID).With("folder", file.Folders[j].ID)
		}
		out = *fo
		if fo.Name == name {
			return false, nil
		}
		fo.Name = name
		out = *fo
		return true, nil
	})
	if err != nil {
		return Folder{}, err
	}
	return out, nil
}

// DeleteFolder removes the folder id; the boards filed in it are then in
// no folder (nothing else about them changes, as a folder grants no
// access). An unknown id is not_found.
func (s *Store) DeleteFolder(ctx context.Context, id string) error {
	return s.update(ctx, func(file *boardsFile, now time.Time) (bool, error) {
		i := file.findFolder(id)
		if i < 0 {
			return false, unknownFolder(id)
		}
		file.Folders = append(file.Folders[:i], file.Folders[i+1:]...)
		for j := range file.Boards {
			if b := &file.Boards[j]; b.Folder == id {
				b.Folder, b.UpdatedAt = "", now
			}
		}
		return true, nil
	})
}

// folderNamed is the index of owner's folder called name ignoring case,
// other than the folder except, or -1.
func (f *boardsFile) folderNamed(owner, name, except string) int {
	for i, fo := range f.Folders {
		if fo.Owner == owner && fo.ID != except && strings.EqualFold(strings.TrimSpace(fo.Name), name) {
			return i
		}
	}
	return -1
}

// newFolderID is a fresh "fld_" id: 48 random bits, drawn again in the
// all but impossible case that the file already has it.
func (f *boardsFile) newFolderID() string {
	for {
		var b [6]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		id := folderIDPrefix + hex.EncodeToString(b[:])
		if f.findFolder(id) < 0 {
			return id
		}
	}
}
