//go:build unix && !linux

package store

import (
	"io/fs"
	"os"
	"time"
)

// sysStamp is stampOf for os's FileInfo: not read here (no known
// records, so Head always reads like Read).
func sysStamp(fs.FileInfo) (fileStamp, bool) { return fileStamp{}, false }

// coarseTick is a cautious guess where the kernel cannot be asked.
const coarseTick = 20 * time.Millisecond

// probeFineCtimes has no probe off Linux: the cautious answer.
func probeFineCtimes(*os.File) bool { return false }
