package httpapi

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Who the file tests' requests act for, by their X-Test-As header: the
// admitter below turns it into a principal, as the host's connection
// service does from a credential. No header: no credential, refused.
const (
	asHeader    = "X-Test-As"
	asOwner     = "per_owner"  // owns the board
	asEditor    = "per_editor" // an editor on it
	asViewer    = "per_viewer" // a viewer on it
	asStranger  = "per_other"  // nothing on it
	asBotEditor = "bot_editor" // a connect token of the editor, bound with write
	asBotViewer = "bot_viewer" // a connect token of the editor, bound read-only
	asAdmin     = "admin"      // a host token
)

const board = "board"

func principalOf(as string) identity.Principal {
	switch as {
	case asAdmin:
		return accesstest.Host("tok_admin")
	case asBotEditor, asBotViewer:
		role := identity.RoleEditor
		if as == asBotViewer {
			role = identity.RoleViewer
		}
		return accesstest.Bot("tok_"+as, accesstest.Person(asEditor, "Ed"), access.Grant{Role: role, Boards: []string{board}})
	}
	return accesstest.Person(as, as)
}

// admitAs admits a request that names who it acts for, and refuses one
// that names nobody, with the rejection the host gives a request without
// credentials.
type admitAs struct{}

func (admitAs) RequestRejection(r *http.Request) *connection.Rejection {
	if r.Header.Get(asHeader) == "" {
		return &connection.Rejection{Status: http.StatusUnauthorized, Code: connection.CodeUnauthenticated, Message: "no credentials"}
	}
	return nil
}

func (a admitAs) Admit(r *http.Request) (*http.Request, func(), *connection.Rejection) {
	if rej := a.RequestRejection(r); rej != nil {
		return nil, nil, rej
	}
	return r.WithContext(identity.With(r.Context(), principalOf(r.Header.Get(asHeader)))), func() {}, nil
}

// filesEnv is a web server with the plugin's routes over a service with
// a real guard (board metadata, people's roles) and a real file store.
type filesEnv struct {
	t      *testing.T
	base   string
	addr   string
	client *http.Client
	st     *files.Store
	root   string // the files directory
}

type filesOpts struct {
	maxFileBytes int64
	maxBodyBytes int64
	// The share links' bounds: total bytes (0: the default), and bytes
	// per hour per address (0: no Limiter).
	shareMax, perHour int64
	// backend, when set, is the file store instead of a directory (the
	// env's st and root are then unset).
	backend files.Backend
}

