package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestBeginRefusesCancelledContextAndClosedStore(t *testing.T) {
	s := testStore(t)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := s.begin(ctx, "a")
	if CodeOf(err) != CodeSceneBusy || !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	s.Close()
	wantCode(t, err2(s.begin(bg, "a")), CodeIOError)
}

// The sweep removes only the temp files of the scene being locked, and only
// once per store.
func TestSweepIsPerNameAndOnce(t *testing.T) {
	s := testStore(t)
	mine := filepath.Join(s.dir, ".a.excalidraw.tmp-0123456789abcdef")
	theirs := filepath.Join(s.dir, ".b.excalidraw.tmp-0123456789abcdef")
	lookalike := filepath.Join(s.dir, ".a.excalidraw.tmp-x.excalidraw.tmp-0123456789abcdef") // scene "a.excalidraw.tmp-x"
	backupTmp := filepath.Join(s.dir, metaDir, backupsDir, ".a.3.excalidraw.tmp-0123456789abcdef")
	for _, p := range []string{mine, theirs, lookalike, backupTmp} {
		writeFile(t, p, nil)
	}
	tx, err := s.begin(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	tx.end()
	for p, gone := range map[string]bool{mine: true, backupTmp: true, theirs: false, lookalike: false} {
		if _, err := os.Stat(p); os.IsNotExist(err) != gone {
			t.Errorf("%s gone=%v", filepath.Base(p), !gone)
		}
	}
	writeFile(t, mine, nil)
	tx, _ = s.begin(bg, "a")
	tx.end()
	if _, err := os.Stat(mine); err != nil {
		t.Fatal("swept twice")
	}
}
