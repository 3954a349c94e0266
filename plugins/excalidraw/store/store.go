package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// Store is the revisioned file store of one drawings directory. It is safe
// for concurrent use by many goroutines, and several processes may open the
// same directory: writes to one scene are serialised by a per-name queue
// inside the process and a lock file across processes; reads take neither
// (see Read).
type Store struct {
	opts  Options
	fs    FS
	log   *zap.Logger
	dir   string   // absolute path of the drawings directory (for messages)
	root  *os.File // the drawings directory, opened O_DIRECTORY|O_NOFOLLOW
	queue *nameQueue
	host  string
	pid   int
	// procScope and proc identify this process beyond its pid, for lock
	// records (see holderDead); empty where /proc cannot tell.
	procScope, proc string
	// flock is unix.Flock; a field so tests can simulate filesystems
	// without flock support.
	flock func(fd int, how int) error
	swept sync.Map // names whose leftover temp files were removed
	// agedAt is when each scene's journal was last checked for entries
	// past their age (journal retention).
	agedAt sync.Map
	// mine is each scene's newest revision this Store committed for a
	// caller (CommittedHere).
	mine sync.Map
	// syncs groups concurrent commits' directory fsyncs (dirsync.go).
	syncs dirSyncer
	// known is each scene's last pair seen to agree, for Head (head.go);
	// fineCtime is whether ctimes here are fine grained (probed once).
	known      sync.Map
	held       heldBytes // bounds the bytes known records keep
	ctimeProbe sync.Once
	fineCtime  bool
	// checkDir is the metadata directory kept open for the known pair's
	// checks (see keptMeta), with its dev and inode; the handles it
	// replaced stay open (a check may be using them) until Close.
	checkMu     sync.Mutex
	checkDir    *os.File
	checkDirID  [2]uint64
	checkDirOld []*os.File
	// inflight holds, for each scene a commit of this Store has renamed
	// into place and not yet returned from, the sidecar it commits over.
	inflight sync.Map
	// creating holds the names a create of this Store has renamed into
	// place and not yet given their sidecar: List leaves them out until
	// the create is committed (its commit event lists them).
	creating sync.Map

	mu     sync.Mutex
	closed bool
	active sync.WaitGroup
}

// Open opens (creating if needed) the drawings directory and returns a Store.
//
//  1. Check the options and fill defaults.
//  2. Lstat the directory: a symlink is permission_denied; a missing one is
//     created 0700 (only the last component: its parent must exist).
//  3. Open it with O_DIRECTORY|O_NOFOLLOW, so a symlink swapped in after the
//     check is refused too, and keep the handle: every later operation is
//     relative to it and never resolves the path again.
//  4. Create or check .dsh-excalidraw/{backups,locks}, so a symlinked or
//     unusable metadata directory is reported now rather than at first write.
func Open(opts Options) (*Store, error) {
	if opts.Dir == "" {
		return nil, errorf(CodeInvalidRequest, "Options.Dir is required")
	}
	if opts.Codec == nil {
		return nil, errorf(CodeInvalidRequest, "Options.Codec is required")
	}
	opts = opts.withDefaults()
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, newError(CodeInvalidRequest, "drawings directory", err)
	}
	s := &Store{
		opts:  opts,
		fs:    opts.FS,
		log:   opts.Logger.Named("excalidraw.store"),
		dir:   dir,
		queue: newNameQueue(),
		pid:   os.Getpid(),
		flock: unix.Flock,
	}
	s.host, _ = os.Hostname()
	s.procScope, s.proc = procIdentity(s.pid)

	if err := s.openRoot(); err != nil {
		return nil, err
	}
	dirs, err := s.openMetaDirs()
	if err != nil {
		s.root.Close()
		return nil, err
	}
	dirs.close()
	return s, nil
}

// openRoot is steps 2 and 3 of Open.
func (s *Store) openRoot() error {
	info, err := s.fs.Lstat(nil, s.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := s.fs.Mkdir(nil, s.dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fsError("create drawings directory", err)
		}
	case err != nil:
		return fsError("stat drawings directory", err)
	case info.Mode()&fs.ModeSymlink != 0:
		return errorf(CodePermissionDenied, "drawings directory %s is a symlink", s.dir)
	case !info.IsDir():
		return errorf(CodePermissionDenied, "drawings directory %s is not a directory", s.dir)
	}
	root, err := s.fs.OpenDir(nil, s.dir)
	if err != nil {
		return fsError("open drawings directory", err)
	}
	if info, err := root.Stat(); err != nil || !info.IsDir() {
		root.Close()
		return errorf(CodePermissionDenied, "drawings directory %s is not a directory", s.dir)
	}
	s.root = root
	return nil
}

// enter registers an operation, refusing once Close has begun.
func (s *Store) enter() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errorf(CodeIOError, "store is closed")
	}
	s.active.Add(1)
	return nil
}

func (s *Store) leave() { s.active.Done() }

// Close waits for running operations, then releases the directory handle.
// Later calls fail with io_error; Close itself is idempotent.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.active.Wait()
	for _, d := range append(s.checkDirOld, s.checkDir) {
		if d != nil {
			d.Close()
		}
	}
	return s.root.Close()
}

// Dir returns the absolute path of the drawings directory.
func (s *Store) Dir() string { return s.dir }
