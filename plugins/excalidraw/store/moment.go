package store

import (
	"cmp"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// Moment is every scene's files as they were at one instant, for a
// backup that must be one moment across scenes (a writer that commits
// to board A and then to board B never leaves B's new revision beside
// A's old one). Freeze takes it:
//
//  1. List the scenes, then take each one's locks in sorted order, as a
//     write takes them (its turn in this process, then the lock file;
//     writers hold one scene's at a time, so none of them waits on the
//     backup while holding another's: no deadlock). List again and lock
//     what a create added meanwhile, until a listing finds no scene
//     unlocked: that listing is the moment. Scenes created after it are
//     not in it.
//  2. Holding every lock, open every file of the moment: scene files and
//     sidecars are only ever replaced by rename, so the open descriptor
//     keeps the bytes of the moment; journals are appended to (a failed
//     append cut back to where it began) or, by retention, replaced by
//     rename, so their length at the moment is noted and only that much
//     is copied from the open descriptor; kept revisions are written once
//     and only ever removed. (One case is not of the moment: a journal
//     with a torn tail left by a crash, which the next write cuts back
//     before it appends, so the copy's tail may hold the new bytes; it is
//     still a torn tail to whoever reads it.)
//  3. Release lets writers go on (the descriptors stay open); Copy then
//     streams the files at leisure, and Close lets go of them.
//
// Writers wait only for the locking and opening (a few system calls a
// scene), not for the copy. The descriptors must fit the process's
// limit (Go raises the soft limit to the hard one): one lock file and
// three files a scene while the locks are held, plus one per kept
// revision. When the kept revisions do not fit too, they are opened by
// name during the copy instead (one the scene's writes pruned since the
// moment is then left out, and none newer than the moment is taken).
// When even the scenes do not fit, Freeze takes no moment: Whole is
// false, Release does nothing and Copy takes each scene under its own
// locks in turn, as Snapshot does, so each scene is consistent on its
// own but not with the others.
type Moment struct {
	s      *Store
	dirs   *metaDirs
	held   []heldLock
	files  []momentFile
	scenes int
	whole  bool
	closed bool
}

// heldLock is one scene's locks held by a Moment.
type heldLock struct {
	dequeue func()
	lock    *fileLock
}

// momentFile is one file of a Moment: open (f) or, for a kept revision
// that did not fit the descriptor limit, its name in dir.
type momentFile struct {
	rel   string
	f     *os.File
	dir   *os.File
	name  string
	size  int64
	mtime time.Time
}

// momentReserve is how many descriptors Freeze leaves for everything
// else the process opens meanwhile (the archive, the host's documents,
// directory walks).
const momentReserve = 128

// maxMomentRounds bounds step 1's listings: a flood of creates that
// outruns it fails the backup (scene_busy) rather than holding writers
// forever.
const maxMomentRounds = 64

// fdBudget is how many more descriptors this process may open; a
// variable so that a test can pretend the limit is low.
var fdBudget = func() int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	open := momentReserve
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		open = len(fds)
	}
	soft := lim.Cur
	if soft > 1<<30 {
		soft = 1 << 30
	}
	return int(soft) - open - momentReserve
}

