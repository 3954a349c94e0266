package store

import (
	"encoding/hex"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"time"

	"go.uber.org/zap"
)

// Temp files are "." + target + ".tmp-" + 16 hex digits, in the target's own
// directory (rename is only atomic within one filesystem). The leading dot
// hides them from listings and file watchers; the fixed-length suffix lets a
// sweep recognise exactly the temp files of one target.
const (
	tempInfix  = ".tmp-"
	tempSuffix = 16
)

func tempName(target string) string {
	var b [tempSuffix / 2]byte
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
	return "." + target + tempInfix + hex.EncodeToString(b[:])
}

// splitTemp returns the target a temp file name was made for.
func splitTemp(entry string) (target string, ok bool) {
	n := len(entry) - tempSuffix - len(tempInfix)
	if n < 2 || entry[0] != '.' || entry[n:n+len(tempInfix)] != tempInfix {
		return "", false
	}
	if _, err := hex.DecodeString(entry[n+len(tempInfix):]); err != nil {
		return "", false
	}
	return entry[1:n], true
}

// writeAtomic replaces dir/name with data so that a crash leaves either the
// old or the new content, never a mix. An error means the target was not
// replaced (the temp file is removed); success means the rename happened.
//
//  1. Create a temp file next to the target (O_EXCL, no symlinks).
//  2. Write all bytes and fsync them, so the rename cannot expose an empty
//     or partial file after a crash.
//  3. Rename over the target (or, with noReplace, fail if it exists).
//  4. Fsync the directory so the rename itself is durable. Best effort: the
//     new content is already in place and some filesystems refuse fsync on
//     directories, so a failure is logged, not returned.
//
// commit runs the same steps through prepareTemp, installTemp and syncDir
// so it can overlap independent fsyncs.
func (s *Store) writeAtomic(dir *os.File, name string, data []byte, perm fs.FileMode, noReplace bool) error {
	tmp, err := s.prepareTemp(dir, name, data, perm)
	if err != nil {
		return err
	}
	if err := s.installTemp(dir, tmp, name, noReplace); err != nil {
		return err
	}
	s.syncDir(dir)
	return nil
}

// prepareTemp is steps 1 and 2: it returns the name of a durable temp file
// holding data, or an error after removing it.
func (s *Store) prepareTemp(dir *os.File, name string, data []byte, perm fs.FileMode) (string, error) {
	return s.prepareTempTimed(dir, name, data, perm, false)
}

// prepareTempTimed is prepareTemp telling Options.Phases of the write and
// the fsync when timed (the scene's own file in a commit).
func (s *Store) prepareTempTimed(dir *os.File, name string, data []byte, perm fs.FileMode, timed bool) (string, error) {
	tmp := tempName(name)
	f, err := s.fs.OpenFile(dir, tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", stageError("create temp", label(dir, name), err)
	}
	if err := s.fillTemp(f, data, timed); err != nil {
		s.removeQuietly(dir, tmp)
		return "", stageError(err.stage, label(dir, name), err.err)
	}
	return tmp, nil
}

// installTemp is step 3; on failure the temp file is removed.
func (s *Store) installTemp(dir *os.File, tmp, name string, noReplace bool) error {
	if err := s.fs.Rename(dir, tmp, name, noReplace); err != nil {
		s.removeQuietly(dir, tmp)
		if noReplace && errors.Is(err, fs.ErrExist) {
			return newError(CodeAlreadyExists, label(dir, name)+" already exists", err)
		}
		return stageError("rename", label(dir, name), err)
	}
	return nil
}

// syncDir is step 4, shared with concurrent commits' (see dirSyncer).
func (s *Store) syncDir(dir *os.File) {
	if err := s.fsyncDir(dir); err != nil {
		s.log.Warn("directory fsync failed (best effort)", zap.String("dir", dir.Name()), zap.Error(err))
	}
}

type stagedErr struct {
	stage string
	err   error
}

// fillTemp is step 2 of writeAtomic; it always closes f.
func (s *Store) fillTemp(f *os.File, data []byte, timed bool) *stagedErr {
	var start time.Time
	if timed {
		start = s.phaseStart()
	}
	if _, err := s.fs.Write(f, data); err != nil {
		f.Close()
		return &stagedErr{"write", err}
	}
	start = s.phaseEnd(PhaseWrite, start)
	if err := s.fs.Sync(f); err != nil {
		f.Close()
		return &stagedErr{"fsync", err}
	}
	s.phaseEnd(PhaseFsync, start)
	if err := f.Close(); err != nil {
		return &stagedErr{"close", err}
	}
	return nil
}

func stageError(stage, target string, err error) *Error {
	e := fsError(stage+" "+target, err)
	if e.Code == CodeIOError {
		e.with("stage", stage)
	}
	return e
}

func (s *Store) removeQuietly(dir *os.File, name string) {
	if err := s.fs.Remove(dir, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("remove temp file", zap.String("file", label(dir, name)), zap.Error(err))
	}
}
