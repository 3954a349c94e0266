package store

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// FS is the filesystem seam: every filesystem operation of the store goes
// through it, so tests can inject failures of write, fsync, rename and
// read-back, or swap a symlink in between a check and a use.
//
// Directories are handles (*os.File opened with O_DIRECTORY), and files are
// named relative to a handle by a single path component. Working relative to
// handles is what keeps the store inside its directory: once the drawings
// root is open, renaming or replacing the path it came from changes nothing.
//
// Implementations must not follow symlinks in the final component of any
// name (the default uses O_NOFOLLOW and AT_SYMLINK_NOFOLLOW). The store does
// not rely on that alone: it checks the FileInfo that OpenFile's file and
// ReadFile return (taken with fstat on the opened descriptor) and refuses
// anything that is not a regular file.
type FS interface {
	// OpenDir opens the directory name inside parent (nil parent: name is a
	// path from the working directory) with O_DIRECTORY|O_NOFOLLOW.
	OpenDir(parent *os.File, name string) (*os.File, error)
	// Mkdir creates the directory name inside parent (nil parent: a path).
	Mkdir(parent *os.File, name string, perm fs.FileMode) error
	// OpenFile opens name inside dir; O_NOFOLLOW|O_CLOEXEC are always added.
	OpenFile(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error)
	// ReadFile opens name inside dir without following symlinks and without
	// blocking (FIFOs), fstats it, and reads at most limit+1 bytes; it returns
	// the fstat result. If the file is not regular or is larger than limit it
	// may return no data; the store decides from the FileInfo.
	ReadFile(dir *os.File, name string, limit int64) ([]byte, fs.FileInfo, error)
	// Write writes all of p to f.
	Write(f *os.File, p []byte) (int, error)
	// Sync is fsync(2), for files and directories alike.
	Sync(f *os.File) error
	// Rename renames oldName to newName inside dir. With noReplace it fails
	// with an fs.ErrExist error instead of replacing newName.
	Rename(dir *os.File, oldName, newName string, noReplace bool) error
	// Remove unlinks the file name inside dir.
	Remove(dir *os.File, name string) error
	// Link makes newName inside newDir a hard link to oldName inside
	// oldDir (not following a symlink); fs.ErrExist if newName exists.
	Link(oldDir *os.File, oldName string, newDir *os.File, newName string) error
	// Lstat stats name inside dir without following a symlink (nil dir: a path).
	Lstat(dir *os.File, name string) (fs.FileInfo, error)
	// ReadDir lists the entry names of dir (not "." or "..").
	ReadDir(dir *os.File) ([]string, error)
}

// OSFS returns the real filesystem with the symlink-safe opens. It is the
// default for Options.FS; tests wrap it to inject faults.
func OSFS() FS { return osFS{} }

type osFS struct{}

// dirFd runs fn with the descriptor of dir (AT_FDCWD for nil). It goes through
// SyscallConn so the descriptor cannot be closed and reused while fn runs.
func dirFd(dir *os.File, fn func(fd int) error) error {
	if dir == nil {
		return fn(unix.AT_FDCWD)
	}
	rc, err := dir.SyscallConn()
	if err != nil {
		return err
	}
	var inner error
	if err := rc.Control(func(fd uintptr) { inner = fn(int(fd)) }); err != nil {
		return err
	}
	return inner
}

// label is the name given to an *os.File opened relative to dir; it only
// appears in error messages and logs.
func label(dir *os.File, name string) string {
	if dir == nil {
		return name
	}
	return filepath.Join(dir.Name(), name)
}

func (osFS) openat(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	var nfd int
	err := dirFd(dir, func(fd int) error {
		var err error
		for {
			nfd, err = unix.Openat(fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
			if err != unix.EINTR {
				return err
			}
		}
	})
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: label(dir, name), Err: err}
	}
	return os.NewFile(uintptr(nfd), label(dir, name)), nil
}

func (o osFS) OpenDir(parent *os.File, name string) (*os.File, error) {
	return o.openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
}

func (osFS) Mkdir(parent *os.File, name string, perm fs.FileMode) error {
	err := dirFd(parent, func(fd int) error { return unix.Mkdirat(fd, name, uint32(perm.Perm())) })
	if err != nil {
		return &fs.PathError{Op: "mkdirat", Path: label(parent, name), Err: err}
	}
	return nil
}

func (o osFS) OpenFile(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	return o.openat(dir, name, flag, perm)
}

