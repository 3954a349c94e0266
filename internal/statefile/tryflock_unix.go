//go:build unix

package statefile

import (
	"errors"
	"os"
	"syscall"
)

// tryFlock takes f's flock if nobody holds it: ok false, no error, if
// someone does.
func tryFlock(f *os.File) (ok bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case err != syscall.EINTR:
			return false, err
		}
	}
}
