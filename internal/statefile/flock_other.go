//go:build !unix

package statefile

import "os"

// flock is a no-op where there is no flock: the in-process mutex still
// serialises this process's writers.
func flock(*os.File) error { return nil }