func (o osFS) ReadFile(dir *os.File, name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := o.openat(dir, name, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > limit {
		return nil, info, nil
	}
	// Sized from fstat, plus room to notice a file that grew past limit.
	var buf bytes.Buffer
	buf.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, info, err
	}
	data := buf.Bytes()
	return data, info, nil
}

func (osFS) Write(f *os.File, p []byte) (int, error) { return f.Write(p) }

func (osFS) Sync(f *os.File) error { return f.Sync() }

func (osFS) Rename(dir *os.File, oldName, newName string, noReplace bool) error {
	err := dirFd(dir, func(fd int) error {
		if !noReplace {
			return unix.Renameat(fd, oldName, fd, newName)
		}
		return renameNoReplace(fd, oldName, newName)
	})
	if err != nil {
		return &os.LinkError{Op: "renameat", Old: label(dir, oldName), New: label(dir, newName), Err: err}
	}
	return nil
}

func (osFS) Link(oldDir *os.File, oldName string, newDir *os.File, newName string) error {
	err := dirFd(oldDir, func(ofd int) error {
		return dirFd(newDir, func(nfd int) error { return unix.Linkat(ofd, oldName, nfd, newName, 0) })
	})
	if err != nil {
		return &fs.PathError{Op: "linkat", Path: label(newDir, newName), Err: err}
	}
	return nil
}

func (osFS) Remove(dir *os.File, name string) error {
	err := dirFd(dir, func(fd int) error { return unix.Unlinkat(fd, name, 0) })
	if err != nil {
		return &fs.PathError{Op: "unlinkat", Path: label(dir, name), Err: err}
	}
	return nil
}

func (osFS) Lstat(dir *os.File, name string) (fs.FileInfo, error) {
	var st unix.Stat_t
	err := dirFd(dir, func(fd int) error { return unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil {
		return nil, &fs.PathError{Op: "fstatat", Path: label(dir, name), Err: err}
	}
	return &statInfo{name: filepath.Base(name), st: st}, nil
}

func (o osFS) ReadDir(dir *os.File) ([]string, error) {
	// A fresh descriptor for "." so the caller's handle keeps its offset.
	d, err := o.OpenDir(dir, ".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// statInfo adapts unix.Stat_t to fs.FileInfo; Sys returns *unix.Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}

// syscallStat is what os.File.Stat puts in FileInfo.Sys on unix.
type syscallStat = syscall.Stat_t

// fileID extracts device, inode and link count from a FileInfo produced by
// either os (syscall.Stat_t) or osFS.Lstat (unix.Stat_t); ok is false for
// other implementations.
func fileID(info fs.FileInfo) (dev, ino, nlink uint64, ok bool) {
	switch st := info.Sys().(type) {
	case *unix.Stat_t:
		return uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), true
	case *syscallStat:
		return uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), true
	}
	return 0, 0, 0, false
}

// fileComparer is what an FS may also do: tell whether a file holds
// exactly want, reading it in pieces instead of whole (the read-back of
// a large scene then allocates nothing the size of it). An FS without it
// is read whole with ReadFile.
type fileComparer interface {
	CompareFile(dir *os.File, name string, want []byte) (fs.FileInfo, bool, error)
}

var _ fileComparer = osFS{}

// compareChunk is the piece CompareFile reads at a time.
const compareChunk = 256 << 10

var comparePool = sync.Pool{New: func() any { b := make([]byte, compareChunk); return &b }}

// CompareFile opens name inside dir as ReadFile does and reports whether
// it holds exactly want (a non-regular file never does), with its fstat.
func (o osFS) CompareFile(dir *os.File, name string, want []byte) (fs.FileInfo, bool, error) {
	f, err := o.openat(dir, name, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !info.Mode().IsRegular() || info.Size() != int64(len(want)) {
		return info, false, nil
	}
	bp := comparePool.Get().(*[]byte)
	defer comparePool.Put(bp)
	buf := *bp
	rest := want
	for {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(rest)+1)])
		if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
			return info, false, nil
		}
		rest = rest[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return info, len(rest) == 0, nil
		case err != nil:
			return info, false, err
		}
	}
}

// SetModTime sets the modification (and access) time of name inside
// dir, not following a symlink.
func SetModTime(dir *os.File, name string, t time.Time) error {
	rc, err := dir.SyscallConn()
	if err != nil {
		return err
	}
	ts := unix.NsecToTimespec(t.UnixNano())
	var inner error
	if err := rc.Control(func(fd uintptr) {
		inner = unix.UtimesNanoAt(int(fd), name, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
	}); err != nil {
		return err
	}
	return inner
}
