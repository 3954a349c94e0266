package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// kit is one backend for the behaviour checks every backend must pass.
type kit struct {
	name string
	// open opens an empty store with the cap (0: the default), and a
	// function opening another node on the same files: the same
	// directory, or the same database through a pool of its own.
	open func(t *testing.T, max int64) (Backend, func() Backend)
	// exactCreated: of racing first writers exactly one reports created
	// (the directory store is exact where rename can refuse to replace).
	exactCreated bool
}

var kits = []kit{
	{name: "dir", open: openDirKit, exactCreated: onLinux},
	{name: "postgres", open: openPGKit, exactCreated: true},
}

func openDirKit(t *testing.T, max int64) (Backend, func() Backend) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	node := func() Backend {
		s, err := Open(Config{Dir: dir, MaxFileBytes: max})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	return node(), node
}

func openPGKit(t *testing.T, max int64) (Backend, func() Backend) {
	t.Helper()
	dsn := pgtest.DSN(t)
	node := func() Backend {
		pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		s, err := OpenPostgres(pool, Config{MaxFileBytes: max})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return node(), node
}

// eachKit runs check on every backend.
func eachKit(t *testing.T, check func(t *testing.T, k kit)) {
	for _, k := range kits {
		t.Run(k.name, func(t *testing.T) { check(t, k) })
	}
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// listAll is every Info the backend lists, failing on a listing error.
func listAll(t *testing.T, b Backend) []Info {
	t.Helper()
	var out []Info
	for info, err := range b.List(bg) {
		if err != nil {
			t.Fatalf("List: %v", err)
		}
		out = append(out, info)
	}
	return out
}

func TestBackendRoundTripIsVerbatim(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, _ := k.open(t, 1<<20)
		for i, n := range []int{0, 1, 13, 4096, 65537, 1 << 20} {
			p := mustPath(t, fmt.Sprintf("rooms/board/f%d", i))
			data := randBytes(uint64(i+100), n)
			info, created := put(t, s, p, "image/png", data)
			if !created || info.Size != int64(n) || info.SHA256 != hashOf(data) || info.ContentType != "image/png" || info.Path != p.String() {
				t.Fatalf("%d bytes: %+v created=%v", n, info, created)
			}
			got, back := get(t, s, p)
			if !bytes.Equal(back, data) {
				t.Fatalf("%d bytes: data differs", n)
			}
			if got.Path != info.Path || got.SHA256 != info.SHA256 || got.Size != info.Size || got.ContentType != info.ContentType {
				t.Fatalf("%d bytes: Get %+v, Put %+v", n, got, info)
			}
			st, err := s.Stat(bg, p)
			if err != nil || st.SHA256 != info.SHA256 || st.Size != info.Size || st.ContentType != "image/png" || st.Path != p.String() {
				t.Fatalf("Stat: %+v %v", st, err)
			}
		}
		// The content type is stored sanitised.
		info, _ := put(t, s, mustPath(t, "shareLinks/l/t"), "TEXT/Plain; charset=UTF-8; x=y", []byte("hi"))
		if got, _ := get(t, s, mustPath(t, "shareLinks/l/t")); info.ContentType != "text/plain; charset=utf-8" || got.ContentType != info.ContentType {
			t.Fatalf("content type %q, read back %q", info.ContentType, got.ContentType)
		}
	})
}

// The first write creates; writing the same again, or something else,
// replaces (created false) and reads back as the last write.
func TestBackendWrites(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, _ := k.open(t, 0)
		if s.MaxFileBytes() != DefaultMaxFileBytes {
			t.Fatalf("default max %d", s.MaxFileBytes())
		}
		p := mustPath(t, "rooms/b/f")
		if _, created := put(t, s, p, "image/png", []byte("one")); !created {
			t.Fatal("first write not created")
		}
		info, created := put(t, s, p, "image/png", []byte("one"))
		if created || info.Size != 3 || info.SHA256 != hashOf([]byte("one")) {
			t.Fatalf("identical write: %+v created=%v", info, created)
		}
		if got, data := get(t, s, p); string(data) != "one" || got.ContentType != "image/png" {
			t.Fatalf("after identical write: %q %+v", data, got)
		}
		// Same bytes, another type: a different write.
		if _, created := put(t, s, p, "image/gif", []byte("one")); created {
			t.Fatal("retyped write created")
		}
		if got, _ := get(t, s, p); got.ContentType != "image/gif" {
			t.Fatalf("retyped: %+v", got)
		}
		info, created = put(t, s, p, "text/plain", []byte("two!"))
		if created || info.Size != 4 {
			t.Fatalf("different write: %+v created=%v", info, created)
		}
		got, data := get(t, s, p)
		if string(data) != "two!" || got.ContentType != "text/plain" || got.SHA256 != hashOf(data) {
			t.Fatalf("%q %+v", data, got)
		}
		if l := listAll(t, s); len(l) != 1 || l[0].Path != p.String() || l[0].Size != 4 {
			t.Fatalf("listed %+v", l)
		}
	})
}

