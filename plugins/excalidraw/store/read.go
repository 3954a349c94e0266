package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"time"

	"go.uber.org/zap"
)

// Read returns a scene and its revision record. It takes neither the
// name's queue slot nor the cross-process lock, so no writer, live, slow or
// dead, can make it wait: it reads the sidecar, then the scene file, and
// returns them if the file's SHA-256 and length are the sidecar's.
//
// That check is enough because both files are only ever replaced whole,
// by rename, and their hash ties them together: a pair that agrees is the
// sidecar's revision with exactly that revision's bytes, as it was when the
// sidecar was read. Commit renames the scene file first and the sidecar
// after it (a rollback puts the file back first too), so a commit or
// rollback landing between the two reads shows as a disagreement, never as
// a torn pair. A disagreement is resolved in this order (readSettle):
//
//  1. If the sidecar changed while the file was read, a commit landed
//     meanwhile: read both again at once (up to readSpins times).
//  2. Otherwise try to take the scene's locks without waiting. If they are
//     free, nobody is writing, so the disagreement is real (an edit by hand,
//     a crash between the two renames, a missing or corrupt sidecar, a
//     corrupt file): repair it under the lock exactly as writes do (see
//     load: the file wins as the next revision by "recovery", or a corrupt
//     file is restored from its newest valid backup) and return the result.
//     This is the one case where a read writes.
//  3. If they are taken, a writer is most likely between its two renames:
//     back off briefly (1 ms doubling, readWaits times, about 30 ms in all)
//     and read again.
//  4. Still disagreeing and still locked: answer without waiting any
//     longer (readHeld).
//
// Read observes ctx at its start and while backing off. A corrupt file
// that cannot be restored is corrupt_scene; a missing one is not_found.
//
// One window is beyond a reader's sight: commit reads its file back only
// after renaming the sidecar, so between those steps a pair agrees while
// the write may still fail its read-back and be rolled back (io_error), and
// a read there returns a revision that then never was (its number is given
// to the next commit). The read-back fails only on an I/O or codec fault.
func (s *Store) Read(ctx context.Context, name string) (*Scene, error) {
	var sc *Scene
	err := s.reading(ctx, name, func(dirs *metaDirs) (err error) {
		sc, err = s.readSettle(ctx, dirs, name)
		return err
	})
	return sc, err
}

// reading runs a lock-free read of name: the name checked, ctx not done,
// the store open for the duration, and all metadata directories open as a
// write would open them (a symlink in place of any of them is refused by
// reads too; backups/ is where readHeld and ReadRevision look).
func (s *Store) reading(ctx context.Context, name string, read func(*metaDirs) error) error {
	if err := ValidName(name); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return newError(CodeSceneBusy, "cancelled before start", err)
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	dirs, err := s.openMetaDirs()
	if err != nil {
		return err
	}
	defer dirs.close()
	return read(dirs)
}

// How long a read looks again before answering from what it has: readSpins
// immediate re-reads after the sidecar moved, readWaits back-offs of 1, 2,
// 4, ... ms while the scene is locked and its pair disagrees.
const (
	readSpins = 16
	readWaits = 5
)

// pair is a scene file and the sidecar read just before it, without locks.
type pair struct {
	side sidecarState
	data []byte
	info fs.FileInfo
	sha  string
	at   time.Time // before the scene file was opened
}

// agrees reports whether the sidecar describes exactly the file's bytes.
func (p *pair) agrees() bool {
	sc := p.side.parsed
	return sc != nil && sc.SHA256 == p.sha && sc.ByteLength == int64(len(p.data))
}

// readPair reads the sidecar, then the scene file; fs.ErrNotExist means the
// scene file is absent.
func (s *Store) readPair(dirs *metaDirs, name string) (*pair, error) {
	side, err := s.readSidecar(dirs.meta, name)
	if err != nil {
		return nil, err
	}
	at := time.Now()
	data, info, err := s.readScene(name)
	if err != nil {
		return nil, err
	}
	return &pair{side: side, data: data, info: info, sha: sha256Hex(data), at: at}, nil
}

// readSettle is Read's protocol after the directories are open.
func (s *Store) readSettle(ctx context.Context, dirs *metaDirs, name string) (*Scene, error) {
	backoff := time.Millisecond
	spins, waits := 0, 0
	for {
		p, err := s.readPair(dirs, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, notFoundError(name)
		case err != nil:
			return nil, err
		case p.agrees():
			m := p.side.parsed.meta()
			s.remember(name, p.side.raw, p.side.parsed, p.info, p.at)
			return &Scene{Meta: m, Data: p.data}, nil
		case waits == readWaits:
			return s.readHeld(dirs, name, p)
		}
		again, err := s.readSidecar(dirs.meta, name)
		if err != nil {
			return nil, err
		}
		if moved := !bytes.Equal(again.raw, p.side.raw) || (again.raw == nil) != (p.side.raw == nil); moved && spins < readSpins {
			spins++
			continue
		}
		if sc, ok, err := s.repairIfFree(name); ok || err != nil {
			return sc, err
		}
		waits++
		if err := sleepCtx(ctx, backoff); err != nil {
			return nil, newError(CodeSceneBusy, "gave up waiting for scene "+name+" to settle", err).with("name", name)
		}
		backoff *= 2
	}
}

