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
