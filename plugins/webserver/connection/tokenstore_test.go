package connection

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

func TestTokenStoreRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsh", "tokens.json")
	store := OpenTokenStore(path)

	if recs, err := store.List(t.Context()); err != nil || len(recs) != 0 {
		t.Fatalf("missing file: %v %v", recs, err)
	}

	plainA, recA, err := store.Create(t.Context(), "laptop")
	if err != nil {
		t.Fatal(err)
	}
	plainB, recB, err := store.Create(t.Context(), "ci")
	if err != nil {
		t.Fatal(err)
	}
	if recA.SHA256 != HashToken(plainA) || recA.ID == recB.ID || recA.CreatedAt.IsZero() {
		t.Fatalf("bad record %+v", recA)
	}

	recs, err := store.List(t.Context())
	if err != nil || len(recs) != 2 || recs[0].Name != "laptop" || recs[1].Name != "ci" {
		t.Fatalf("List = %+v, %v", recs, err)
	}
	if !recs[0].CreatedAt.Equal(recA.CreatedAt) {
		t.Fatalf("createdAt not round-tripped: %v vs %v", recs[0].CreatedAt, recA.CreatedAt)
	}

	if rec, ok := store.Verify(t.Context(), plainA); !ok || rec.ID != recA.ID {
		t.Fatalf("Verify(A) = %+v %v", rec, ok)
	}
	if _, ok := store.Verify(t.Context(), plainA+"x"); ok {
		t.Fatal("tampered token verified")
	}

	// Only hashes on disk, with private permissions.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plainA, plainB, strings.TrimPrefix(plainA, TokenPrefix)} {
		if strings.Contains(string(data), p) {
			t.Fatal("plaintext token found in the token file")
		}
	}
	if !strings.Contains(string(data), recA.SHA256) {
		t.Fatal("hash missing from the token file")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(filepath.Dir(path))
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v, want 0700", di.Mode().Perm())
	}

	// Revoke by name and by id.
	if _, err := store.Revoke(t.Context(), "laptop"); err != nil {
		t.Fatal(err)
	}
	if _, ok := store.Verify(t.Context(), plainA); ok {
		t.Fatal("revoked token still verifies")
	}
	if _, err := store.Revoke(t.Context(), recB.ID); err != nil {
		t.Fatal(err)
	}
	if recs, _ := store.List(t.Context()); len(recs) != 0 {
		t.Fatalf("left %+v", recs)
	}
	if _, err := store.Revoke(t.Context(), "laptop"); !errors.Is(err, ErrTokenNotFound) {
		t.Fatalf("second revoke: %v", err)
	}
}

func TestTokenStoreRejectsBadNames(t *testing.T) {
	store := OpenTokenStore(filepath.Join(t.TempDir(), "tokens.json"))
	if _, _, err := store.Create(t.Context(), "  "); err == nil {
		t.Fatal("empty name accepted")
	}
	if _, _, err := store.Create(t.Context(), "x"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.Create(t.Context(), "x"); err == nil {
		t.Fatal("duplicate name accepted")
	}
}

// A name with a control character is invalid_name (names.Check), before
// the file is read or written: nothing is kept, not even trimmed.
func TestTokenStoreRefusesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	store := OpenTokenStore(path)
	for _, name := range []string{"bot\x1b[31m", "a\x00", "agent\n", "\tagent", "rtl\u202e"} {
		_, _, err := store.Mint(t.Context(), TokenSpec{Name: name})
		if c, ok := apierr.As(err); !ok || c.ErrorCode() != "invalid_name" || c.HTTPStatus() != 400 {
			t.Fatalf("Mint(%q) = %v, want invalid_name", name, err)
		}
		if _, _, err := store.Create(t.Context(), name); err == nil {
			t.Fatalf("Create(%q) accepted", name)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("refused names wrote the token file: %v", err)
	}
}

func TestTokenStoreCorruptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	store := OpenTokenStore(path)
	if _, err := store.List(t.Context()); err == nil {
		t.Fatal("corrupt file listed")
	}
	if _, _, err := store.Create(t.Context(), "x"); err == nil {
		t.Fatal("create over corrupt file must not clobber it")
	}
	if _, ok := store.Verify(t.Context(), "anything"); ok {
		t.Fatal("corrupt file verified a token")
	}
}