// repairIfFree loads name under its locks, reconciling or restoring as
// every locked operation does, if the locks can be had without waiting; ok
// is false (and nothing was done) if they are taken.
//
// If the locks cannot be taken at all (a read-only directory, a lock file
// that is not a regular file, the store closing), the read is not failed
// for it: ok is false and the caller answers without repairing, as when
// they are taken.
func (s *Store) repairIfFree(name string) (sc *Scene, ok bool, err error) {
	t, ok, err := s.tryBegin(name)
	if err != nil {
		s.log.Warn("cannot take the scene's lock to repair it; reading without repairing",
			zap.String("name", name), zap.Error(err))
		return nil, false, nil
	}
	if !ok {
		return nil, false, nil
	}
	defer t.end()
	cur, err := t.load()
	switch {
	case err != nil:
		return nil, true, err
	case !cur.exists:
		return nil, true, notFoundError(name)
	case cur.corrupt != nil:
		return nil, true, corruptError(cur)
	}
	return &Scene{Meta: cur.meta, Data: cur.data}, true, nil
}

// readHeld answers a read whose pair p still disagrees while someone else
// holds the scene's lock, from what is on disk, without repairing (that
// would need the lock) or waiting:
//
//  1. If the sidecar's own revision has a backup with the sidecar's hash,
//     return that backup with the sidecar's record. This is the usual case:
//     a writer has renamed the next revision's file into place and not yet
//     its sidecar, and it wrote the backup of the revision it replaces
//     before either. So the answer is the last committed revision, whole,
//     as it was when the sidecar was read.
//  2. If the file does not parse, corrupt_scene with the last revision the
//     store issued; whoever holds the lock (or the next read after it)
//     restores it from a backup.
//  3. Otherwise the file is one the store has not recorded (edited by hand,
//     or a save whose sidecar could not be written and is being rolled
//     back). Return it as it is, with the store's best knowledge: its own
//     SHA-256, length and element count, so the hash is always that of the
//     bytes returned; the last revision the store issued, so that a save
//     based on this read is fenced against whatever that revision becomes
//     (it becomes the next one by "recovery" once repaired, and such a save
//     then conflicts instead of overwriting); UpdatedBy "recovery",
//     UpdatedAt the file's mtime, and as PreviousRevision and
//     PreviousSHA256 the sidecar's revision and hash, the recorded state
//     the file departs from (so Revision equals PreviousRevision). This is
//     the one answer whose revision's recorded bytes are not the bytes
//     returned; the next locked operation records them as a revision of
//     their own.
func (s *Store) readHeld(dirs *metaDirs, name string, p *pair) (*Scene, error) {
	if sc := p.side.parsed; sc != nil {
		data, info, err := s.fs.ReadFile(dirs.backups, backupFile(name, sc.Revision, true), s.opts.MaxSceneBytes)
		if err == nil && info.Mode().IsRegular() && int64(len(data)) == sc.ByteLength && sha256Hex(data) == sc.SHA256 {
			return &Scene{Meta: sc.meta(), Data: data}, nil
		}
	}
	// Only for its read-only helpers: this txn holds no locks and writes
	// nothing.
	last, err := (&txn{s: s, name: name, dirs: dirs}).lastRevision(p.side)
	if err != nil {
		return nil, err
	}
	count, perr := s.opts.Codec.Inspect(p.data)
	if perr != nil {
		return nil, newError(CodeCorruptScene, "scene "+name+" does not parse (another writer holds its lock; it is restored from a backup, if one is valid, once the lock is free)", perr).
			with("name", name).with("revision", last).with("sha256", p.sha)
	}
	m := Meta{Name: name, Revision: last, SHA256: p.sha, ByteLength: int64(len(p.data)), ElementCount: count,
		UpdatedAt: p.info.ModTime().UTC(), UpdatedBy: ActorRecovery}
	if sc := p.side.parsed; sc != nil {
		m.PreviousRevision, m.PreviousSHA256 = sc.Revision, sc.SHA256
	}
	s.log.Info("read an unrecorded scene file while its lock is held; not repaired now",
		zap.String("name", name), zap.Int64("revision", last))
	return &Scene{Meta: m, Data: p.data}, nil
}

func timeParse(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }
