package exports

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var bg = context.Background()

const secret = "a secret long enough to sign with"

// kit is one backend for the behaviour checks every backend must pass.
type kit struct {
	name string
	// open returns a function opening a node on one shared set of
	// exports (the same folder, or the same database through a pool of
	// its own) with the given secret and clock.
	open func(t *testing.T) func(secret string, c *clock) *Store
}

var kits = []kit{
	{"dir", func(t *testing.T) func(string, *clock) *Store {
		dir := filepath.Join(t.TempDir(), "exports")
		return func(secret string, c *clock) *Store {
			s, err := Open(testConfig(dir, secret, c))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}},
	{"postgres", func(t *testing.T) func(string, *clock) *Store {
		dsn := pgtest.DSN(t)
		return func(secret string, c *clock) *Store {
			pool, err := pgdb.Open(bg, pgdb.Options{DSN: dsn})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			s, err := OpenPostgres(pool, testConfig("", secret, c))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}},
}

func testConfig(dir, secret string, c *clock) Config {
	return Config{Dir: dir, Secret: []byte(secret), LinkTTL: time.Hour, MaxTTL: 24 * time.Hour, Keep: 48 * time.Hour, Now: c.now}
}

func eachKit(t *testing.T, check func(t *testing.T, node func(string, *clock) *Store)) {
	for _, k := range kits {
		t.Run(k.name, func(t *testing.T) { check(t, k.open(t)) })
	}
}

func readLink(t *testing.T, s *Store, l Link) ([]byte, *File, error) {
	t.Helper()
	id, exp, sig := parse(t, l)
	f, err := s.OpenContext(bg, id, exp, sig)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b, f, nil
}

func listAll(t *testing.T, s *Store) []Entry {
	t.Helper()
	var out []Entry
	for e, err := range s.List(bg) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// A link minted on one node opens on another with the same secret, until
// it expires; tampered, another secret's, or past its time, it is refused
// there as on the node that made it.
func TestBackendLinkMintedOnOneNodeOpensOnAnother(t *testing.T) {
	eachKit(t, func(t *testing.T, node func(string, *clock) *Store) {
		c := &clock{time.Unix(1_800_000_000, 0)}
		a, b := node(secret, c), node(secret, c)
		id := NewID() + "-r0c1.png"
		l, err := a.Put(id, []byte("picture"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if l.ID != id || !l.ExpiresAt.Equal(c.t.Add(time.Hour)) || l.MIME != "image/png" || l.Bytes != 7 {
			t.Fatalf("link %+v", l)
		}
		data, f, err := readLink(t, b, l)
		if err != nil || string(data) != "picture" {
			t.Fatalf("on b: %q %v", data, err)
		}
		if f.ID != id || f.Format != "png" || f.Size != 7 || !f.Created.Equal(c.t) {
			t.Fatalf("entry %+v", f.Entry)
		}
		id2, exp, sig := parse(t, l)
		if _, err := b.Open(id2, "1900000000", sig); !errors.Is(err, ErrBadLink) {
			t.Fatalf("later expiry on b: %v", err)
		}
		other := node("a different secret of the same size", c)
		if _, err := other.Open(id2, exp, sig); !errors.Is(err, ErrBadLink) {
			t.Fatalf("another secret: %v", err)
		}
		// A genuine link to an id never stored.
		if _, _, err := readLink(t, b, b.Sign(NewID()+".svg", time.Hour, 0)); !errors.Is(err, ErrNoLongerKept) {
			t.Fatalf("never stored: %v", err)
		}
		c.t = c.t.Add(time.Hour)
		if _, _, err := readLink(t, b, l); !errors.Is(err, ErrExpired) {
			t.Fatalf("at its expiry: %v", err)
		}
	})
}

// Putting an id again replaces it; refused puts store nothing.
func TestBackendPuts(t *testing.T) {
	eachKit(t, func(t *testing.T, node func(string, *clock) *Store) {
		c := &clock{time.Unix(1_800_000_000, 0)}
		s := node(secret, c)
		var te *TTLError
		if _, err := s.Put(NewID()+".png", []byte("x"), 25*time.Hour); !errors.As(err, &te) {
			t.Fatalf("25h link: %v", err)
		}
		for _, id := range []string{"x.png", "../escape.png", NewID() + ".exe", NewID(), NewID() + "-UP.png"} {
			if _, err := s.Put(id, []byte("x"), 0); err == nil {
				t.Errorf("id %q accepted", id)
			}
		}
		if l := listAll(t, s); len(l) != 0 {
			t.Fatalf("refused puts stored %+v", l)
		}
		id := NewID() + ".excalidraw"
		if _, err := s.Put(id, []byte("first"), 0); err != nil {
			t.Fatal(err)
		}
		l, err := s.PutContext(bg, id, []byte("second, longer"), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if data, _, err := readLink(t, s, l); err != nil || string(data) != "second, longer" {
			t.Fatalf("%q %v", data, err)
		}
		if l := listAll(t, s); len(l) != 1 || l[0].ID != id || l[0].Size != 14 || l[0].Format != "excalidraw" {
			t.Fatalf("listed %+v", l)
		}
		ctx, cancel := context.WithCancel(bg)
		cancel()
		if _, err := s.PutContext(ctx, NewID()+".png", []byte("x"), 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled: %v", err)
		}
	})
}

// The sweep, on any node, removes the exports created before the
// retention, whichever node made them, and nothing else; a live link to
// a swept export is ErrNoLongerKept.
func TestBackendSweep(t *testing.T) {
	eachKit(t, func(t *testing.T, node func(string, *clock) *Store) {
		c := &clock{time.Unix(1_800_000_000, 0)}
		a, b := node(secret, c), node(secret, c)
		old := NewID() + ".png"
		if _, err := a.Put(old, []byte("old"), 0); err != nil {
			t.Fatal(err)
		}
		c.t = c.t.Add(48*time.Hour + time.Second)
		fresh := NewID() + ".svg"
		if _, err := b.Put(fresh, []byte("<svg/>"), 0); err != nil {
			t.Fatal(err)
		}
		n, err := b.Sweep()
		if err != nil || n != 1 {
			t.Fatalf("swept %d (%v), want 1", n, err)
		}
		if l := listAll(t, a); len(l) != 1 || l[0].ID != fresh {
			t.Fatalf("left %+v", l)
		}
		if _, _, err := readLink(t, a, a.Sign(old, time.Hour, 3)); !errors.Is(err, ErrNoLongerKept) {
			t.Fatalf("swept export: %v", err)
		}
		if n, err := a.Sweep(); err != nil || n != 0 {
			t.Fatalf("second sweep %d %v", n, err)
		}
	})
}

// CopyAll moves every export between stores either way, bytes and
// creation time; links made by the source open on the destination; a
// second run copies nothing; the destination's sweep goes by the
// original times.
func TestCopyBetweenBackends(t *testing.T) {
	for _, from := range kits {
		for _, to := range kits {
			t.Run(from.name+"→"+to.name, func(t *testing.T) {
				t0 := time.Date(2027, 1, 2, 3, 4, 5, 678_901_234, time.UTC)
				c := &clock{t0}
				src, dst := from.open(t)(secret, c), to.open(t)(secret, c)
				var links []Link
				for i, f := range []string{"png", "svg", "excalidraw", "json"} {
					l, err := src.Put(NewID()+"."+f, bytes.Repeat([]byte{byte(i)}, i*1000), 0)
					if err != nil {
						t.Fatal(err)
					}
					links = append(links, l)
					c.t = c.t.Add(20 * time.Hour)
				}
				copied, unchanged, err := CopyAll(bg, dst, src)
				if err != nil || copied != 4 || unchanged != 0 {
					t.Fatalf("first run: %d copied, %d unchanged, %v", copied, unchanged, err)
				}
				ls, ld := listAll(t, src), listAll(t, dst)
				if len(ls) != 4 || len(ld) != 4 {
					t.Fatalf("listed %d and %d", len(ls), len(ld))
				}
				for i := range ls {
					s, d := ls[i], ld[i]
					if s.ID != d.ID || s.Size != d.Size || s.Format != d.Format || !s.Created.Truncate(time.Microsecond).Equal(d.Created.Truncate(time.Microsecond)) {
						t.Fatalf("source %+v, destination %+v", s, d)
					}
				}
				c.t = links[3].ExpiresAt.Add(-30 * time.Minute) // the last link still live
				for _, l := range links[3:] {
					a, _, err := readLink(t, src, l)
					b, _, err2 := readLink(t, dst, l)
					if err != nil || err2 != nil || !bytes.Equal(a, b) {
						t.Fatalf("link %s: %v %v", l.ID, err, err2)
					}
				}
				copied, unchanged, err = CopyAll(bg, dst, src)
				if err != nil || copied != 0 || unchanged != 4 {
					t.Fatalf("second run: %d copied, %d unchanged, %v", copied, unchanged, err)
				}
				// Different bytes under an id in the destination are replaced.
				if _, err := dst.Put(links[1].ID, []byte("changed"), 0); err != nil {
					t.Fatal(err)
				}
				if copied, _, err := CopyAll(bg, dst, src); err != nil || copied != 1 {
					t.Fatalf("third run: %d copied, %v", copied, err)
				}
				// Created at t0, +20h, +40h, +60h, kept 48h: at +100h the
				// first three go.
				c.t = t0.Add(100 * time.Hour)
				if n, err := dst.Sweep(); err != nil || n != 3 {
					t.Fatalf("destination swept %d, %v", n, err)
				}
				if _, err := Copy(bg, dst, src, "../x.png"); err == nil {
					t.Fatal("bad id copied")
				}
				if _, err := Copy(bg, dst, src, NewID()+".png"); !errors.Is(err, ErrNoLongerKept) {
					t.Fatalf("missing id: %v", err)
				}
			})
		}
	}
}

// A database that does not answer is io_error, retryable, wrapping
// pgdb.ErrUnreachable: never taken for a swept export.
func TestPostgresUnreachable(t *testing.T) {
	pool, err := pgxpool.New(bg, "postgres://dsh:pw@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, err := OpenPostgres(pool, testConfig("", secret, c))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error) {
		t.Helper()
		c, ok := apierr.As(err)
		if !ok || c.ErrorCode() != apierr.CodeStoreUnavailable || c.HTTPStatus() != 503 || !errors.Is(err, pgdb.ErrUnreachable) || errors.Is(err, ErrNoLongerKept) {
			t.Fatalf("%s: %v, want store_unavailable wrapping pgdb.ErrUnreachable", what, err)
		}
		if c.ErrorDetails()["retryable"] != true {
			t.Fatalf("%s: not retryable", what)
		}
	}
	_, err = s.Put(NewID()+".png", []byte("x"), 0)
	check("Put", err)
	_, _, err = readLink(t, s, s.Sign(NewID()+".png", time.Hour, 1))
	check("Open", err)
	_, err = s.Sweep()
	check("Sweep", err)
	for _, err := range s.List(bg) {
		check("List", err)
	}
	_, _, err = CopyAll(bg, s, s)
	check("CopyAll", err)
}
