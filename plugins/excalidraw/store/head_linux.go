package store

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sysStamp is stampOf for os's FileInfo (fstat).
func sysStamp(info fs.FileInfo) (fileStamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{dev: st.Dev, ino: st.Ino, nlink: st.Nlink, mode: st.Mode,
		size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

// coarseTick is the kernel's coarse clock tick: what file timestamps
// advance by where they are not fine grained (20 ms where unknown).
var coarseTick = sync.OnceValue(func() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGetres(unix.CLOCK_REALTIME_COARSE, &ts); err != nil || ts.Nano() <= 0 {
		return 20 * time.Millisecond
	}
	return min(time.Duration(ts.Nano()), time.Second)
})()

// probeFineCtimes tells whether files in dir get, on each change after a
// stat, a ctime later than that stat showed: it changes an unnamed
// temporary file (O_TMPFILE: nothing appears in dir, even after a crash)
// right after stat-ing it, five times in a row, far faster than a clock
// tick. Coarse timestamps would show the same ctime almost every time;
// any failure, or no O_TMPFILE, answers false (the cautious answer).
func probeFineCtimes(dir *os.File) bool {
	var fd int
	err := dirFd(dir, func(dfd int) error {
		var err error
		fd, err = unix.Openat(dfd, ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
		return err
	})
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	for range 5 {
		var before, after unix.Stat_t
		if unix.Fstat(fd, &before) != nil {
			return false
		}
		if _, err := unix.Write(fd, []byte{0}); err != nil {
			return false
		}
		if unix.Fstat(fd, &after) != nil || after.Ctim.Nano() <= before.Ctim.Nano() {
			return false
		}
	}
	return true
}
