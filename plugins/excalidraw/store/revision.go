package store

import (
	"context"
	"errors"
	"io/fs"
)

// ReadRevision returns the bytes of an earlier revision of a scene, from
// its backup, if that backup is still kept (KeepBackups) and was a valid
// scene when superseded: what a reader needs to tell what changed since
// (query's `after`). An absent one is not_found. It takes no lock: a
// backup is written once and never changed.
func (s *Store) ReadRevision(ctx context.Context, name string, rev int64) ([]byte, error) {
	var data []byte
	err := s.reading(ctx, name, func(dirs *metaDirs) error {
		b, info, err := s.fs.ReadFile(dirs.backups, backupFile(name, rev, true), s.opts.MaxSceneBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist) || (err == nil && !info.Mode().IsRegular()):
			return RevisionNotKept(name, rev)
		case err != nil:
			return fsError("read backup", err)
		}
		data = b
		return nil
	})
	return data, err
}

// RevisionNotKept is the not_found of ReadRevision for a revision the
// store does not (or no longer) keep.
func RevisionNotKept(name string, rev int64) *Error {
	return errorf(CodeNotFound, "revision %d of scene %s is not kept", rev, name).with("name", name).with("revision", rev)
}

// CommittedHere reports whether a scene's current revision (its
// sidecar's) is one this Store committed itself for a caller, as opposed
// to another process's commit or a repair by recovery: a watcher of the
// directory skips those, since the caller that made them announces them.
// It reads only the sidecar.
func (s *Store) CommittedHere(ctx context.Context, name string) bool {
	v, ok := s.mine.Load(name)
	if !ok {
		return false
	}
	here := false
	_ = s.reading(ctx, name, func(dirs *metaDirs) error {
		side, err := s.readSidecar(dirs.meta, name)
		here = err == nil && side.parsed != nil && side.parsed.Revision == v.(mineRecord).revision &&
			side.parsed.SHA256 == v.(mineRecord).sha
		return nil
	})
	return here
}

// mineRecord is the newest revision this Store committed for a scene.
type mineRecord struct {
	revision int64
	sha      string
}
