package exports

import (
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func open(t *testing.T, secret string, c *clock) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "exports")
	s, err := Open(Config{Dir: dir, Secret: []byte(secret), LinkTTL: time.Hour, MaxTTL: 24 * time.Hour, Keep: 48 * time.Hour, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func parse(t *testing.T, l Link) (id, exp, sig string) {
	t.Helper()
	u, err := url.Parse(l.URL)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, PathPrefix), u.Query().Get("exp"), u.Query().Get("sig")
}

func TestALinkOpensItsFileUntilItExpires(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, _ := open(t, "a secret long enough to sign with", c)
	l, err := s.Put(NewID()+".png", []byte("picture"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !l.ExpiresAt.Equal(c.t.Add(time.Hour)) || l.MIME != "image/png" || l.Bytes != 7 {
		t.Fatalf("link %+v", l)
	}
	id, exp, sig := parse(t, l)
	f, err := s.Open(id, exp, sig)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "picture" {
		t.Fatalf("read %q", b)
	}
	c.t = c.t.Add(time.Hour)
	if _, err := s.Open(id, exp, sig); !errors.Is(err, ErrExpired) {
		t.Fatalf("at its expiry: %v, want ErrExpired", err)
	}
}

func TestTamperedLinksAreRefused(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, _ := open(t, "a secret long enough to sign with", c)
	l, err := s.Put(NewID()+".svg", []byte("<svg/>"), 0)
	if err != nil {
		t.Fatal(err)
	}
	id, exp, sig := parse(t, l)
	other, _ := s.Put(NewID()+".svg", []byte("<svg/>"), 0)
	oid, _, _ := parse(t, other)
	later := "1900000000"
	flip := func(s string) string {
		if s[0] == '0' {
			return "1" + s[1:]
		}
		return "0" + s[1:]
	}
	for name, c := range map[string][3]string{
		"another file":        {oid, exp, sig},
		"a later expiry":      {id, later, sig},
		"a changed sig":       {id, exp, flip(sig)},
		"no sig":              {id, exp, ""},
		"a path":              {"../" + id, exp, sig},
		"another secret's":    {id, exp, strings.Repeat("a", 64)},
		"a non-number expiry": {id, "soon", sig},
	} {
		if _, err := s.Open(c[0], c[1], c[2]); !errors.Is(err, ErrBadLink) {
			t.Errorf("%s: %v, want ErrBadLink", name, err)
		}
	}
	// Another store (another secret) does not accept this store's links.
	s2, _ := open(t, "a different secret of the same size", c)
	if _, err := s2.Open(id, exp, sig); !errors.Is(err, ErrBadLink) {
		t.Errorf("other secret: %v", err)
	}
}

func TestTTLIsBoundedAndIDsAreChecked(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, dir := open(t, "secret secret secret secret secret", c)
	var te *TTLError
	if _, err := s.Put(NewID()+".png", nil, 25*time.Hour); !errors.As(err, &te) {
		t.Fatalf("25h link: %v", err)
	}
	for _, id := range []string{"x.png", "../escape.png", NewID() + ".exe", NewID()} {
		if _, err := s.Put(id, nil, 0); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("refused puts left %d files", len(entries))
	}
}

func TestSweepRemovesOnlyOldExports(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, dir := open(t, "secret secret secret secret secret", c)
	old := NewID() + ".png"
	if _, err := s.Put(old, []byte("old"), 0); err != nil {
		t.Fatal(err)
	}
	fresh := NewID() + ".png"
	if _, err := s.Put(fresh, []byte("new"), 0); err != nil {
		t.Fatal(err)
	}
	stranger := filepath.Join(dir, "notes.txt")
	os.WriteFile(stranger, []byte("mine"), 0o600)
	past := time.Now().Add(-72 * time.Hour)
	for _, p := range []string{filepath.Join(dir, old), stranger} {
		if err := os.Chtimes(p, past, past); err != nil {
			t.Fatal(err)
		}
	}
	c.t = time.Now()
	n, err := s.Sweep()
	if err != nil || n != 1 {
		t.Fatalf("swept %d (%v), want 1", n, err)
	}
	for p, want := range map[string]bool{filepath.Join(dir, old): false, filepath.Join(dir, fresh): true, stranger: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", p, err == nil, want)
		}
	}
}

func TestWithoutSecretLinksAreEphemeral(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, _ := open(t, "", c)
	if !s.Ephemeral() {
		t.Fatal("no secret, yet not ephemeral")
	}
	l, _ := s.Put(NewID()+".png", []byte("x"), 0)
	id, exp, sig := parse(t, l)
	if f, err := s.Open(id, exp, sig); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
}
