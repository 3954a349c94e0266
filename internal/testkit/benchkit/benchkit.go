// Package benchkit is what benchmarks that compare dsh with the disk
// share: the durable-write floor, goroutines released together, and the
// CPU this process has used.
package benchkit

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// DurableWrite is the floor of one write: data to the file tmp, fsynced,
// renamed over target, and dir (the directory of both) fsynced.
func DurableWrite(dir *os.File, tmp, target string, data []byte) error {
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	return dir.Sync()
}

// Floor is the disk's side of a writers benchmark: n writers released
// together, each doing perWriter durable writes of data (DurableWrite) on
// a file of its own in dir (d, open), and how long they took.
func Floor(tb testing.TB, d *os.File, dir string, n, perWriter int, data []byte) time.Duration {
	tb.Helper()
	return Together(tb, n, func(g int) error {
		tmp, target := filepath.Join(dir, fmt.Sprintf(".floor%02d.tmp", g)), filepath.Join(dir, fmt.Sprintf("floor%02d.bin", g))
		for range perWriter {
			if err := DurableWrite(d, tmp, target, data); err != nil {
				return err
			}
		}
		return nil
	})
}

// Agent is one agent of AloneVsShared: g is its number (0 alone), and
// it works until the agents together have want successes, adding each
// of its successes to won and each refusal it retried to lost.
type Agent func(g int, want int64, won, lost *atomic.Int64) error

// AloneVsShared is a same-run comparison of one agent alone with n
// agents at once: each iteration of b is a round of agent 0 alone until
// it has want successes, then n agents together until they have as
// many. around, when not nil, is called before each shared half and
// returns what to call after it (a benchmark's own counts). Reported:
// alone-writes/s, shared-writes/s, shared/alone and conflicts/success.
func AloneVsShared(b *testing.B, n int, want int64, agent Agent, around func() (after func())) {
	var aloneTime, sharedTime time.Duration
	var aloneN, sharedN, conflicts int64
	b.ResetTimer()
	for b.Loop() {
		var won, lost atomic.Int64
		aloneTime += Together(b, 1, func(int) error { return agent(0, want, &won, &lost) })
		aloneN += won.Load()
		won.Store(0)
		lost.Store(0)
		after := func() {}
		if around != nil {
			after = around()
		}
		sharedTime += Together(b, n, func(g int) error { return agent(g, want, &won, &lost) })
		after()
		sharedN += won.Load() // may pass want by the agents already past the check
		conflicts += lost.Load()
	}
	b.StopTimer()
	alone, shared := float64(aloneN)/aloneTime.Seconds(), float64(sharedN)/sharedTime.Seconds()
	b.ReportMetric(alone, "alone-writes/s")
	b.ReportMetric(shared, "shared-writes/s")
	b.ReportMetric(shared/alone, "shared/alone")
	b.ReportMetric(float64(conflicts)/float64(sharedN), "conflicts/success")
}

// Together runs fn(0..n-1) on n goroutines released at once and returns
// how long they took, failing tb on the first error.
func Together(tb testing.TB, n int, fn func(g int) error) time.Duration {
	tb.Helper()
	var start, done sync.WaitGroup
	start.Add(1)
	errs := make([]error, n)
	for g := range n {
		done.Go(func() {
			start.Wait()
			errs[g] = fn(g)
		})
	}
	t0 := time.Now()
	start.Done()
	done.Wait()
	d := time.Since(t0)
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
	return d
}

// CPUTime is the CPU (user and system) this process has used: taken
// before and after, it is what the work between cost, whichever of the
// process's goroutines did it.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
