package store

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Head returns a scene's revision record as Read would, without reading
// or hashing the scene file when it provably has not changed since this
// Store last saw it agree with its sidecar. It is what many writers on
// one scene poll before each attempt, and what watchers ask after every
// change, so its common case is two small reads: the sidecar, and an
// lstat of the scene file.
//
// The proof is the known record of the scene (known): the exact sidecar
// bytes, and the identity of the scene file that had their hash (device,
// inode, links, mode, size, mtime and ctime: the kernel sets ctime on
// every change to a file, its content, its links, its mode, a rename,
// and it cannot be set by hand). If the sidecar still has those bytes and
// the file still has that identity, the pair still agrees, and Head
// answers from the record; so it does while a commit of this Store is
// between its two renames and the sidecar is still the record's (the
// last committed revision, as Read would answer from its backup while
// the writer holds the lock). Otherwise (another process or a person wrote
// either file, a commit is between its renames, a file is missing) it
// reads like Read, repairing what Read repairs, and remembers the pair
// if it agrees.
//
// A ctime is only as fine as the filesystem's clock. Where a change right
// after the one that set it could leave it as it was (the same coarse
// tick, a few ms, or a second on some filesystems), a record is kept only
// once the file was read that much after its ctime; where the filesystem
// gives every change after a stat a later ctime than that stat showed
// (multigrain timestamps, Linux 6.13+ on ext4, xfs, btrfs, tmpfs; probed
// once per Store, see fineCtimes), at once.
func (s *Store) Head(ctx context.Context, name string) (Meta, error) {
	if k, ok := s.known.Load(name); ok && ctx.Err() == nil && s.stillKnown(name, k.(*knownScene)) {
		return k.(*knownScene).meta, nil
	} else if ok {
		s.known.CompareAndDelete(name, k)
	}
	var m Meta
	err := s.reading(ctx, name, func(dirs *metaDirs) error {
		sc, err := s.readSettle(ctx, dirs, name)
		if err != nil {
			return err
		}
		m = sc.Meta
		return nil
	})
	return m, err
}

// knownScene is a pair this Store saw agree: the sidecar's exact bytes,
// their record, and the identity of the scene file that had their hash.
type knownScene struct {
	side  []byte
	meta  Meta
	stamp fileStamp
	// parsed is side's record; sideStamp, when sideStamped, the sidecar
	// file's identity with those bytes (only on a filesystem whose ctimes
	// show any later change, and only for a sidecar this Store renamed
	// into place): then a stat of the sidecar stands for reading it.
	parsed      *sidecar
	sideStamp   fileStamp
	sideStamped bool
	// data is the file's content when this Store committed it (nil
	// otherwise, or once dropped to bound memory: see heldBytes): a load
	// that finds the pair unchanged takes it instead of reading and
	// hashing the file again.
	data []byte
	// marks are data's SHA-256 marks (hashmarks.go), dropped with it.
	marks *hashMarks
}

// stillKnown reports whether name's sidecar and scene file are still the
// pair k describes.
func (s *Store) stillKnown(name string, k *knownScene) bool {
	if s.enter() != nil {
		return false
	}
	defer s.leave()
	meta, ok := s.keptMeta()
	if !ok {
		return false
	}
	if !s.sidecarStill(meta, name, k) {
		return false
	}
	if base, ok := s.inflight.Load(name); ok && bytes.Equal(base.([]byte), k.side) {
		// A commit of this Store is between its renames: the sidecar's
		// revision is still the last committed one, whatever the file
		// holds (Read answers the same, from its backup, while the
		// writer holds the lock; see readHeld).
		return true
	}
	info, err := s.fs.Lstat(s.root, sceneFile(name))
	if err != nil {
		return false
	}
	st, ok := stampOf(info)
	return ok && st == k.stamp
}

// keptMeta is the metadata directory for stillKnown's checks: a handle
// kept open and used while the directory's name still leads to it (one
// lstat, where opening and checking it anew takes five calls). The
// caller is inside enter/leave, so Close has not closed it.
func (s *Store) keptMeta() (*os.File, bool) {
	info, err := s.fs.Lstat(s.root, metaDir)
	if err != nil || !info.IsDir() {
		return nil, false
	}
	st, ok := stampOf(info)
	if !ok {
		return nil, false
	}
	id := [2]uint64{st.dev, st.ino}
	s.checkMu.Lock()
	defer s.checkMu.Unlock()
	if s.checkDir != nil && s.checkDirID == id {
		return s.checkDir, true
	}
	meta, ok := s.metaQuick()
	if !ok {
		return nil, false
	}
	if info, err := meta.Stat(); err != nil {
		meta.Close()
		return nil, false
	} else if got, ok := stampOf(info); !ok || [2]uint64{got.dev, got.ino} != id {
		meta.Close() // replaced meanwhile
		return nil, false
	}
	if s.checkDir != nil {
		s.checkDirOld = append(s.checkDirOld, s.checkDir)
	}
	s.checkDir, s.checkDirID = meta, id
	return meta, true
}

// sidecarStill reports whether name's sidecar in meta still has k's
// bytes: by its stat where k has the sidecar's stamp, else by reading it.
func (s *Store) sidecarStill(meta *os.File, name string, k *knownScene) bool {
	if k.sideStamped {
		info, err := s.fs.Lstat(meta, sidecarFile(name))
		if err != nil {
			return false
		}
		st, ok := stampOf(info)
		return ok && st == k.sideStamp
	}
	raw, _, err := s.fs.ReadFile(meta, sidecarFile(name), maxSidecarBytes)
	return err == nil && bytes.Equal(raw, k.side)
}

