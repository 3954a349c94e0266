package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

var bg = context.Background()

var onLinux = runtime.GOOS == "linux"

func open(t *testing.T, max int64) *Store {
	t.Helper()
	s, err := Open(Config{Dir: filepath.Join(t.TempDir(), "files"), MaxFileBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func mustPath(t *testing.T, s string) Path {
	t.Helper()
	p, err := ParsePath(s)
	if err != nil {
		t.Fatalf("ParsePath(%q): %v", s, err)
	}
	return p
}

func randBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func put(t *testing.T, s Backend, p Path, ct string, data []byte) (Info, bool) {
	t.Helper()
	info, created, err := s.Put(bg, p, ct, int64(len(data)), bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Put(%s): %v", p, err)
	}
	return info, created
}

func get(t *testing.T, s Backend, p Path) (Info, []byte) {
	t.Helper()
	f, err := s.Get(bg, p)
	if err != nil {
		t.Fatalf("Get(%s): %v", p, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return f.Info, data
}

func wantCode(t *testing.T, err error, code sceneerr.Code) {
	t.Helper()
	if sceneerr.CodeOf(err) != code {
		t.Fatalf("got %v, want %s", err, code)
	}
}

func TestParsePath(t *testing.T) {
	for _, c := range []struct {
		in          string
		kind        Kind
		board, rest string
	}{
		{"rooms/board-1/abc", Rooms, "board-1", "abc"},
		{"rooms/b/Ab_c.d-e/F00", Rooms, "b", "Ab_c.d-e/F00"},
		{"shareLinks/xYz/file.bin", ShareLinks, "", "xYz/file.bin"},
		{"shareLinks/a", ShareLinks, "", "a"},
		{"rooms/b/" + strings.Repeat("a", MaxSegmentBytes), Rooms, "b", strings.Repeat("a", MaxSegmentBytes)},
		{"rooms/b/...", Rooms, "b", "..."}, // three dots is a name, not a step up
	} {
		p, err := ParsePath(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if p.Kind != c.kind || p.Board != c.board || p.Rest != c.rest || p.String() != c.in {
			t.Errorf("%q: %+v (%s)", c.in, p, p)
		}
	}
	long := "rooms/b/" + strings.Repeat(strings.Repeat("a", 100)+"/", 6)
	long = long[:len(long)-1]
	for _, c := range []struct {
		in   string
		code sceneerr.Code
	}{
		{"", sceneerr.NotFound},
		{"other/x", sceneerr.NotFound},
		{"Rooms/b/x", sceneerr.NotFound},
		{"sharelinks/x", sceneerr.NotFound},
		{"/rooms/b/x", sceneerr.NotFound},
		{"rooms", sceneerr.InvalidName},
		{"rooms/", sceneerr.InvalidName},
		{"rooms/b", sceneerr.InvalidName},
		{"rooms/b/", sceneerr.InvalidName},
		{"rooms/B/x", sceneerr.InvalidName},
		{"rooms/../x", sceneerr.InvalidName},
		{"rooms/./x", sceneerr.InvalidName},
		{"rooms/a..b/x", sceneerr.InvalidName},
		{"rooms/.hidden/x", sceneerr.InvalidName},
		{"rooms/b/..", sceneerr.InvalidName},
		{"rooms/b/.", sceneerr.InvalidName},
		{"rooms/b/x/../../../etc/passwd", sceneerr.InvalidName},
		{"rooms/b/x//y", sceneerr.InvalidName},
		{"rooms/b/x/", sceneerr.InvalidName},
		{"rooms/b//etc/passwd", sceneerr.InvalidName},
		{"rooms/b/%2e%2e", sceneerr.InvalidName},
		{"rooms/b/a%2Fb", sceneerr.InvalidName},
		{`rooms/b/..\..\x`, sceneerr.InvalidName},
		{`rooms/b/a\b`, sceneerr.InvalidName},
		{"rooms/b/a\x00b", sceneerr.InvalidName},
		{"rooms/b/a b", sceneerr.InvalidName},
		{"rooms/b/a\nb", sceneerr.InvalidName},
		{"rooms/b/a:b", sceneerr.InvalidName},
		{"rooms/b/\u2024\u2024", sceneerr.InvalidName}, // one dot leaders
		{"rooms/b/x\u2215y", sceneerr.InvalidName},     // division slash
		{"rooms/b/x\uff0fy", sceneerr.InvalidName},     // fullwidth solidus
		{"rooms/b/\uff0e\uff0e", sceneerr.InvalidName}, // fullwidth full stops
		{"rooms/b/e\u0301", sceneerr.InvalidName},      // combining accent
		{"rooms/b\u0131/x", sceneerr.InvalidName},      // dotless i in the board
		{"rooms/b/\u212a", sceneerr.InvalidName},       // Kelvin sign, folds to k
		{"rooms/b/" + strings.Repeat("a", MaxSegmentBytes+1), sceneerr.InvalidName},
		{long, sceneerr.InvalidName},
		{"rooms/" + strings.Repeat("b", 65) + "/x", sceneerr.InvalidName},
		{"shareLinks", sceneerr.InvalidName},
		{"shareLinks/", sceneerr.InvalidName},
		{"shareLinks/../rooms/b/x", sceneerr.InvalidName},
		{"shareLinks//x", sceneerr.InvalidName},
	} {
		_, err := ParsePath(c.in)
		if sceneerr.CodeOf(err) != c.code {
			t.Errorf("%q: got %v, want %s", c.in, err, c.code)
		}
	}
	if len(long) <= MaxPathBytes {
		t.Fatalf("long path is only %d bytes", len(long))
	}
}

func TestRoundTripIsVerbatim(t *testing.T) {
	s := open(t, 1<<20)
	for i, n := range []int{0, 1, 2, 11, 12, 13, 4095, 4096, 65537, 1 << 20} {
		p := mustPath(t, fmt.Sprintf("rooms/board/file%d", i))
		data := randBytes(uint64(i+1), n)
		// Data that looks like a trailer must not confuse the reader.
		if n >= len(magic) {
			copy(data[n-len(magic):], magic)
		}
		info, created := put(t, s, p, "image/png", data)
		sum := sha256.Sum256(data)
		if !created || info.Size != int64(n) || info.SHA256 != hex.EncodeToString(sum[:]) || info.ContentType != "image/png" || info.Path != p.String() {
			t.Fatalf("%d bytes: %+v created=%v", n, info, created)
		}
		got, back := get(t, s, p)
		if !bytes.Equal(back, data) {
			t.Fatalf("%d bytes: data differs", n)
		}
		if got.SHA256 != info.SHA256 || got.Size != info.Size || got.ContentType != "image/png" {
			t.Fatalf("%d bytes: Get %+v, Put %+v", n, got, info)
		}
		st, err := s.Stat(bg, p)
		if err != nil || st.SHA256 != info.SHA256 {
			t.Fatalf("Stat: %+v %v", st, err)
		}
	}
}

func TestReplaceReportsNotCreated(t *testing.T) {
	s := open(t, 0)
	p := mustPath(t, "rooms/b/link/f")
	if _, created := put(t, s, p, "", []byte("one")); !created {
		t.Fatal("first write not created")
	}
	info, created := put(t, s, p, "text/plain", []byte("two!"))
	if created || info.Size != 4 {
		t.Fatalf("second write: %+v created=%v", info, created)
	}
	got, data := get(t, s, p)
	if string(data) != "two!" || got.ContentType != "text/plain" {
		t.Fatalf("%q %+v", data, got)
	}
	if s.MaxFileBytes() != DefaultMaxFileBytes {
		t.Fatalf("default max %d", s.MaxFileBytes())
	}
}

func TestGetMissing(t *testing.T) {
	s := open(t, 0)
	for _, p := range []string{"rooms/none/x", "shareLinks/x"} {
		_, err := s.Get(bg, mustPath(t, p))
		wantCode(t, err, sceneerr.NotFound)
	}
	put(t, s, mustPath(t, "rooms/b/x"), "", []byte("x"))
	_, err := s.Get(bg, mustPath(t, "rooms/b/y"))
	wantCode(t, err, sceneerr.NotFound)
	// Looking does not create directories.
	before := dshtest.Tree(t, s.Dir())
	_, _ = s.Get(bg, mustPath(t, "rooms/other/y"))
	dshtest.SameTree(t, "the files directory", before, dshtest.Tree(t, s.Dir()))
}

// Paths that differ only in case are different files, on any disk.
func TestCaseMatters(t *testing.T) {
	s := open(t, 0)
	put(t, s, mustPath(t, "rooms/b/File"), "", []byte("upper"))
	put(t, s, mustPath(t, "rooms/b/file"), "", []byte("lower"))
	if _, d := get(t, s, mustPath(t, "rooms/b/File")); string(d) != "upper" {
		t.Fatalf("%q", d)
	}
	if _, d := get(t, s, mustPath(t, "rooms/b/file")); string(d) != "lower" {
		t.Fatalf("%q", d)
	}
}

func TestSizeCap(t *testing.T) {
	const max = 1024
	s := open(t, max)
	p := mustPath(t, "rooms/b/big")
	// Declared over: refused before anything is read or created.
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
	if entries, _ := os.ReadDir(s.Dir()); len(entries) != 0 {
		t.Fatalf("created %v", entries)
	}
	// Undeclared and over: read up to the limit plus one, then refused,
	// and nothing left behind.
	body := &countingReader{r: bytes.NewReader(make([]byte, 10*max))}
	_, _, err = s.Put(bg, p, "", -1, body)
	wantCode(t, err, sceneerr.TooLarge)
	if body.n > max+1+32<<10 { // io.Copy's one buffer at most
		t.Fatalf("read %d bytes", body.n)
	}
	if _, err := s.Get(bg, p); sceneerr.CodeOf(err) != sceneerr.NotFound {
		t.Fatalf("Get after refused Put: %v", err)
	}
	// Over by one byte, undeclared.
	_, _, err = s.Put(bg, p, "", -1, bytes.NewReader(make([]byte, max+1)))
	wantCode(t, err, sceneerr.TooLarge)
	// Exactly the limit is fine.
	put(t, s, p, "", randBytes(9, max))
	// A refused replacement leaves the old file.
	_, _, err = s.Put(bg, p, "", -1, bytes.NewReader(make([]byte, max+1)))
	wantCode(t, err, sceneerr.TooLarge)
	if _, d := get(t, s, p); !bytes.Equal(d, randBytes(9, max)) {
		t.Fatal("refused write changed the file")
	}
	noTemps(t, s)
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.r == nil {
		c.n++
		return 0, io.EOF
	}
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// noTemps fails if a temporary file is left anywhere below the store.
func noTemps(t *testing.T, s *Store) {
	t.Helper()
	for path := range dshtest.Tree(t, s.Dir()) {
		if strings.HasPrefix(filepath.Base(path), tmpPrefix) {
			t.Fatalf("temporary file left: %s", path)
		}
	}
}

func TestFailedBodyLeavesNothing(t *testing.T) {
	s := open(t, 0)
	p := mustPath(t, "rooms/b/f")
	put(t, s, p, "image/png", []byte("old"))
	boom := errors.New("client went away")
	_, _, err := s.Put(bg, p, "", -1, io.MultiReader(bytes.NewReader([]byte("new data")), errReader{boom}))
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, _, err = s.Put(ctx, p, "", 3, bytes.NewReader([]byte("new")))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, d := get(t, s, p); string(d) != "old" {
		t.Fatalf("%q", d)
	}
	noTemps(t, s)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestContentType(t *testing.T) {
	for in, want := range map[string]string{
		"":                                  DefaultContentType,
		"   ":                               DefaultContentType,
		"image/png":                         "image/png",
		"IMAGE/PNG":                         "image/png",
		"image/svg+xml":                     "image/svg+xml",
		"text/plain; charset=UTF-8":         "text/plain; charset=utf-8",
		"text/plain; charset=\"a b\"":       "text/plain",
		"application/json; boundary=x; q=1": "application/json",
		"text/html":                         "text/html",
		"garbage":                           DefaultContentType,
		"a/b/c":                             DefaultContentType,
		"/png":                              DefaultContentType,
		"image/":                            DefaultContentType,
		"image/png\r\nX-Evil: 1":            DefaultContentType,
		"image/p\x00ng":                     DefaultContentType,
		"ïmage/png":                         DefaultContentType,
		"image/" + strings.Repeat("x", 200): DefaultContentType,
		"*/*":                               DefaultContentType,
		".image/png":                        DefaultContentType,
	} {
		if got := ContentType(in); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", in, got, want)
		}
	}
	for ct, inline := range map[string]bool{
		"image/png": true, "image/jpeg": true, "image/webp": true,
		"image/svg+xml": false, "text/html": false, DefaultContentType: false, "text/plain; charset=utf-8": false,
	} {
		if Inline(ct) != inline {
			t.Errorf("Inline(%q) = %v", ct, !inline)
		}
	}
}

// The files and directories are private to the user.
func TestPermissions(t *testing.T) {
	s := open(t, 0)
	put(t, s, mustPath(t, "rooms/b/f"), "", []byte("x"))
	put(t, s, mustPath(t, "shareLinks/l/f"), "", []byte("x"))
	for path, v := range dshtest.Tree(t, s.Dir()) {
		mode := strings.Fields(v)[0]
		if mode != "drwx------" && mode != "-rw-------" {
			t.Errorf("%s: %s", path, mode)
		}
	}
}

// A symlink planted anywhere below the directory is refused, never
// followed: nothing is written where it points, and it stays as it was.
func TestSymlinksAreNotFollowed(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(s *Store, outside string) // plants a link to outside
		path  string
	}{
		{"area", func(s *Store, outside string) {
			must(os.Symlink(outside, filepath.Join(s.Dir(), roomsArea)))
		}, "rooms/b/f"},
		{"share area", func(s *Store, outside string) {
			must(os.Symlink(outside, filepath.Join(s.Dir(), shareLinksArea)))
		}, "shareLinks/l/f"},
		{"board", func(s *Store, outside string) {
			must(os.Mkdir(filepath.Join(s.Dir(), roomsArea), 0o700))
			must(os.Symlink(outside, filepath.Join(s.Dir(), roomsArea, "b")))
		}, "rooms/b/f"},
		{"relative board", func(s *Store, outside string) {
			must(os.Mkdir(filepath.Join(s.Dir(), roomsArea), 0o700))
			rel, _ := filepath.Rel(filepath.Join(s.Dir(), roomsArea), outside)
			must(os.Symlink(rel, filepath.Join(s.Dir(), roomsArea, "b")))
		}, "rooms/b/f"},
		{"file", func(s *Store, outside string) {
			must(os.MkdirAll(filepath.Join(s.Dir(), roomsArea, "b"), 0o700))
			must(os.Symlink(filepath.Join(outside, "victim"), filepath.Join(s.Dir(), roomsArea, "b", fileName(Path{Kind: Rooms, Board: "b", Rest: "f"}))))
		}, "rooms/b/f"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t, 0)
			outside := t.TempDir()
			must(os.WriteFile(filepath.Join(outside, "victim"), []byte("victim"), 0o600))
			c.plant(s, outside)
			beforeOut, beforeIn := dshtest.Tree(t, outside), dshtest.Tree(t, s.Dir())
			p := mustPath(t, c.path)
			_, _, err := s.Put(bg, p, "", 4, bytes.NewReader([]byte("evil")))
			wantCode(t, err, sceneerr.PermissionDenied)
			if strings.Contains(err.Error(), outside) || strings.Contains(err.Error(), s.Dir()) {
				t.Errorf("error names a path: %v", err)
			}
			_, err = s.Get(bg, p)
			wantCode(t, err, sceneerr.PermissionDenied)
			_, err = s.Stat(bg, p)
			wantCode(t, err, sceneerr.PermissionDenied)
			dshtest.SameTree(t, "outside", beforeOut, dshtest.Tree(t, outside))
			dshtest.SameTree(t, "the files directory", beforeIn, dshtest.Tree(t, s.Dir()))
		})
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// Something else than a file where a file goes is refused too.
func TestNonFileTargetIsRefused(t *testing.T) {
	s := open(t, 0)
	p := mustPath(t, "rooms/b/f")
	must(os.MkdirAll(filepath.Join(s.Dir(), roomsArea, "b", fileName(p)), 0o700))
	_, _, err := s.Put(bg, p, "", 1, bytes.NewReader([]byte("x")))
	wantCode(t, err, sceneerr.PermissionDenied)
	_, err = s.Get(bg, p)
	wantCode(t, err, sceneerr.PermissionDenied)
	// A board "directory" that is a file.
	must(os.WriteFile(filepath.Join(s.Dir(), roomsArea, "c"), nil, 0o600))
	_, _, err = s.Put(bg, mustPath(t, "rooms/c/f"), "", 1, bytes.NewReader([]byte("x")))
	wantCode(t, err, sceneerr.PermissionDenied)
	noTemps(t, s)
}

// A FIFO where a file goes is refused, and opening it does not hang.
func TestFIFOTargetIsRefused(t *testing.T) {
	s := open(t, 0)
	p := mustPath(t, "rooms/b/f")
	must(os.MkdirAll(filepath.Join(s.Dir(), roomsArea, "b"), 0o700))
	must(syscall.Mkfifo(filepath.Join(s.Dir(), roomsArea, "b", fileName(p)), 0o600))
	_, _, err := s.Put(bg, p, "", 1, bytes.NewReader([]byte("x")))
	wantCode(t, err, sceneerr.PermissionDenied)
	_, err = s.Get(bg, p)
	wantCode(t, err, sceneerr.PermissionDenied)
	noTemps(t, s)
}

func TestSymlinkedRootIsRefused(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "files")
	must(os.Symlink(real, link))
	_, err := Open(Config{Dir: link})
	wantCode(t, err, sceneerr.PermissionDenied)
	file := filepath.Join(t.TempDir(), "file")
	must(os.WriteFile(file, nil, 0o600))
	_, err = Open(Config{Dir: file})
	wantCode(t, err, sceneerr.PermissionDenied)
}

// The handle taken at Open keeps the store in its directory when the
// path is later pointed elsewhere.
func TestStoreStaysInOpenedDirectory(t *testing.T) {
	s := open(t, 0)
	put(t, s, mustPath(t, "rooms/b/f"), "", []byte("one"))
	elsewhere := t.TempDir()
	must(os.Rename(s.Dir(), s.Dir()+".moved"))
	must(os.Symlink(elsewhere, s.Dir()))
	put(t, s, mustPath(t, "rooms/b/g"), "", []byte("two"))
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("wrote through the swapped path: %v", entries)
	}
	if _, d := get(t, s, mustPath(t, "rooms/b/g")); string(d) != "two" {
		t.Fatalf("%q", d)
	}
}

func TestCorruptFileIsNotServed(t *testing.T) {
	s := open(t, 0)
	p := mustPath(t, "rooms/b/f")
	q := mustPath(t, "rooms/b/g")
	put(t, s, p, "", []byte("hello"))
	put(t, s, q, "", []byte("world"))
	fp := filepath.Join(s.Dir(), roomsArea, "b", fileName(p))
	fq := filepath.Join(s.Dir(), roomsArea, "b", fileName(q))
	good, _ := os.ReadFile(fp)
	for name, data := range map[string][]byte{
		"empty":      nil,
		"truncated":  good[:len(good)-1],
		"no magic":   append(append([]byte{}, good[:len(good)-1]...), 'X'),
		"short data": good[1:],
		"long len":   append(append([]byte{}, good[:len(good)-tailLen]...), 0xff, 0xff, 0xff, 0xff, 'D', 'S', 'H', 'F', 'I', 'L', 'E', '1'),
	} {
		must(os.WriteFile(fp, data, 0o600))
		if _, err := s.Get(bg, p); err == nil || sceneerr.CodeOf(err) != "" {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Another path's file moved into place is not served as this one.
	other, _ := os.ReadFile(fq)
	must(os.WriteFile(fp, other, 0o600))
	if _, err := s.Get(bg, p); err == nil || !strings.Contains(err.Error(), "another path") {
		t.Errorf("moved file: %v", err)
	}
}

// An open file keeps reading the write it opened, whatever replaces it.
func TestGetSeesOneWrite(t *testing.T) {
	s := open(t, 0)
	p := mustPath(t, "rooms/b/f")
	put(t, s, p, "image/png", []byte("first write"))
	f, err := s.Get(bg, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	put(t, s, p, "image/gif", []byte("second, longer write"))
	data, _ := io.ReadAll(f)
	if string(data) != "first write" || f.ContentType != "image/png" {
		t.Fatalf("%q %s", data, f.ContentType)
	}
}

// Concurrent writes to one path: each read sees one whole write, its
// bytes with its own type and hash; the last write stays; nothing is
// left behind.
func TestConcurrentWritesAreNeverTorn(t *testing.T) {
	s := open(t, 1<<20)
	p := mustPath(t, "rooms/b/f")
	const writers, rounds = 8, 10
	payload := func(w int) []byte { return bytes.Repeat([]byte{byte('a' + w)}, 20000+w*3001) }
	typeOf := func(w int) string { return fmt.Sprintf("application/x-writer%d", w) }
	put(t, s, p, typeOf(0), payload(0))
	var wg sync.WaitGroup
	errs := make(chan error, writers*rounds*2)
	created := make(chan bool, writers*rounds)
	for w := range writers {
		wg.Go(func() {
			for range rounds {
				data := payload(w)
				_, c, err := s.Put(bg, p, typeOf(w), int64(len(data)), bytes.NewReader(data))
				if err != nil {
					errs <- err
				}
				created <- c
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
				sum := sha256.Sum256(data)
				if !bytes.Equal(data, payload(w)) || f.ContentType != typeOf(w) || f.SHA256 != hex.EncodeToString(sum[:]) || f.Size != int64(len(data)) {
					errs <- fmt.Errorf("torn read: %d bytes of writer %d with %s", len(data), w, f.ContentType)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	close(created)
	for err := range errs {
		t.Error(err)
	}
	for c := range created {
		if c {
			t.Error("a replacement reported created")
		}
	}
	info, data := get(t, s, p)
	if w := int(data[0] - 'a'); !bytes.Equal(data, payload(w)) || info.ContentType != typeOf(w) {
		t.Fatalf("final file is torn")
	}
	noTemps(t, s)
}

// Whatever ParsePath accepts is the input itself, of safe bytes only,
// with no "." or ".." segment, within the bounds; and it names a file
// name of 64 hex digits.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"rooms/b/x", "shareLinks/a/b", "rooms/../x", "rooms/b/%2e", "rooms/b/a\\b", "rooms/b/\u2024", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			if c := sceneerr.CodeOf(err); c != sceneerr.InvalidName && c != sceneerr.NotFound {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if p.String() != s || len(s) > MaxPathBytes {
			t.Fatalf("%q parsed as %q", s, p)
		}
		for seg := range strings.SplitSeq(s, "/") {
			if seg == "" || seg == "." || seg == ".." || len(seg) > MaxSegmentBytes {
				t.Fatalf("%q: segment %q", s, seg)
			}
			for i := 0; i < len(seg); i++ {
				if !segmentByte(seg[i]) {
					t.Fatalf("%q: byte %q", s, seg[i])
				}
			}
		}
		if name := fileName(p); len(name) != 64+len(fileExt) || strings.Trim(name[:64], "0123456789abcdef") != "" {
			t.Fatalf("%q: file name %q", s, name)
		}
	})
}

// List passes over what the store never makes (other names, temporary
// files, directories that are no board's) and reports, without stopping,
// what it made but cannot serve: a corrupt file, one moved to another
// path's name, a symlink.
func TestListReportsWhatItCannotServe(t *testing.T) {
	s := open(t, 0)
	put(t, s, mustPath(t, "rooms/b/good"), "image/png", []byte("good"))
	put(t, s, mustPath(t, "rooms/b/moved"), "", []byte("moved"))
	put(t, s, mustPath(t, "shareLinks/l"), "", []byte("share"))
	b := filepath.Join(s.Dir(), roomsArea, "b")
	must(os.WriteFile(filepath.Join(b, "notes.txt"), []byte("mine"), 0o600))
	must(os.WriteFile(filepath.Join(b, tmpPrefix+"abc"), []byte("half"), 0o600))
	must(os.MkdirAll(filepath.Join(s.Dir(), roomsArea, "Not-A-Board"), 0o700))
	must(os.WriteFile(filepath.Join(b, fileName(mustPath(t, "rooms/b/corrupt"))), []byte("garbage"), 0o600))
	must(os.Rename(filepath.Join(b, fileName(mustPath(t, "rooms/b/moved"))), filepath.Join(b, fileName(mustPath(t, "rooms/b/elsewhere")))))
	must(os.Symlink(filepath.Join(b, fileName(mustPath(t, "rooms/b/good"))), filepath.Join(b, fileName(mustPath(t, "rooms/b/link")))))
	var paths []string
	var errs []error
	for info, err := range s.List(bg) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		paths = append(paths, info.Path)
	}
	if !slices.Equal(paths, []string{"rooms/b/good", "shareLinks/l"}) {
		t.Fatalf("listed %q", paths)
	}
	if len(errs) != 3 {
		t.Fatalf("errors %v, want the corrupt, the moved and the symlink", errs)
	}
	for _, err := range errs {
		if strings.Contains(err.Error(), s.Dir()) {
			t.Errorf("error names the directory: %v", err)
		}
	}
	// Copying stops at the first of them.
	dst := open(t, 0)
	if _, _, err := CopyAll(bg, dst, s); err == nil {
		t.Fatal("CopyAll went past an unreadable file")
	}
}
