package store

import (
	"errors"
	"io/fs"
	"os"
)

// metaDirs are the handles of .dsh-excalidraw and its subdirectories for one
// operation. They are opened per operation rather than kept, so that a
// metadata directory deleted and recreated while the store is open is simply
// picked up again.
type metaDirs struct {
	meta, backups, locks, journal *os.File
}

func (d *metaDirs) close() {
	for _, f := range []*os.File{d.meta, d.backups, d.locks, d.journal} {
		if f != nil {
			f.Close()
		}
	}
}

// openMetaDirs opens (creating 0700 as needed) .dsh-excalidraw, backups,
// locks and journal. Each is opened O_DIRECTORY|O_NOFOLLOW relative to its parent's
// handle, so a symlink in their place is permission_denied.
func (s *Store) openMetaDirs() (*metaDirs, error) {
	d := &metaDirs{}
	var err error
	if d.meta, err = s.ensureDir(s.root, metaDir); err != nil {
		return nil, err
	}
	if d.backups, err = s.ensureDir(d.meta, backupsDir); err != nil {
		d.close()
		return nil, err
	}
	if d.locks, err = s.ensureDir(d.meta, locksDir); err != nil {
		d.close()
		return nil, err
	}
	if d.journal, err = s.ensureDir(d.meta, journalDir); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// ensureDir opens parent/name as a directory, creating it first if missing.
//
//  1. Lstat it: a symlink is refused with a clear message.
//  2. Missing: mkdir 0700 (EEXIST from a concurrent creator is fine).
//  3. Open with O_DIRECTORY|O_NOFOLLOW (this is the check that holds even if
//     a symlink appears after step 1) and fstat the handle.
func (s *Store) ensureDir(parent *os.File, name string) (*os.File, error) {
	info, err := s.fs.Lstat(parent, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := s.fs.Mkdir(parent, name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fsError("create "+name, err)
		}
	case err != nil:
		return nil, fsError("stat "+name, err)
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, errorf(CodePermissionDenied, "%s is a symlink", label(parent, name))
	}
	dir, err := s.fs.OpenDir(parent, name)
	if err != nil {
		return nil, fsError("open "+name, err)
	}
	if info, err := dir.Stat(); err != nil || !info.IsDir() {
		dir.Close()
		return nil, errorf(CodePermissionDenied, "%s is not a directory", label(parent, name))
	}
	return dir, nil
}
