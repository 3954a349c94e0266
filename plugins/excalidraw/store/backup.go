package store

import (
	"cmp"
	"errors"
	"io/fs"
	"slices"

	"go.uber.org/zap"
)

// Backups are whole copies of superseded revisions,
// backups/<name>.<revision>.excalidraw, written before the scene file is
// replaced (save step 3). They are what recovery restores when a scene file
// is found corrupt, and the history a person can dig in. Superseded bytes that
// did not parse are kept too, as <name>.<revision>.corrupt, so nothing on
// disk is ever silently thrown away, but recovery never picks them.

// backupEntry is one backup of the txn's scene.
type backupEntry struct {
	rev   int64
	valid bool
	file  string
}

// listBackups returns the scene's backups, newest revision first.
func (t *txn) listBackups() ([]backupEntry, error) {
	names, err := t.s.fs.ReadDir(t.dirs.backups)
	if err != nil {
		return nil, fsError("list backups", err)
	}
	var out []backupEntry
	for _, n := range names {
		if rev, valid, ok := parseBackup(t.name, n); ok {
			out = append(out, backupEntry{rev: rev, valid: valid, file: n})
		}
	}
	slices.SortFunc(out, func(a, b backupEntry) int {
		if c := cmp.Compare(b.rev, a.rev); c != 0 {
			return c
		}
		return cmp.Compare(b2i(b.valid), b2i(a.valid))
	})
	return out, nil
}

// backup is save step 3 for cur: the previous bytes reach backups/
// durably before the rename replaces them. When the file provably still
// holds them (cur.stamped, and unchanged since), it is linked there, so
// nothing is copied or written but a directory entry; otherwise (a
// filesystem without hard links, a file that changed, a corrupt one) its
// bytes are copied. It reports the backup it linked, which the caller
// removes if the commit fails before the rename.
func (t *txn) backup(cur *current) (linked string, err error) {
	valid := cur.corrupt == nil
	if valid && cur.stamped {
		if name, ok := t.linkBackup(cur); ok {
			return name, nil
		}
	}
	return "", t.writeBackup(cur.data, cur.meta.Revision, valid)
}

// linkBackup links the scene file as the backup of cur's revision, and
// keeps the link only if the file is still the one cur read (its inode,
// size and mtime: a write changes the mtime, cur.stamp being settled);
// the backups directory is then fsynced. A backup of that name already
// linked to the file (a commit that failed or crashed before its rename)
// is kept as it is.
func (t *txn) linkBackup(cur *current) (string, bool) {
	name := backupFile(t.name, cur.meta.Revision, true)
	err := t.s.fs.Link(t.s.root, sceneFile(t.name), t.dirs.backups, name)
	created := err == nil
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return "", false // no hard links here: copy
	}
	bi, berr := t.s.fs.Lstat(t.dirs.backups, name)
	si, serr := t.s.fs.Lstat(t.s.root, sceneFile(t.name))
	b, bok := stampOf(bi)
	sc, sok := stampOf(si)
	if berr != nil || serr != nil || !bok || !sok || b.dev != sc.dev || b.ino != sc.ino || sc.nlink != 2 ||
		sc.ino != cur.stamp.ino || sc.dev != cur.stamp.dev || sc.size != cur.stamp.size || sc.mtime != cur.stamp.mtime {
		if created {
			t.s.removeQuietly(t.dirs.backups, name)
		}
		return "", false
	}
	// The link's directory entry made durable as a copy's would be (best
	// effort, the fsync shared with concurrent commits: see syncDir).
	t.s.syncDir(t.dirs.backups)
	if !created {
		name = "" // not this commit's to remove
	}
	return name, true
}

// ownBackupLink reports whether info, a scene file with two links, is
// linked from one of the scene's backups: the second link a commit makes
// before it replaces the file (linkBackup). That backup is named after the
// revision the file holds, which the sidecar still says until the rename
// (it is renamed after the scene file), so one lstat answers; only without
// a sidecar, or when that backup is not the file, are the scene's backups
// looked for in the directory every scene's backups share, newest first.
func (s *Store) ownBackupLink(name string, info fs.FileInfo) bool {
	f, ok := stampOf(info)
	if !ok || s.fs == nil {
		return false
	}
	meta, err := s.fs.OpenDir(s.root, metaDir)
	if err != nil {
		return false
	}
	defer meta.Close()
	backups, err := s.fs.OpenDir(meta, backupsDir)
	if err != nil {
		return false
	}
	defer backups.Close()
	linkedAs := func(rev int64) bool {
		bi, err := s.fs.Lstat(backups, backupFile(name, rev, true))
		if err != nil || !bi.Mode().IsRegular() {
			return false
		}
		b, ok := stampOf(bi)
		return ok && b.dev == f.dev && b.ino == f.ino
	}
	if side, err := s.readSidecar(meta, name); err == nil && side.parsed != nil && linkedAs(side.parsed.Revision) {
		return true
	}
	names, err := s.fs.ReadDir(backups)
	if err != nil {
		return false
	}
	var revs []int64
	for _, n := range names {
		if rev, valid, ok := parseBackup(name, n); ok && valid {
			revs = append(revs, rev)
		}
	}
	slices.SortFunc(revs, func(a, b int64) int { return cmp.Compare(b, a) })
	return slices.ContainsFunc(revs, linkedAs)
}

// writeBackup stores data as the backup of revision rev (save step 3).
func (t *txn) writeBackup(data []byte, rev int64, valid bool) error {
	return t.s.writeAtomic(t.dirs.backups, backupFile(t.name, rev, valid), data, 0o600, false)
}

// newestValidBackup finds the highest-revision backup (at most maxRev) that
// is a regular file within the size limit and parses. ok is false if none.
func (t *txn) newestValidBackup(maxRev int64) (data []byte, rev int64, count int, ok bool, err error) {
	entries, err := t.listBackups()
	if err != nil {
		return nil, 0, 0, false, err
	}
	for _, e := range entries {
		if !e.valid || e.rev > maxRev {
			continue
		}
		data, info, err := t.s.fs.ReadFile(t.dirs.backups, e.file, t.s.opts.MaxSceneBytes)
		if err != nil || !info.Mode().IsRegular() || int64(len(data)) > t.s.opts.MaxSceneBytes {
			t.s.log.Warn("skipping unreadable backup", zap.String("backup", e.file), zap.Error(err))
			continue
		}
		n, err := t.s.opts.Codec.Inspect(data)
		if err != nil {
			t.s.log.Warn("skipping invalid backup", zap.String("backup", e.file), zap.Error(err))
			continue
		}
		return data, e.rev, n, true, nil
	}
	return nil, 0, 0, false, nil
}

// pruneBackups removes the backup that fell out of the KeepBackups window
// when revision prevRev was backed up. One unlink per save keeps the cost
// constant; gaps left by earlier settings are not hunted down.
func (t *txn) pruneBackups(prevRev int64) {
	keep := int64(t.s.opts.KeepBackups)
	if keep < 0 || prevRev-keep < 1 {
		return
	}
	err := t.s.fs.Remove(t.dirs.backups, backupFile(t.name, prevRev-keep, true))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.s.log.Warn("prune backup", zap.String("name", t.name), zap.Error(err))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