func TestBackendNotFound(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, _ := k.open(t, 0)
		for _, p := range []string{"rooms/none/x", "shareLinks/x"} {
			_, err := s.Get(bg, mustPath(t, p))
			wantCode(t, err, sceneerr.NotFound)
			_, err = s.Stat(bg, mustPath(t, p))
			wantCode(t, err, sceneerr.NotFound)
		}
		put(t, s, mustPath(t, "rooms/b/x"), "", []byte("x"))
		_, err := s.Get(bg, mustPath(t, "rooms/b/y"))
		wantCode(t, err, sceneerr.NotFound)
		// Case matters, on any disk and in any collation.
		_, err = s.Get(bg, mustPath(t, "rooms/b/X"))
		wantCode(t, err, sceneerr.NotFound)
		if l := listAll(t, s); len(l) != 1 {
			t.Fatalf("listed %+v", l)
		}
	})
}

// Over the cap is too_large with the same message and details on every
// backend, refused before anything is stored: from the declared size
// before the body is read, else once a byte over the cap is read.
func TestBackendSizeCap(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		const max = 1024
		s, _ := k.open(t, max)
		p := mustPath(t, "rooms/b/big")
		var read countingReader
		_, _, err := s.Put(bg, p, "", max+1, &read)
		wantCode(t, err, sceneerr.TooLarge)
		if read.n != 0 {
			t.Fatalf("read %d bytes of a body declared too large", read.n)
		}
		var e *sceneerr.Error
		if !errors.As(err, &e) || e.Details["limit"] != LimitName || e.Details["max"] != int64(max) || e.Details["actual"] != int64(max+1) {
			t.Fatalf("details of %v", err)
		}
		if e.Message != "the file is 1,025 bytes; the limit is 1,024 (files.maxFileBytes)" {
			t.Fatalf("message %q", e.Message)
		}
		body := &countingReader{r: bytes.NewReader(make([]byte, 10*max))}
		_, _, err = s.Put(bg, p, "", -1, body)
		wantCode(t, err, sceneerr.TooLarge)
		if !errors.As(err, &e) || !strings.HasPrefix(e.Message, "the file is more than ") || e.Details["actual"] != int64(max+1) || e.Details["max"] != int64(max) {
			t.Fatalf("undeclared: %v %v", err, e.Details)
		}
		if body.n > max+1 {
			t.Fatalf("read %d bytes", body.n)
		}
		// Declared within the cap, but longer.
		_, _, err = s.Put(bg, p, "", 10, bytes.NewReader(make([]byte, max+1)))
		wantCode(t, err, sceneerr.TooLarge)
		if _, err := s.Get(bg, p); sceneerr.CodeOf(err) != sceneerr.NotFound {
			t.Fatalf("Get after refused Put: %v", err)
		}
		if l := listAll(t, s); len(l) != 0 {
			t.Fatalf("refused writes stored %+v", l)
		}
		put(t, s, p, "", randBytes(9, max))
		_, _, err = s.Put(bg, p, "", -1, bytes.NewReader(make([]byte, max+1)))
		wantCode(t, err, sceneerr.TooLarge)
		if _, d := get(t, s, p); !bytes.Equal(d, randBytes(9, max)) {
			t.Fatal("refused write changed the file")
		}
	})
}

// A body that fails, or a context that ends, leaves the old file.
func TestBackendFailedWriteLeavesTheOldFile(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, _ := k.open(t, 0)
		p := mustPath(t, "rooms/b/f")
		put(t, s, p, "image/png", []byte("old"))
		boom := errors.New("client went away")
		_, _, err := s.Put(bg, p, "", -1, io.MultiReader(bytes.NewReader([]byte("new data")), errReader{boom}))
		if !errors.Is(err, boom) || sceneerr.CodeOf(err) != "" {
			t.Fatalf("got %v", err)
		}
		ctx, cancel := context.WithCancel(bg)
		cancel()
		if _, _, err := s.Put(ctx, p, "", 3, bytes.NewReader([]byte("new"))); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled: %v", err)
		}
		if _, err := s.Get(ctx, p); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled Get: %v", err)
		}
		if got, d := get(t, s, p); string(d) != "old" || got.ContentType != "image/png" {
			t.Fatalf("%q", d)
		}
	})
}

