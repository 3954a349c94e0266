package files

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// The system calls the store makes, each relative to a directory handle
// (nil: AT_FDCWD, name a path) and none following a symlink in name.
// Errors are the bare errno, for errors.Is(err, unix.ENOENT) and kin.

// withFd runs fn with dir's descriptor, held open while fn runs.
func withFd(dir *os.File, fn func(fd int) error) error {
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

func retry(fn func() error) error {
	for {
		if err := fn(); err != unix.EINTR {
			return err
		}
	}
}

// openat opens name in dir with O_NOFOLLOW|O_CLOEXEC added to flag.
func openat(dir *os.File, name string, flag int, perm uint32) (*os.File, error) {
	var nfd int
	err := withFd(dir, func(fd int) error {
		return retry(func() (err error) {
			nfd, err = unix.Openat(fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), label(dir, name)), nil
}

func fstatat(dir *os.File, name string, st *unix.Stat_t) error {
	return withFd(dir, func(fd int) error {
		return retry(func() error { return unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW) })
	})
}

func mkdirat(dir *os.File, name string, perm uint32) error {
	return withFd(dir, func(fd int) error { return unix.Mkdirat(fd, name, perm) })
}

func unlinkat(dir *os.File, name string) error {
	return withFd(dir, func(fd int) error { return unix.Unlinkat(fd, name, 0) })
}

// renameInto renames oldName over newName inside dir (rename never
// follows a symlink at newName: it would replace the link itself) and
// reports whether newName did not exist before.
func renameInto(dir *os.File, oldName, newName string) (created bool, err error) {
	err = withFd(dir, func(fd int) error {
		created, err = renameReport(fd, oldName, newName)
		return err
	})
	return created, err
}

// renameOrReplace is the portable rename: whether newName existed is
// looked at just before, so two first writes racing may both report
// created.
func renameOrReplace(fd int, oldName, newName string) (created bool, err error) {
	var st unix.Stat_t
	err = unix.Fstatat(fd, newName, &st, unix.AT_SYMLINK_NOFOLLOW)
	created = err == unix.ENOENT
	return created, unix.Renameat(fd, oldName, fd, newName)
}

// label names a file opened relative to dir, for logs and errors.
func label(dir *os.File, name string) string {
	if dir == nil {
		return name
	}
	return filepath.Join(dir.Name(), name)
}
