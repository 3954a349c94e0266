package connection

import (
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/statefile"
)

func TestTokenWatchFollowsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	store := OpenTokenStore(path)
	w, err := newTokenWatch(t.Context(), statefile.File(path, TokensWhat), zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	if len(w.current(t.Context())) != 0 {
		t.Fatal("missing file should have no records")
	}

	plain, _, err := store.Create(t.Context(), "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := matchToken(plain, w.current(t.Context())); !ok {
		t.Fatal("created token not picked up")
	}
	// A second Create immediately after: same second, maybe same mtime, but
	// a new inode and size.
	plainB, _, _ := store.Create(t.Context(), "b")
	if _, ok := matchToken(plainB, w.current(t.Context())); !ok {
		t.Fatal("second token not picked up")
	}
	if _, err := store.Revoke(t.Context(), "a"); err != nil {
		t.Fatal(err)
	}
	if _, ok := matchToken(plain, w.current(t.Context())); ok {
		t.Fatal("revoked token still accepted")
	}

	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if recs := w.current(t.Context()); recs != nil {
		t.Fatalf("corrupt file must yield no records, got %v", recs)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if recs := w.current(t.Context()); recs != nil {
		t.Fatalf("removed file must yield no records, got %v", recs)
	}
}

func TestTokenWatchReportsBrokenFileAtStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(path, []byte("[1,2"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := newTokenWatch(t.Context(), statefile.File(path, TokensWhat), zap.NewNop()); err == nil {
		t.Fatal("want startup error for a corrupt token file")
	}
}
