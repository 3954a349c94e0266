package files

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// openShare opens a backend of k with the share links' total capped at
// total, and what opens another node on the same files.
func openShare(t *testing.T, k kit, total int64) (Backend, func() Backend) {
	t.Helper()
	cfg := Config{MaxFileBytes: 1 << 20, MaxShareLinkBytes: total}
	if k.name == "dir" {
		cfg.Dir = filepath.Join(t.TempDir(), "files")
		node := func() Backend {
			s, err := Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return s
		}
		return node(), node
	}
	dsn := pgtest.DSN(t)
	node := func() Backend {
		pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		s, err := OpenPostgres(pool, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return node(), node
}

func wantStorageFull(t *testing.T, err error) {
	t.Helper()
	c, ok := apierr.As(err)
	if !ok || c.ErrorCode() != CodeInsufficientStorage || c.HTTPStatus() != 507 || c.ErrorDetails()["limit"] != ShareLinkTotalLimitName {
		t.Fatalf("%v, want insufficient_storage", err)
	}
}

// A share link's file is written once, and the share links' files stay
// within their total; both refusals come before a byte of the body is
// read when the size is declared, and store nothing. Boards' files are
// neither create-only nor counted.
func TestBackendShareLinkRules(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, node := openShare(t, k, 1000)
		a := mustPath(t, "shareLinks/l/a")
		put(t, s, a, "image/png", bytes.Repeat([]byte("a"), 600))
		read := &countingReader{r: bytes.NewReader([]byte("other"))}
		_, created, err := s.Put(bg, a, "image/png", 5, read)
		wantCode(t, err, sceneerr.AlreadyExists)
		if created || read.n != 0 {
			t.Fatalf("refused write: created %v, read %d bytes", created, read.n)
		}
		read = &countingReader{r: bytes.NewReader(make([]byte, 401))}
		_, _, err = s.Put(bg, mustPath(t, "shareLinks/l/b"), "", 401, read)
		wantStorageFull(t, err)
		if read.n != 0 {
			t.Fatalf("the body was read (%d bytes) before the total refused it", read.n)
		}
		// Without a declared size, refused all the same.
		_, _, err = s.Put(bg, mustPath(t, "shareLinks/l/b"), "", -1, bytes.NewReader(make([]byte, 401)))
		wantStorageFull(t, err)
		// Boards' files are not counted, and replace.
		room := mustPath(t, "rooms/b/big")
		put(t, s, room, "", make([]byte, 5000))
		put(t, s, room, "", make([]byte, 6000))
		// Exactly up to the total.
		put(t, s, mustPath(t, "shareLinks/l/c"), "", make([]byte, 400))
		_, _, err = s.Put(bg, mustPath(t, "shareLinks/l/d"), "", 0, bytes.NewReader(nil))
		if err != nil {
			t.Fatalf("an empty file at the total: %v", err)
		}
		_, _, err = s.Put(bg, mustPath(t, "shareLinks/l/e"), "", 1, bytes.NewReader([]byte("x")))
		wantStorageFull(t, err)
		var names []string
		for _, info := range listAll(t, s) {
			names = append(names, info.Path)
		}
		if fmt.Sprint(names) != "[rooms/b/big shareLinks/l/a shareLinks/l/c shareLinks/l/d]" {
			t.Fatalf("stored %v", names)
		}
		// Another node (or this directory opened again) counts what is
		// there.
		_, _, err = node().Put(bg, mustPath(t, "shareLinks/l/f"), "", 1, bytes.NewReader([]byte("x")))
		wantStorageFull(t, err)
	})
}

// Uploads racing for the last room of the total: what is stored never
// passes it (on PostgreSQL across two nodes).
func TestBackendShareLinkTotalUnderRace(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, node := openShare(t, k, 1000)
		nodes := []Backend{s}
		if k.name == "postgres" {
			nodes = append(nodes, node())
		}
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Go(func() {
				_, _, err := nodes[i%len(nodes)].Put(bg, mustPath(t, fmt.Sprintf("shareLinks/r/f%d", i)), "", 300, bytes.NewReader(make([]byte, 300)))
				if c, ok := apierr.As(err); err != nil && (!ok || c.ErrorCode() != CodeInsufficientStorage) {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n := len(listAll(t, s)); n != 3 {
			t.Fatalf("%d files of 300 bytes stored under a total of 1000", n)
		}
	})
}

// The per-address limiter, in memory and in PostgreSQL: bytes per hour
// per address (an IPv6 /64 as one), refused with rate_limited and when
// to retry; settle gives back what was not stored.
func TestLimiter(t *testing.T) {
	windows := map[string]func(t *testing.T) statefile.Windows{
		"memory": func(*testing.T) statefile.Windows { return statefile.NewMemoryWindows() },
		"postgres": func(t *testing.T) statefile.Windows {
			pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: pgtest.DSN(t)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			return pgstate.New(pool, pgstate.Options{}).Windows()
		},
	}
	for name, open := range windows {
		t.Run(name, func(t *testing.T) {
			now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
			if _, err := NewLimiter(open(t), 1<<20, 2<<20, nil); err == nil {
				t.Fatal("a limit below the largest file was accepted")
			}
			l, err := NewLimiter(open(t), 1<<20, 1<<20, func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			ip := netip.MustParseAddr("192.0.2.7")
			settle, err := l.Take(bg, ip, 600<<10)
			if err != nil {
				t.Fatal(err)
			}
			settle(600 << 10)
			if _, err := l.Take(bg, ip, 500<<10); sceneerr.CodeOf(err) != sceneerr.RateLimited {
				t.Fatalf("past the hour's bytes: %v", err)
			} else if d := err.(*sceneerr.Error).Details; d["retryAfterSec"] != 3600 || d["retryable"] != true {
				t.Fatalf("details %v", d)
			}
			// Another address is counted apart; a refused upload counts
			// nothing; one that stored less gives the rest back.
			settle, err = l.Take(bg, netip.MustParseAddr("198.51.100.1"), 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			settle(-1)
			settle, err = l.Take(bg, netip.MustParseAddr("198.51.100.1"), 1<<20)
			if err != nil {
				t.Fatalf("after a refused upload: %v", err)
			}
			settle(128 << 10)
			if _, err := l.Take(bg, netip.MustParseAddr("198.51.100.1"), 896<<10); err != nil {
				t.Fatalf("after an upload that stored less: %v", err)
			}
			// One IPv6 /64 is one address.
			settle, err = l.Take(bg, netip.MustParseAddr("2001:db8:1:2::1"), 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			settle(1 << 20)
			if _, err := l.Take(bg, netip.MustParseAddr("2001:db8:1:2:ffff::9"), 1); sceneerr.CodeOf(err) != sceneerr.RateLimited {
				t.Fatalf("another address of the same /64: %v", err)
			}
			if _, err := l.Take(bg, netip.MustParseAddr("2001:db8:1:3::1"), 1); err != nil {
				t.Fatalf("another /64: %v", err)
			}
			// An hour later the first address may upload again.
			now = now.Add(time.Hour)
			if _, err := l.Take(bg, ip, 1<<20); err != nil {
				t.Fatalf("an hour later: %v", err)
			}
		})
	}
}