// Freeze takes the moment (see Moment): on return every scene's files of
// the moment are open and every scene's locks are held until Release (or
// Close). A lock that stays taken past LockTimeout is scene_busy, with
// nothing held.
func (s *Store) Freeze(ctx context.Context) (*Moment, error) {
	names, err := s.snapshotNames()
	if err != nil {
		return nil, err
	}
	budget := fdBudget()
	m := &Moment{s: s, whole: true}
	if 4*len(names)+8 > budget {
		s.log.Warn("too many scenes to hold open at once; taking each under its own locks instead",
			zap.Int("scenes", len(names)), zap.Int("descriptors", budget))
		m.whole, m.scenes = false, len(names)
		return m, nil
	}
	if err := s.enter(); err != nil {
		return nil, err
	}
	if m.dirs, err = s.openMetaDirs(); err != nil {
		s.leave()
		return nil, err
	}
	locked := map[string]bool{}
	for round := 0; ; round++ {
		if round == maxMomentRounds {
			m.Close()
			return nil, errorf(CodeSceneBusy, "scenes kept being created while a backup took its moment")
		}
		fresh := slices.DeleteFunc(names, func(n string) bool { return locked[n] })
		if len(fresh) == 0 {
			break
		}
		for _, name := range fresh {
			if err := m.hold(ctx, name); err != nil {
				m.Close()
				return nil, err
			}
			locked[name] = true
		}
		if names, err = s.snapshotNames(); err != nil {
			m.Close()
			return nil, err
		}
	}
	names = slices.Sorted(func(yield func(string) bool) {
		for n := range locked {
			if !yield(n) {
				return
			}
		}
	})
	m.scenes = len(names)
	if err := m.open(names, budget-len(names)-8); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// hold takes name's locks as begin does.
func (m *Moment) hold(ctx context.Context, name string) error {
	dequeue, err := m.s.queue.acquire(ctx, name, nil)
	if err != nil {
		return newError(CodeSceneBusy, "gave up waiting for scene "+name, err)
	}
	l, err := m.s.lockScene(ctx, m.dirs.locks, name)
	if err != nil {
		dequeue()
		return err
	}
	m.held = append(m.held, heldLock{dequeue: dequeue, lock: l})
	return nil
}

// open opens every file of the locked scenes names, the kept revisions
// too if they fit in budget descriptors.
func (m *Moment) open(names []string, budget int) error {
	entries, err := m.s.fs.ReadDir(m.dirs.backups)
	if err != nil {
		return fsError("list backups", err)
	}
	kept := map[string][]backupEntry{}
	for _, e := range entries {
		if name, ok := backupName(e); ok {
			rev, valid, _ := parseBackup(name, e)
			kept[name] = append(kept[name], backupEntry{rev: rev, valid: valid, file: e})
		}
	}
	keepOpen := 3*len(names)+len(entries) <= budget
	for _, name := range names {
		if err := m.add(m.s.root, sceneFile(name), sceneFile(name), true); err != nil {
			return err
		}
		if err := m.add(m.dirs.meta, sidecarFile(name), metaDir+"/"+sidecarFile(name), true); err != nil {
			return err
		}
		if err := m.add(m.dirs.journal, journalFile(name), metaDir+"/"+journalDir+"/"+journalFile(name), true); err != nil {
			return err
		}
		revs := kept[name]
		slices.SortFunc(revs, func(a, b backupEntry) int {
			if c := cmp.Compare(a.rev, b.rev); c != 0 {
				return c
			}
			return cmp.Compare(b2i(b.valid), b2i(a.valid))
		})
		for _, b := range revs {
			if err := m.add(m.dirs.backups, b.file, metaDir+"/"+backupsDir+"/"+b.file, keepOpen); err != nil {
				return err
			}
		}
	}
	return nil
}

// add notes the file name in dir as rel, opened now if open: a missing
// one is left out, anything but a regular file is permission_denied.
func (m *Moment) add(dir *os.File, name, rel string, open bool) error {
	if !open {
		m.files = append(m.files, momentFile{rel: rel, dir: dir, name: name, size: -1})
		return nil
	}
	f, size, mtime, err := m.s.openRegular(dir, name, rel)
	if f == nil || err != nil {
		return err
	}
	m.files = append(m.files, momentFile{rel: rel, f: f, size: size, mtime: mtime})
	return nil
}

// openRegular opens the regular file name in dir (rel names it in
// errors) with its size and modification time; nil and no error when
// it is missing.
func (s *Store) openRegular(dir *os.File, name, rel string) (*os.File, int64, time.Time, error) {
	f, err := s.fs.OpenFile(dir, name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, time.Time{}, nil
	}
	if err != nil {
		return nil, 0, time.Time{}, fsError("open "+rel, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, time.Time{}, fsError("stat "+rel, err)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, time.Time{}, errorf(CodePermissionDenied, "%s is not a regular file", rel)
	}
	return f, info.Size(), info.ModTime(), nil
}

// Whole reports whether m is one moment across scenes (false: Copy
// takes each scene under its own locks; see Moment).
func (m *Moment) Whole() bool { return m.whole }

// Scenes is how many scenes the moment holds (when it is not Whole, how
// many there were when Freeze looked).
func (m *Moment) Scenes() int { return m.scenes }

// Release lets writers go on: it drops every scene's locks, keeping the
// files open. It may be called more than once.
func (m *Moment) Release() {
	for _, h := range m.held {
		m.s.unlock(h.lock)
		h.dequeue()
	}
	m.held = nil
}

// Copy hands add every file of the moment (the bytes each had at the
// moment, a journal's up to its length then), in the order Snapshot
// does, and returns how many scenes it took. It releases the locks
// first if Release was not called. Without a whole moment it is
// Snapshot.
func (m *Moment) Copy(ctx context.Context, add SnapshotAdd) (int, error) {
	if !m.whole {
		return m.s.Snapshot(ctx, add)
	}
	m.Release()
	for i := range m.files {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if err := m.copyFile(&m.files[i], add); err != nil {
			return 0, err
		}
	}
	return m.scenes, nil
}

// copyFile hands add one file, closing it.
func (m *Moment) copyFile(mf *momentFile, add SnapshotAdd) error {
	if mf.f == nil {
		f, size, mtime, err := m.s.openRegular(mf.dir, mf.name, mf.rel)
		if f == nil || err != nil {
			return err
		}
		mf.f, mf.size, mf.mtime = f, size, mtime
	}
	defer func() {
		mf.f.Close()
		mf.f = nil
	}()
	return add(mf.rel, mf.size, mf.mtime, io.NewSectionReader(mf.f, 0, mf.size))
}

// Close releases what m still holds: locks, open files, the store's
// directories. It may be called more than once.
func (m *Moment) Close() {
	if m.closed {
		return
	}
	m.closed = true
	m.Release()
	for _, mf := range m.files {
		if mf.f != nil {
			mf.f.Close()
		}
	}
	m.files = nil
	if m.dirs != nil {
		m.dirs.close()
		m.s.leave()
	}
}