// Concurrent writes to one path, from two nodes: each read sees one
// whole write, its bytes with its own type and hash; a replacement never
// reports created.
func TestBackendConcurrentWritesAreNeverTorn(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		a, node := k.open(t, 1<<20)
		nodes := []Backend{a, node()}
		p := mustPath(t, "rooms/b/f")
		const writers, rounds = 4, 8
		payload := func(w int) []byte { return bytes.Repeat([]byte{byte('a' + w)}, 20000+w*3001) }
		typeOf := func(w int) string { return fmt.Sprintf("application/x-writer%d", w) }
		put(t, a, p, typeOf(0), payload(0))
		var wg sync.WaitGroup
		errs := make(chan error, writers*rounds*2)
		for w := range writers {
			s := nodes[w%2]
			wg.Go(func() {
				for range rounds {
					data := payload(w)
					_, c, err := s.Put(bg, p, typeOf(w), int64(len(data)), bytes.NewReader(data))
					if err != nil {
						errs <- err
					} else if c {
						errs <- errors.New("a replacement reported created")
					}
				}
			})
			wg.Go(func() {
				for range rounds {
					f, err := s.Get(bg, p)
					if err != nil {
						errs <- err
						continue
					}
					data, err := io.ReadAll(f)
					f.Close()
					if err != nil {
						errs <- err
						continue
					}
					w := int(data[0] - 'a')
					if !bytes.Equal(data, payload(w)) || f.ContentType != typeOf(w) || f.SHA256 != hashOf(data) || f.Size != int64(len(data)) {
						errs <- fmt.Errorf("torn read: %d bytes of writer %d with %s", len(data), w, f.ContentType)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		info, data := get(t, nodes[1], p)
		if w := int(data[0] - 'a'); !bytes.Equal(data, payload(w)) || info.ContentType != typeOf(w) {
			t.Fatalf("final file is torn")
		}
	})
}

// Of first writes racing, on one node or two, exactly one reports
// created; of a share link's, the others are already_exists and the
// file is the one that was created.
func TestBackendFirstWritesRacing(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		a, node := k.open(t, 0)
		nodes := []Backend{a, node()}
		for i := range 10 {
			for _, area := range []string{"rooms/b", "shareLinks"} {
				p := mustPath(t, fmt.Sprintf("%s/race/f%d", area, i))
				var wg sync.WaitGroup
				var mu sync.Mutex
				n, won := 0, byte(0)
				for w := range 4 {
					wg.Go(func() {
						_, c, err := nodes[w%2].Put(bg, p, "", 1, bytes.NewReader([]byte{byte('a' + w)}))
						if err != nil && (p.Kind != ShareLinks || sceneerr.CodeOf(err) != sceneerr.AlreadyExists) {
							t.Error(err)
						}
						if c {
							mu.Lock()
							n++
							won = byte('a' + w)
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				if n < 1 || (k.exactCreated && n != 1) {
					t.Fatalf("%s: %d writes reported created", p, n)
				}
				if _, data := get(t, a, p); p.Kind == ShareLinks && (len(data) != 1 || data[0] != won) {
					t.Fatalf("%s holds %q, not the write that created it (%q)", p, data, won)
				}
			}
		}
	})
}

// Two nodes on the same files see each other's writes at once.
func TestBackendTwoNodes(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		a, node := k.open(t, 0)
		b := node()
		p := mustPath(t, "rooms/b/shared")
		put(t, a, p, "image/png", []byte("from a"))
		if got, d := get(t, b, p); string(d) != "from a" || got.ContentType != "image/png" {
			t.Fatalf("b reads %q %+v", d, got)
		}
		if _, created := put(t, b, p, "image/webp", []byte("from b")); created {
			t.Fatal("b's replacement reported created")
		}
		if got, d := get(t, a, p); string(d) != "from b" || got.ContentType != "image/webp" {
			t.Fatalf("a reads %q %+v", d, got)
		}
		put(t, b, mustPath(t, "shareLinks/l/x"), "", []byte("x"))
		if st, err := a.Stat(bg, mustPath(t, "shareLinks/l/x")); err != nil || st.Size != 1 {
			t.Fatalf("a stats %+v %v", st, err)
		}
		if la, lb := listAll(t, a), listAll(t, b); len(la) != 2 || !sameInfos(la, lb) {
			t.Fatalf("a lists %+v, b %+v", la, lb)
		}
	})
}

func sameInfos(a, b []Info) bool {
	return slices.EqualFunc(a, b, func(x, y Info) bool {
		return x.Path == y.Path && x.Size == y.Size && x.SHA256 == y.SHA256 && x.ContentType == y.ContentType && x.ModTime.Equal(y.ModTime)
	})
}

// List yields every file once, in order of path (byte order), with what
// Stat says of it; an empty store lists nothing.
func TestBackendList(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, _ := k.open(t, 0)
		if l := listAll(t, s); len(l) != 0 {
			t.Fatalf("empty store lists %+v", l)
		}
		paths := []string{"shareLinks/z", "rooms/b/B", "rooms/b/a", "rooms/b/a.b/c", "rooms/b-2/x", "rooms/a/_", "shareLinks/A/b", "rooms/b/a-b"}
		for i, p := range paths {
			put(t, s, mustPath(t, p), "image/png", randBytes(uint64(i), i*100))
		}
		got := listAll(t, s)
		want := slices.Clone(paths)
		slices.Sort(want)
		if len(got) != len(want) {
			t.Fatalf("listed %d of %d", len(got), len(want))
		}
		for i, info := range got {
			if info.Path != want[i] {
				t.Fatalf("listed %d: %s, want %s", i, info.Path, want[i])
			}
			st, err := s.Stat(bg, mustPath(t, info.Path))
			if err != nil || !sameInfos([]Info{st}, []Info{info}) {
				t.Fatalf("listed %+v, stat %+v %v", info, st, err)
			}
		}
		// Stopping early stops.
		n := 0
		for range s.List(bg) {
			n++
			break
		}
		if n != 1 {
			t.Fatalf("%d yielded after break", n)
		}
	})
}

// CopyAll moves every file between backends, either way, verbatim: bytes,
// type, hash and time; a second run copies nothing; a file changed in the
// source is copied again, and one different in the destination replaced.
func TestCopyBetweenBackends(t *testing.T) {
	for _, from := range kits {
		for _, to := range kits {
			t.Run(from.name+"→"+to.name, func(t *testing.T) {
				src, _ := from.open(t, 1<<20)
				dst, _ := to.open(t, 1<<20)
				paths := []string{"rooms/b/empty", "rooms/b/cap", "rooms/c/x/y", "shareLinks/l/f", "shareLinks/g"}
				for i, p := range paths {
					n := i * 777
					if p == "rooms/b/empty" {
						n = 0
					} else if p == "rooms/b/cap" {
						n = 1 << 20
					}
					put(t, src, mustPath(t, p), fmt.Sprintf("image/x-%d", i), randBytes(uint64(i+7), n))
				}
				// Backdated, so a copy that stamped its own time would show.
				old := time.Date(2024, 2, 3, 4, 5, 6, 789_123_456, time.UTC)
				backdated := Info{Path: "rooms/b/old", Size: 3, ContentType: "image/png", SHA256: hashOf([]byte("old")), ModTime: old}
				if c, err := src.Restore(bg, backdated, bytes.NewReader([]byte("old"))); err != nil || !c {
					t.Fatalf("restore into the source: %v %v", c, err)
				}
				copied, unchanged, err := CopyAll(bg, dst, src)
				if err != nil || copied != len(paths)+1 || unchanged != 0 {
					t.Fatalf("first run: %d copied, %d unchanged, %v", copied, unchanged, err)
				}
				sameContents(t, dst, src)
				if st, _ := dst.Stat(bg, mustPath(t, "rooms/b/old")); !st.ModTime.Truncate(time.Microsecond).Equal(old.Truncate(time.Microsecond)) {
					t.Fatalf("copied time %v, want %v", st.ModTime, old)
				}
				copied, unchanged, err = CopyAll(bg, dst, src)
				if err != nil || copied != 0 || unchanged != len(paths)+1 {
					t.Fatalf("second run: %d copied, %d unchanged, %v", copied, unchanged, err)
				}
				put(t, src, mustPath(t, "rooms/b/empty"), "image/x-0", []byte("changed in the source"))
				put(t, dst, mustPath(t, "rooms/c/x/y"), "image/x-2", []byte("changed in the destination"))
				copied, unchanged, err = CopyAll(bg, dst, src)
				if err != nil || copied != 2 || unchanged != len(paths)-1 {
					t.Fatalf("third run: %d copied, %d unchanged, %v", copied, unchanged, err)
				}
				sameContents(t, dst, src)
			})
		}
	}
}

// sameContents fails unless dst holds exactly src's files.
func sameContents(t *testing.T, dst, src Backend) {
	t.Helper()
	ls, ld := listAll(t, src), listAll(t, dst)
	if len(ls) != len(ld) {
		t.Fatalf("source lists %d, destination %d", len(ls), len(ld))
	}
	for i, s := range ls {
		d := ld[i]
		if d.Path != s.Path || d.Size != s.Size || d.SHA256 != s.SHA256 || d.ContentType != s.ContentType || !d.ModTime.Truncate(time.Microsecond).Equal(s.ModTime.Truncate(time.Microsecond)) {
			t.Fatalf("source %+v, destination %+v", s, d)
		}
		_, a := get(t, src, mustPath(t, s.Path))
		_, b := get(t, dst, mustPath(t, s.Path))
		if !bytes.Equal(a, b) || hashOf(b) != d.SHA256 {
			t.Fatalf("%s: bytes differ", s.Path)
		}
	}
}

// Restore refuses, storing nothing, a body that is not the file listed,
// and one over the destination's cap.
func TestBackendRestoreRefusals(t *testing.T) {
	eachKit(t, func(t *testing.T, k kit) {
		s, _ := k.open(t, 1024)
		info := Info{Path: "rooms/b/f", Size: 5, ContentType: "image/png", SHA256: hashOf([]byte("hello")), ModTime: time.Now()}
		for name, body := range map[string]string{"other bytes": "world", "short": "hell", "long": "hello!"} {
			if c, err := s.Restore(bg, info, bytes.NewReader([]byte(body))); err == nil || c {
				t.Errorf("%s: copied %v, %v", name, c, err)
			}
		}
		big := Info{Path: "rooms/b/big", Size: 2048, ContentType: "image/png", SHA256: hashOf(make([]byte, 2048)), ModTime: time.Now()}
		_, err := s.Restore(bg, big, bytes.NewReader(make([]byte, 2048)))
		wantCode(t, err, sceneerr.TooLarge)
		_, err = s.Restore(bg, Info{Path: "rooms/../x"}, bytes.NewReader(nil))
		wantCode(t, err, sceneerr.InvalidName)
		if l := listAll(t, s); len(l) != 0 {
			t.Fatalf("refused restores stored %+v", l)
		}
		// The same file already there: nothing read, nothing written.
		put(t, s, mustPath(t, "rooms/b/f"), "image/png", []byte("hello"))
		var read countingReader
		if c, err := s.Restore(bg, info, &read); err != nil || c || read.n != 0 {
			t.Fatalf("identical restore: copied %v, read %d, %v", c, read.n, err)
		}
	})
}

// A database that does not answer is store_unavailable (503),
// retryable, saying so; nothing hangs.
func TestPostgresUnreachable(t *testing.T) {
	pool, err := pgxpool.New(bg, "postgres://dsh:pw@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s, err := OpenPostgres(pool, Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := mustPath(t, "rooms/b/f")
	check := func(what string, err error) {
		t.Helper()
		c, ok := apierr.As(err)
		if !ok || c.ErrorCode() != apierr.CodeStoreUnavailable || c.HTTPStatus() != 503 || !errors.Is(err, pgdb.ErrUnreachable) {
			t.Fatalf("%s: %v, want store_unavailable wrapping pgdb.ErrUnreachable", what, err)
		}
		if c.ErrorDetails()["retryable"] != true {
			t.Fatalf("%s: not retryable: %v", what, c.ErrorDetails())
		}
	}
	_, _, err = s.Put(bg, p, "", 1, bytes.NewReader([]byte("x")))
	check("Put", err)
	_, _, err = s.Put(bg, mustPath(t, "shareLinks/f"), "", 1, bytes.NewReader([]byte("x")))
	check("Put of a share link", err)
	_, err = s.Get(bg, p)
	check("Get", err)
	_, err = s.Stat(bg, p)
	check("Stat", err)
	for _, err := range s.List(bg) {
		check("List", err)
	}
}