// remember records that the sidecar side (its record parsed) described the
// scene file whose stat is info, proven by reading the file's content
// after readAt. Kept only if that proof holds for later: see Head.
func (s *Store) remember(name string, side []byte, parsed *sidecar, info fs.FileInfo, readAt time.Time) {
	s.rememberData(name, side, parsed, info, readAt, nil, nil, nil)
}

// rememberData is remember for a commit of this Store, which also keeps
// the bytes it wrote and read back (data) for its next load, and the
// sidecar it renamed into place (its record sc and its stat sideInfo,
// nil if unknown).
func (s *Store) rememberData(name string, side []byte, sc *sidecar, info fs.FileInfo, readAt time.Time, data []byte, sideInfo fs.FileInfo, marks *hashMarks) {
	st, ok := stampOf(info)
	if !ok || st.nlink != 1 || !s.settled(st, readAt) || int64(len(data)) > s.opts.MaxSceneBytes {
		s.known.Delete(name)
		return
	}
	k := &knownScene{side: bytes.Clone(side), meta: sc.meta(), stamp: st, data: data, parsed: sc}
	if data != nil {
		k.marks = marks
	}
	if sideInfo != nil && s.fineCtimes() {
		k.sideStamp, k.sideStamped = stampOf(sideInfo)
	}
	s.known.Store(name, k)
	if data != nil {
		s.held.add(s, name, int64(len(data)))
	}
}

// knownData returns the content of name's scene file if the store holds
// it and the pair it was committed with still stands: the sidecar has
// the bytes side (read by the caller, under the scene's lock) and the
// file the identity it had when it was read back. The caller holds the
// lock, so no commit of this Store is between its renames.
func (s *Store) knownData(name string, side []byte) ([]byte, fs.FileInfo, bool) {
	v, ok := s.known.Load(name)
	if !ok {
		return nil, nil, false
	}
	k := v.(*knownScene)
	if k.data == nil || side == nil || !bytes.Equal(side, k.side) {
		return nil, nil, false
	}
	info, err := s.fs.Lstat(s.root, sceneFile(name))
	if err != nil {
		return nil, nil, false
	}
	if st, ok := stampOf(info); !ok || st != k.stamp {
		return nil, nil, false
	}
	return k.data, info, true
}

// heldBytes bounds the scene bytes the known records hold: past
// maxHeldScenes scenes or maxHeldBytes, the oldest records drop theirs
// (and their next load reads the file).
type heldBytes struct {
	mu    sync.Mutex
	order []string
	size  map[string]int64
	total int64
}

const (
	maxHeldScenes = 64
	maxHeldBytes  = 256 << 20
)

func (h *heldBytes) add(s *Store, name string, n int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.size == nil {
		h.size = map[string]int64{}
	}
	if old, ok := h.size[name]; ok {
		h.total -= old
		h.order = slices.DeleteFunc(h.order, func(x string) bool { return x == name })
	}
	h.size[name], h.total = n, h.total+n
	h.order = append(h.order, name)
	for len(h.order) > 1 && (len(h.order) > maxHeldScenes || h.total > maxHeldBytes) {
		old := h.order[0]
		h.order = h.order[1:]
		h.total -= h.size[old]
		delete(h.size, old)
		if v, ok := s.known.Load(old); ok {
			k := *v.(*knownScene)
			k.data, k.marks = nil, nil
			s.known.CompareAndSwap(old, v, &k)
		}
	}
}

// settled reports whether a file with stamp st, read after readAt, can
// no longer change without changing its ctime.
func (s *Store) settled(st fileStamp, readAt time.Time) bool {
	if s.fineCtimes() {
		return true
	}
	racy := 2 * coarseTick
	if st.ctime%int64(time.Second) == 0 {
		racy = 2 * time.Second // whole seconds: a filesystem with coarse timestamps
	}
	return readAt.UnixNano()-st.ctime >= int64(racy)
}

// fineCtimes reports (probing once) whether this Store's filesystem gives
// a file changed after a stat a ctime later than that stat showed.
func (s *Store) fineCtimes() bool {
	s.ctimeProbe.Do(func() { s.fineCtime = probeFineCtimes(s.root) })
	return s.fineCtime
}

// fileStamp is a file's identity and change times, from its stat.
type fileStamp struct {
	dev, ino, nlink uint64
	mode            uint32
	size            int64
	mtime, ctime    int64 // ns
}

// stampOf reads a stamp from a FileInfo of os (fstat) or osFS.Lstat; ok
// is false for other implementations.
func stampOf(info fs.FileInfo) (fileStamp, bool) {
	if st, ok := info.Sys().(*unix.Stat_t); ok {
		return fileStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), nlink: uint64(st.Nlink), mode: uint32(st.Mode),
			size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
	}
	return sysStamp(info)
}

// metaQuick opens the metadata directory for a read that needs only the
// sidecar (Head, refuseUnlocked), refusing what openMetaDirs refuses
// (a symlink or other non-directory in place of it or of its
// subdirectories) without opening each: ok false means the caller
// leaves the answer to the full path, which reports the problem. It
// creates nothing.
func (s *Store) metaQuick() (*os.File, bool) {
	meta, err := s.fs.OpenDir(s.root, metaDir)
	if err != nil {
		return nil, false
	}
	for _, sub := range []string{backupsDir, locksDir, journalDir} {
		if info, err := s.fs.Lstat(meta, sub); err != nil || !info.IsDir() {
			meta.Close()
			return nil, false
		}
	}
	return meta, true
}
