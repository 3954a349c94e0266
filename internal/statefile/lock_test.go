package statefile

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

type counter struct {
	N int `json:"n"`
}

func parseCounter(_ string, data []byte) (counter, error) {
	var c counter
	err := json.Unmarshal(data, &c)
	return c, err
}

func bump(t testing.TB, path string) {
	err := Update(t.Context(), path, "counter", parseCounter, func(c counter) (counter, bool, error) {
		c.N++
		return c, true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Updates from many goroutines and from other processes all count: none
// reads a value another is about to replace.
func TestUpdateLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "counter.json")
	const goroutines, each, children = 8, 10, 2
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				bump(t, path)
			}
		}()
	}
	var procs []*exec.Cmd
	for range children {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "STATEFILE_CHILD="+path, "STATEFILE_N="+strconv.Itoa(each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	wg.Wait()
	for _, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	got, err := Read(t.Context(), path, "counter", parseCounter)
	if err != nil {
		t.Fatal(err)
	}
	if want := goroutines*each + children*each; got.N != want {
		t.Fatalf("counter = %d, want %d (an update was lost)", got.N, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode: %v %v", fi, err)
	}
}

// A change that returns write=false writes nothing: a missing file stays
// missing.
func TestUpdateWithoutWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counter.json")
	err := Update(t.Context(), path, "counter", parseCounter, func(c counter) (counter, bool, error) { return c, false, nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("file written: %v", err)
	}
}

// TestMain doubles as the other process of TestUpdateLosesNothing: with
// STATEFILE_CHILD set, the test binary bumps that counter STATEFILE_N
// times and exits.
func TestMain(m *testing.M) {
	if path := os.Getenv("STATEFILE_CHILD"); path != "" {
		n, _ := strconv.Atoi(os.Getenv("STATEFILE_N"))
		for range n {
			err := Update(context.Background(), path, "counter", parseCounter, func(c counter) (counter, bool, error) {
				c.N++
				return c, true, nil
			})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