func newFilesEnv(t *testing.T, o filesOpts) *filesEnv {
	t.Helper()
	if o.maxBodyBytes == 0 {
		o.maxBodyBytes = 1 << 20
	}
	guard, meta, _ := accesstest.Guard(t, nil)
	dir := accesstest.Drawings(meta)
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: testLimits, LockTimeout: 2 * time.Second,
		Rand: rand.New(rand.NewPCG(1, 2)), Guard: guard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	ctx := accesstest.As(principalOf(asOwner))
	if _, err := svc.Create(ctx, service.CreateRequest{Name: board, Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	if _, err := meta.SetMember(ctx, board, asEditor, identity.RoleEditor); err != nil {
		t.Fatal(err)
	}
	if _, err := meta.SetMember(ctx, board, asViewer, identity.RoleViewer); err != nil {
		t.Fatal(err)
	}
	if o.backend != nil {
		srv, client := serve(t, o.maxBodyBytes, admitAs{}, Options{Service: svc, Files: o.backend})
		return &filesEnv{t: t, base: srv.URL(), addr: srv.Addr().String(), client: client}
	}
	st, err := files.Open(files.Config{Dir: filepath.Join(filepath.Dir(dir), "files"), MaxFileBytes: o.maxFileBytes, MaxShareLinkBytes: o.shareMax})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	var backend files.Backend = st
	if o.perHour > 0 {
		l, err := files.NewLimiter(statefile.NewMemoryWindows(), o.perHour, st.MaxFileBytes(), nil)
		if err != nil {
			t.Fatal(err)
		}
		backend = files.Limited{Backend: st, Limiter: l}
	}
	srv, client := serve(t, o.maxBodyBytes, admitAs{}, Options{Service: svc, Files: backend})
	return &filesEnv{t: t, base: srv.URL(), addr: srv.Addr().String(), client: client, st: st, root: st.Dir()}
}

// send makes a request as who ("" for none) with the body and headers
// given (a nil body sends none).
func (e *filesEnv) send(method, path, who string, body io.Reader, header map[string]string) reply {
	e.t.Helper()
	req, err := http.NewRequest(method, e.base+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if who != "" {
		req.Header.Set(asHeader, who)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return e.finish(req)
}

func (e *filesEnv) finish(req *http.Request) reply {
	e.t.Helper()
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(raw, &r.body)
	}
	return r
}

func (e *filesEnv) put(path, who, contentType string, data []byte) reply {
	e.t.Helper()
	h := map[string]string{}
	if contentType != "" {
		h["Content-Type"] = contentType
	}
	return e.send(http.MethodPut, path, who, bytes.NewReader(data), h)
}

func (e *filesEnv) get(path, who string) reply {
	e.t.Helper()
	return e.send(http.MethodGet, path, who, nil, nil)
}

// raw sends a request line exactly as given (target unparsed, unescaped
// and uncleaned by any client) and returns the status.
func (e *filesEnv) raw(method, target, who string, body []byte) int {
	e.t.Helper()
	conn, err := net.Dial("tcp", e.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second)) // a safety net against a hang, not a wait
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nContent-Length: %d\r\n", method, target, e.addr, len(body))
	if who != "" {
		fmt.Fprintf(&b, "%s: %s\r\n", asHeader, who)
	}
	b.WriteString("\r\n")
	b.Write(body)
	if _, err := conn.Write(b.Bytes()); err != nil {
		e.t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		e.t.Fatalf("%s %q: %v", method, target, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

func sha(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

func noise(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, ^seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

const roomFile = FilesPrefix + "rooms/" + board + "/fileA"

func TestFilesRoundTripIsVerbatim(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	for i, n := range []int{0, 1, 1000, 300_000} {
		path := FilesPrefix + "rooms/" + board + "/f" + strconv.Itoa(i)
		data := noise(uint64(i+7), n)
		r := e.put(path, asEditor, "", data)
		expect(t, r, http.StatusCreated, "")
		if r.body["path"] != path || num(t, r.body, "bytes") != int64(n) || r.body["sha256"] != sha(data) {
			t.Fatalf("PUT answered %s", r.raw)
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("PUT headers %v", r.header)
		}
		g := e.get(path, asViewer)
		if g.status != http.StatusOK || !bytes.Equal(g.raw, data) {
			t.Fatalf("GET %d, %d bytes back of %d", g.status, len(g.raw), n)
		}
		h := g.header
		for k, want := range map[string]string{
			"Content-Type":            files.DefaultContentType,
			"Content-Length":          strconv.Itoa(n),
			"ETag":                    `"` + sha(data) + `"`,
			"X-Content-Type-Options":  "nosniff",
			"Content-Security-Policy": "sandbox; default-src 'none'",
			"Content-Disposition":     `attachment; filename="f` + strconv.Itoa(i) + `"`,
		} {
			if h.Get(k) != want {
				t.Errorf("%s: %q, want %q", k, h.Get(k), want)
			}
		}
		hd := e.send(http.MethodHead, path, asViewer, nil, nil)
		if hd.status != http.StatusOK || len(hd.raw) != 0 || hd.header.Get("ETag") != h.Get("ETag") || hd.header.Get("Content-Length") != strconv.Itoa(n) {
			t.Fatalf("HEAD %d %v", hd.status, hd.header)
		}
	}
	// Replacing answers 200.
	data := noise(99, 5000)
	expect(t, e.put(FilesPrefix+"rooms/"+board+"/f1", asEditor, "", data), http.StatusOK, "")
	if g := e.get(FilesPrefix+"rooms/"+board+"/f1", asEditor); !bytes.Equal(g.raw, data) {
		t.Fatal("replacement not served")
	}
	expect(t, e.get(FilesPrefix+"rooms/"+board+"/missing", asEditor), http.StatusNotFound, "not_found")
}

func TestFilesContentType(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	for i, c := range []struct {
		sent, stored string
		attachment   bool
	}{
		{"image/png", "image/png", false},
		{"IMAGE/JPEG", "image/jpeg", false},
		{"image/svg+xml", "image/svg+xml", true},
		{"text/html; charset=utf-8", "text/html; charset=utf-8", true},
		{"application/javascript", "application/javascript", true},
		{"not a type", files.DefaultContentType, true},
		{"image/png, text/html", files.DefaultContentType, true},
		{"", files.DefaultContentType, true},
	} {
		path := FilesPrefix + "shareLinks/types/f" + strconv.Itoa(i)
		data := []byte("<html><script>alert(1)</script></html>")
		expect(t, e.put(path, "", c.sent, data), http.StatusCreated, "")
		g := e.get(path, "")
		if g.header.Get("Content-Type") != c.stored || !bytes.Equal(g.raw, data) {
			t.Errorf("%q: served as %q", c.sent, g.header.Get("Content-Type"))
		}
		if got := strings.HasPrefix(g.header.Get("Content-Disposition"), "attachment"); got != c.attachment {
			t.Errorf("%q: Content-Disposition %q", c.sent, g.header.Get("Content-Disposition"))
		}
		if g.header.Get("X-Content-Type-Options") != "nosniff" || g.header.Get("Content-Security-Policy") != fileCSP {
			t.Errorf("%q: headers %v", c.sent, g.header)
		}
	}
}

func TestFilesETag(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	data := []byte("version one")
	expect(t, e.put(roomFile, asOwner, "image/png", data), http.StatusCreated, "")
	tag := `"` + sha(data) + `"`
	for _, inm := range []string{tag, "W/" + tag, `"nope", ` + tag, "*"} {
		r := e.send(http.MethodGet, roomFile, asViewer, nil, map[string]string{"If-None-Match": inm})
		if r.status != http.StatusNotModified || len(r.raw) != 0 || r.header.Get("ETag") != tag {
			t.Errorf("If-None-Match %s: %d %q", inm, r.status, r.raw)
		}
	}
	hd := e.send(http.MethodHead, roomFile, asViewer, nil, map[string]string{"If-None-Match": tag})
	if hd.status != http.StatusNotModified {
		t.Errorf("HEAD If-None-Match: %d", hd.status)
	}
	r := e.send(http.MethodGet, roomFile, asViewer, nil, map[string]string{"If-None-Match": `"` + sha([]byte("other")) + `"`})
	if r.status != http.StatusOK || !bytes.Equal(r.raw, data) {
		t.Errorf("other tag: %d", r.status)
	}
	// After a replacement the old tag no longer matches.
	expect(t, e.put(roomFile, asEditor, "image/png", []byte("version two")), http.StatusOK, "")
	r = e.send(http.MethodGet, roomFile, asViewer, nil, map[string]string{"If-None-Match": tag})
	if r.status != http.StatusOK || string(r.raw) != "version two" {
		t.Errorf("stale tag: %d %q", r.status, r.raw)
	}
	// 304 is no way around the board's access.
	r = e.send(http.MethodGet, roomFile, asStranger, nil, map[string]string{"If-None-Match": "*"})
	expect(t, r, http.StatusNotFound, "not_found")
}

func TestFilesSizeCap(t *testing.T) {
	const max = 4096
	e := newFilesEnv(t, filesOpts{maxFileBytes: max})
	path := FilesPrefix + "rooms/" + board + "/big"
	// A declared length over the cap is refused before the body is read:
	// the body here never comes, so reading it would hang.
	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPut, e.base+path, pr)
	req.ContentLength = max + 1
	req.Header.Set(asHeader, asEditor)
	r := e.finish(req)
	pw.Close()
	expect(t, r, http.StatusRequestEntityTooLarge, "too_large")
	d := r.details()
	if d["limit"] != files.LimitName || num(t, d, "max") != max || num(t, d, "actual") != max+1 {
		t.Fatalf("details %v", d)
	}
	// A chunked body over the cap is cut off at it.
	req, _ = http.NewRequest(http.MethodPut, e.base+path, io.MultiReader(bytes.NewReader(make([]byte, 3*max))))
	req.ContentLength = -1
	req.Header.Set(asHeader, asEditor)
	r = e.finish(req)
	expect(t, r, http.StatusRequestEntityTooLarge, "too_large")
	if d := r.details(); d["limit"] != files.LimitName || num(t, d, "max") != max {
		t.Fatalf("details %v", d)
	}
	expect(t, e.get(path, asEditor), http.StatusNotFound, "not_found")
	// At the cap, chunked, it is stored.
	data := noise(3, max)
	req, _ = http.NewRequest(http.MethodPut, e.base+path, io.MultiReader(bytes.NewReader(data)))
	req.ContentLength = -1
	req.Header.Set(asHeader, asEditor)
	expect(t, e.finish(req), http.StatusCreated, "")
	if g := e.get(path, asEditor); !bytes.Equal(g.raw, data) {
		t.Fatal("data differs")
	}
	// Refusals leave no temporary files.
	for k := range dshtest.Tree(t, e.root) {
		if strings.HasPrefix(filepath.Base(k), ".tmp-") {
			t.Fatalf("left %s", k)
		}
	}
}

// The web server's own body bound, when it is the lower one, is what an
// upload runs into; it is too_large too, naming that limit.
func TestFilesBodyBoundBelowCap(t *testing.T) {
	e := newFilesEnv(t, filesOpts{maxFileBytes: 1 << 20, maxBodyBytes: 2048})
	req, _ := http.NewRequest(http.MethodPut, e.base+FilesPrefix+"shareLinks/l/f", io.MultiReader(bytes.NewReader(make([]byte, 4096))))
	req.ContentLength = -1
	r := e.finish(req)
	expect(t, r, http.StatusRequestEntityTooLarge, "too_large")
	if d := r.details(); d["limit"] != "http.maxBodyBytes" || num(t, d, "max") != 2048 {
		t.Fatalf("details %v", d)
	}
	expect(t, e.get(FilesPrefix+"shareLinks/l/f", ""), http.StatusNotFound, "not_found")
}

// Hostile paths never reach the filesystem: each is refused (400 or 404)
// and neither the files directory nor anything outside it changes.
func TestFilesHostilePaths(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	expect(t, e.put(roomFile, asAdmin, "", []byte("kept")), http.StatusCreated, "")
	outside := filepath.Dir(e.root)
	before := dshtest.Tree(t, outside)
	long := "/files/rooms/board/" + strings.Repeat("a", 600)
	deep := "/files/rooms/board" + strings.Repeat("/"+strings.Repeat("b", 100), 5)
	for _, target := range []string{
		"/files/rooms/board/../../../etc/passwd",
		"/files/rooms/board/..",
		"/files/rooms/board/.",
		"/files/rooms/../board/x",
		"/files/rooms/board/x/../../../../x",
		"/files/shareLinks/../rooms/board/x",
		"/files/shareLinks/..",
		"/files/rooms/board/%2e%2e/%2e%2e/x",
		"/files/rooms/board/%2E%2E",
		"/files/rooms/%2e%2e/x",
		"/files/rooms/board/a%2Fb",
		"/files/rooms/board%2Fx",
		"/files/rooms/board/..%2F..%2Fx",
		"/files/rooms/board/%2Fetc%2Fpasswd",
		"/files/rooms/board/%66ile",                   // an encoded letter
		"/files/rooms/board/x%00",                     // encoded NUL
		"/files/rooms/board/x%20y",                    // encoded space
		`/files/rooms/board/..\..\x`,                  // backslashes
		`/files/rooms/board/a\b`,                      // backslash
		"/files/rooms/board/x%5C..%5Cy",               // encoded backslashes
		"/files/rooms//etc/passwd",                    // absolute after the area
		"/files/rooms/board//etc/passwd",              // absolute after the board
		"/files//etc/passwd",                          // no area
		"/files/rooms/board/",                         // no file
		"/files/rooms/board",                          // no file
		"/files/rooms/",                               // nothing
		"/files/Rooms/board/x",                        // wrong case
		"/files/rooms/Board/x",                        // board names are lower case
		"/files/rooms/.dsh-excalidraw/x",              // no hidden boards
		"/files/rooms/board/%E2%80%A4%E2%80%A4",       // one dot leaders
		"/files/rooms/board/%EF%BC%8E%EF%BC%8E",       // fullwidth full stops
		"/files/rooms/board/x%EF%BC%8Fy",              // fullwidth solidus
		"/files/rooms/board/x%E2%88%95y",              // division slash
		"/files/rooms/board/\xe2\x80\xa4\xe2\x80\xa4", // raw one dot leaders
		"/files/rooms/board/\xef\xbc\x8f",             // raw fullwidth solidus
		"/files/rooms/bo\xc4\xb1rd/x",                 // dotless i
		"/files/rooms/board/\xe2\x84\xaa",             // Kelvin sign
		"/files/rooms/board/caf%C3%A9",
		long,
		deep,
		"/files/other/x",
		"/files/../files/rooms/board/x",
	} {
		for _, method := range []string{http.MethodPut, http.MethodGet} {
			status := e.raw(method, target, asAdmin, []byte("evil"))
			if status != http.StatusBadRequest && status != http.StatusNotFound {
				t.Errorf("%s %q: %d", method, target, status)
			}
		}
	}
	// And a NUL or a control character sent raw, which the HTTP server
	// refuses before any handler.
	for _, target := range []string{"/files/rooms/board/x\x00y", "/files/rooms/board/x\x01y", "/files/rooms/board/x\x7f"} {
		if status := e.raw(http.MethodPut, target, asAdmin, []byte("evil")); status != http.StatusBadRequest && status != http.StatusNotFound {
			t.Errorf("PUT %q: %d", target, status)
		}
	}
	dshtest.SameTree(t, "the data directory", before, dshtest.Tree(t, outside))
	if len(long) <= files.MaxPathBytes || len(deep)-len(FilesPrefix) <= files.MaxPathBytes {
		t.Fatal("the long paths are not long")
	}
	// The same checks answer the codes the contract names.
	expect(t, e.put("/files/rooms/board/%2e%2e", asAdmin, "", []byte("x")), http.StatusBadRequest, "invalid_name")
	expect(t, e.put("/files/rooms/Board/x", asAdmin, "", []byte("x")), http.StatusBadRequest, "invalid_name")
	expect(t, e.put(deep, asAdmin, "", []byte("x")), http.StatusBadRequest, "invalid_name")
	expect(t, e.put("/files/other/x", asAdmin, "", []byte("x")), http.StatusNotFound, "not_found")
}

// A symlink planted inside the files directory, pointing outside it, is
// never followed: a PUT through it fails and writes nothing anywhere.
func TestFilesSymlinkInsideIsNotFollowed(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "victim"), []byte("victim"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(e.root, "rooms"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.root, "rooms", board)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.root, "shareLinks")); err != nil {
		t.Fatal(err)
	}
	beforeOut, beforeIn := dshtest.Tree(t, outside), dshtest.Tree(t, e.root)
	for _, path := range []string{roomFile, FilesPrefix + "shareLinks/l/f"} {
		r := e.put(path, asOwner, "", []byte("evil"))
		expect(t, r, http.StatusForbidden, "permission_denied")
		if strings.Contains(string(r.raw), outside) || strings.Contains(string(r.raw), e.root) {
			t.Fatalf("the error names a path: %s", r.raw)
		}
		expect(t, e.get(path, asOwner), http.StatusForbidden, "permission_denied")
	}
	dshtest.SameTree(t, "outside", beforeOut, dshtest.Tree(t, outside))
	dshtest.SameTree(t, "the files directory", beforeIn, dshtest.Tree(t, e.root))
}

// A board's files follow the board's access: editors (and bots bound with
// write) write, viewers read, anyone else is told there is no such board.
// A refused write changes nothing.
func TestFilesRoomsAccess(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	expect(t, e.put(roomFile, asEditor, "image/png", []byte("by the editor")), http.StatusCreated, "")
	expect(t, e.put(roomFile, asOwner, "image/png", []byte("by the owner")), http.StatusOK, "")
	expect(t, e.put(roomFile, asBotEditor, "image/png", []byte("by the bot")), http.StatusOK, "")
	before := dshtest.Tree(t, e.root)
	for _, c := range []struct {
		who    string
		status int
		code   string
	}{
		{asViewer, http.StatusForbidden, "permission_denied"},
		{asBotViewer, http.StatusForbidden, "permission_denied"},
		{asStranger, http.StatusNotFound, "not_found"},
	} {
		// An existing file and a new one alike.
		for _, path := range []string{roomFile, FilesPrefix + "rooms/" + board + "/new"} {
			r := e.put(path, c.who, "text/html", []byte("overwritten"))
			expect(t, r, c.status, c.code)
		}
	}
	// A stranger's write to a board that does not exist is the same
	// not_found, and creates nothing either.
	expect(t, e.put(FilesPrefix+"rooms/nosuch/f", asStranger, "", []byte("x")), http.StatusNotFound, "not_found")
	dshtest.SameTree(t, "the files directory", before, dshtest.Tree(t, e.root))

	for _, who := range []string{asViewer, asBotViewer, asEditor, asOwner, asAdmin} {
		g := e.get(roomFile, who)
		if g.status != http.StatusOK || string(g.raw) != "by the bot" {
			t.Errorf("%s: %d %q", who, g.status, g.raw)
		}
	}
	expect(t, e.get(roomFile, asStranger), http.StatusNotFound, "not_found")
	expect(t, e.send(http.MethodHead, roomFile, asStranger, nil, nil), http.StatusNotFound, "")
	// Without credentials the rooms routes are not reached at all.
	expect(t, e.get(roomFile, ""), http.StatusUnauthorized, "unauthenticated")
	expect(t, e.put(roomFile, "", "", []byte("x")), http.StatusUnauthorized, "unauthenticated")
	dshtest.SameTree(t, "the files directory", before, dshtest.Tree(t, e.root))
}

// Share links' files are open: no credentials needed to write or read
// them (the admitter here refuses every request without any).
func TestFilesShareLinksAreOpen(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	path := FilesPrefix + "shareLinks/AbC-123_x/file.bin"
	data := noise(5, 777)
	r := e.put(path, "", "application/octet-stream", data)
	expect(t, r, http.StatusCreated, "")
	if r.body["path"] != path {
		t.Fatalf("%s", r.raw)
	}
	g := e.get(path, "")
	if g.status != http.StatusOK || !bytes.Equal(g.raw, data) {
		t.Fatalf("%d", g.status)
	}
	// With credentials too.
	if g := e.get(path, asStranger); g.status != http.StatusOK {
		t.Fatalf("%d", g.status)
	}
	expect(t, e.get(FilesPrefix+"shareLinks/missing", ""), http.StatusNotFound, "not_found")
}

// Concurrent writes and reads over HTTP: every read is one whole write,
// with that write's type and tag.
func TestFilesConcurrentWrites(t *testing.T) {
	e := newFilesEnv(t, filesOpts{})
	payload := func(w int) []byte { return bytes.Repeat([]byte{byte('a' + w)}, 10000+w*997) }
	typeOf := func(w int) string { return "application/x-w" + strconv.Itoa(w) }
	expect(t, e.put(roomFile, asEditor, typeOf(0), payload(0)), http.StatusCreated, "")
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for w := range 4 {
		wg.Go(func() {
			for range 5 {
				if r := e.put(roomFile, asEditor, typeOf(w), payload(w)); r.status != http.StatusOK {
					errs <- fmt.Sprintf("PUT %d %s", r.status, r.raw)
				}
			}
		})
		wg.Go(func() {
			for range 5 {
				g := e.get(roomFile, asViewer)
				if g.status != http.StatusOK || len(g.raw) == 0 {
					errs <- fmt.Sprintf("GET %d", g.status)
					continue
				}
				w := int(g.raw[0] - 'a')
				if !bytes.Equal(g.raw, payload(w)) || g.header.Get("Content-Type") != typeOf(w) || g.header.Get("ETag") != `"`+sha(g.raw)+`"` {
					errs <- "torn read"
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Error(s)
	}
}
