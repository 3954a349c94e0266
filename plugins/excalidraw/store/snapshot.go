package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"
)

// SnapshotAdd receives one file of a Snapshot: its path relative to the
// store's directory (slash-separated), its size, its modification time
// and its bytes.
type SnapshotAdd func(rel string, size int64, mtime time.Time, r io.Reader) error

// Snapshot hands add every file of every scene, verbatim: the scene
// file, its sidecar, its journal and its kept revisions. Each scene's
// files are read under its locks, as a write takes them (scene_busy
// after LockTimeout), so a commit of it is wholly in the snapshot or
// wholly not, even while another process writes. It changes nothing but
// what taking a lock does (the metadata directories made, leftover temp
// files of the scene swept). It returns how many scenes it took.
func (s *Store) Snapshot(ctx context.Context, add SnapshotAdd) (int, error) {
	names, err := s.snapshotNames()
	if err != nil {
		return 0, err
	}
	for i, name := range names {
		if err := s.snapshotScene(ctx, name, add); err != nil {
			return i, err
		}
	}
	return len(names), nil
}

// SceneFile reports whether rel, a slash-separated path relative to a
// store's directory, is one Snapshot takes, or a lock or temp file of
// the store: whoever copies the rest of the directory leaves these.
func SceneFile(rel string) bool {
	dir, base := path.Split(rel)
	if strings.Contains(base, tempInfix) {
		return true
	}
	switch dir {
	case "":
		return strings.HasSuffix(base, sceneExt)
	case metaDir + "/":
		return strings.HasSuffix(base, sidecarExt)
	}
	return strings.HasPrefix(dir, metaDir+"/"+backupsDir+"/") || strings.HasPrefix(dir, metaDir+"/"+journalDir+"/") ||
		strings.HasPrefix(dir, metaDir+"/"+locksDir+"/")
}

// snapshotNames is every scene name that has a file, a sidecar, a
// journal or a kept revision, sorted.
func (s *Store) snapshotNames() ([]string, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	seen := map[string]bool{}
	collect := func(dir *os.File, name func(entry string) (string, bool)) error {
		entries, err := s.fs.ReadDir(dir)
		if err != nil {
			return fsError("list for a snapshot", err)
		}
		for _, e := range entries {
			if n, ok := name(e); ok && ValidName(n) == nil {
				seen[n] = true
			}
		}
		return nil
	}
	if err := collect(s.root, func(e string) (string, bool) { return strings.CutSuffix(e, sceneExt) }); err != nil {
		return nil, err
	}
	d, err := s.openMetaDirs()
	if err != nil {
		return nil, err
	}
	defer d.close()
	if err := collect(d.meta, func(e string) (string, bool) { return strings.CutSuffix(e, sidecarExt) }); err != nil {
		return nil, err
	}
	if err := collect(d.journal, func(e string) (string, bool) { return strings.CutSuffix(e, journalExt) }); err != nil {
		return nil, err
	}
	if err := collect(d.backups, backupName); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// backupName is the scene name of a kept revision's file name.
func backupName(entry string) (string, bool) {
	rest, ok := strings.CutSuffix(entry, sceneExt)
	if !ok {
		if rest, ok = strings.CutSuffix(entry, corruptExt); !ok {
			return "", false
		}
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "", false
	}
	_, _, ok = parseBackup(rest[:i], entry)
	return rest[:i], ok
}

// snapshotScene hands add the files of one scene, under its locks.
func (s *Store) snapshotScene(ctx context.Context, name string, add SnapshotAdd) error {
	t, err := s.begin(ctx, name)
	if err != nil {
		return err
	}
	defer t.end()
	if err := t.snapshotFile(s.root, sceneFile(name), sceneFile(name), add); err != nil {
		return err
	}
	if err := t.snapshotFile(t.dirs.meta, sidecarFile(name), metaDir+"/"+sidecarFile(name), add); err != nil {
		return err
	}
	if err := t.snapshotFile(t.dirs.journal, journalFile(name), metaDir+"/"+journalDir+"/"+journalFile(name), add); err != nil {
		return err
	}
	backups, err := t.listBackups()
	if err != nil {
		return err
	}
	slices.Reverse(backups)
	for _, b := range backups {
		if err := t.snapshotFile(t.dirs.backups, b.file, metaDir+"/"+backupsDir+"/"+b.file, add); err != nil {
			return err
		}
	}
	return nil
}

// snapshotFile hands add the regular file name in dir as rel; a missing
// one is left out, anything but a regular file is permission_denied.
func (t *txn) snapshotFile(dir *os.File, name, rel string, add SnapshotAdd) error {
	f, err := t.s.fs.OpenFile(dir, name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fsError("open "+rel, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fsError("stat "+rel, err)
	}
	if !info.Mode().IsRegular() {
		return errorf(CodePermissionDenied, "%s is not a regular file", rel)
	}
	return add(rel, info.Size(), info.ModTime(), io.LimitReader(f, info.Size()))
}
