package httpapi

import (
	"bytes"
	"image/png"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/thumbnail"
)

// newThumbEnv is newEnv with the thumbnails tuned by o (and room for a
// 2,000-element board).
func newThumbEnv(t *testing.T, o thumbnail.Options) *env {
	t.Helper()
	needFonts(t)
	dir := filepath.Join(t.TempDir(), "drawings")
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: scene.Limits{MaxElements: 5000}, LockTimeout: 2 * time.Second,
		Rand: rand.New(rand.NewPCG(1, 2)), Fonts: editor.Fonts(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	srv, client := serve(t, 1<<20, admitAll{}, Options{Service: svc, Version: "0.1.0-test", DrawingsDir: dir, Thumbnails: o, Stop: stop})
	return &env{t: t, base: srv.URL(), client: client, dir: dir, svc: svc}
}

// moveBox saves pic with its box a at x, on revision rev.
func (e *env) moveBox(rev int64, x int) reply {
	e.t.Helper()
	return e.do(http.MethodPut, api+"/scenes/pic", map[string]any{"expected_revision": rev, "scene": map[string]any{
		"type": "excalidraw", "elements": []any{
			map[string]any{"type": "rectangle", "id": "a", "x": x, "y": 0, "width": 200, "height": 100, "version": 10 + rev, "versionNonce": rev},
		}}})
}

// thumb asks for pic's thumbnail, conditionally when etag is set.
func (e *env) thumb(etag string) reply {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.base+api+"/scenes/pic/thumbnail.png?max_pixels=96000&dark=false", nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, raw: buf.Bytes()}
}

func (r reply) revision() int64 {
	n, _ := strconv.ParseInt(r.header.Get("X-Scene-Revision"), 10, 64)
	return n
}

// TestThumbnailServesTheCachedPicture: the thumbnail is drawn once and
// served to every viewer from that render, with its revision and an ETag
// (a conditional request gets 304). After a commit a viewer gets the
// cached, older picture at once, its revision told, rather than forcing
// a render; the newer one is drawn no sooner than the interval after the
// last, and then served with a new ETag.
func TestThumbnailServesTheCachedPicture(t *testing.T) {
	var renders atomic.Int64
	e := newThumbEnv(t, thumbnail.Options{Interval: 700 * time.Millisecond, OnRender: func(thumbnail.Key) { renders.Add(1) }})
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")

	r1 := e.thumb("")
	if r1.status != http.StatusOK || r1.header.Get("Content-Type") != "image/png" || r1.revision() != 1 || r1.header.Get("ETag") == "" {
		t.Fatalf("first: %d %v", r1.status, r1.header)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(r1.raw))
	if err != nil || cfg.Width*cfg.Height > 96000 || cfg.Width == 0 {
		t.Fatalf("png %+v %v, want a picture within 96,000 pixels", cfg, err)
	}
	for range 5 {
		if r := e.thumb(""); r.status != http.StatusOK || !bytes.Equal(r.raw, r1.raw) || r.header.Get("ETag") != r1.header.Get("ETag") {
			t.Fatalf("again: %d %v", r.status, r.header)
		}
		if r := e.thumb(r1.header.Get("ETag")); r.status != http.StatusNotModified || r.revision() != 1 {
			t.Fatalf("conditional: %d %v", r.status, r.header)
		}
	}
	if n := renders.Load(); n != 1 {
		t.Fatalf("%d renders for 11 viewers of one revision, want 1", n)
	}

	expect(t, e.moveBox(1, 900), http.StatusOK, "")
	if r := e.thumb(r1.header.Get("ETag")); r.status != http.StatusNotModified || r.revision() != 1 {
		t.Fatalf("after the commit: %d rev %d, want the cached r1 picture (304) while r2 is drawn", r.status, r.revision())
	}
	if n := renders.Load(); n != 1 {
		t.Fatalf("the request forced a render (%d)", n)
	}
	var r2 reply
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if r2 = e.thumb(r1.header.Get("ETag")); r2.revision() == 2 || time.Now().After(deadline) {
			break
		}
	}
	if r2.status != http.StatusOK || r2.revision() != 2 || r2.header.Get("ETag") == r1.header.Get("ETag") || bytes.Equal(r2.raw, r1.raw) {
		t.Fatalf("r2: %d rev %d etag %s (r1's %s)", r2.status, r2.revision(), r2.header.Get("ETag"), r1.header.Get("ETag"))
	}
	if n := renders.Load(); n != 2 {
		t.Fatalf("%d renders, want 2 (r1, r2)", n)
	}

	// A viewer naming a revision (the list page, from its stream) gets
	// the cached picture; one naming a revision that is not there makes
	// at most one render per interval, not one per request.
	if r := e.do(http.MethodGet, api+"/scenes/pic/thumbnail.png?max_pixels=96000&dark=false&rev=2", nil); r.status != http.StatusOK || r.revision() != 2 || !bytes.Equal(r.raw, r2.raw) {
		t.Fatalf("rev=2: %d rev %d", r.status, r.revision())
	}
	for range 20 {
		if r := e.do(http.MethodGet, api+"/scenes/pic/thumbnail.png?max_pixels=96000&dark=false&rev=99", nil); r.status != http.StatusOK || r.revision() != 2 {
			t.Fatalf("rev=99: %d rev %d, want the r2 picture", r.status, r.revision())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := renders.Load(); n > 2+4 {
		t.Fatalf("%d renders after 2 s of asking for a revision not there, want at most one per 700 ms", n-2)
	}

	// Bad input: a clear error, nothing drawn.
	for _, q := range []string{"max_pixels=12", "max_pixels=big", "max_pixels=99999999", "dark=maybe", "rev=-1", "rev=x"} {
		r := e.do(http.MethodGet, api+"/scenes/pic/thumbnail.png?"+q, nil)
		expect(t, r, http.StatusUnprocessableEntity, "invalid_operation")
	}
	expect(t, e.do(http.MethodGet, api+"/scenes/nope/thumbnail.png", nil), http.StatusNotFound, "not_found")
}

// TestThumbnailCoalescesABurst: 100 commits in a burst, with eight viewers
// asking for the thumbnail all the while, make at most two renders (the
// first picture, and one of the newest revision after the burst), and
// every viewer ends on the burst's last revision.
func TestThumbnailCoalescesABurst(t *testing.T) {
	var renders atomic.Int64
	const interval = 5 * time.Second
	e := newThumbEnv(t, thumbnail.Options{Interval: interval, OnRender: func(thumbnail.Key) { renders.Add(1) }})
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")
	if r := e.thumb(""); r.revision() != 1 {
		t.Fatalf("first: %d rev %d", r.status, r.revision())
	}
	start := time.Now()
	var done atomic.Bool
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for !done.Load() {
				if r := e.thumb(""); r.status != http.StatusOK {
					t.Errorf("viewer: %d %s", r.status, r.raw)
					return
				}
			}
		})
	}
	for i := range 100 {
		expect(t, e.moveBox(int64(1+i), 10*i), http.StatusOK, "")
	}
	burst := time.Since(start)
	done.Store(true)
	wg.Wait()
	var last reply
	for deadline := time.Now().Add(3 * interval); ; time.Sleep(100 * time.Millisecond) {
		if last = e.thumb(""); last.revision() == 101 || time.Now().After(deadline) {
			break
		}
	}
	if last.revision() != 101 {
		t.Fatalf("after the burst the thumbnail shows r%d, want r101", last.revision())
	}
	most := int64(2)
	if burst > interval {
		most += int64(burst / interval) // a burst longer than the interval: one more per interval
	}
	if n := renders.Load(); n > most {
		t.Fatalf("%d renders for 100 commits in %v and 8 viewers, want at most %d", n, burst.Round(time.Millisecond), most)
	}
	t.Logf("100 commits in %v, %d renders", burst.Round(time.Millisecond), renders.Load())
}

// TestThumbnailNeverOnTheWritePath: while a thumbnail's render is held,
// writes to its board complete, and viewers of the cached picture are
// served; renders run at most Workers at once, so many boards changing
// cannot take every core from writes.
func TestThumbnailNeverOnTheWritePath(t *testing.T) {
	hold := make(chan struct{})
	started := make(chan string, 10)
	var running, most atomic.Int64
	e := newThumbEnv(t, thumbnail.Options{Interval: time.Millisecond, Workers: 1, OnRender: func(k thumbnail.Key) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		started <- k.Name
		<-hold
		running.Add(-1)
	}})
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")
	other := map[string]any{"name": "other", "elements": []any{map[string]any{"type": "ellipse", "id": "o", "x": 0, "y": 0, "width": 50, "height": 50}}}
	expect(t, e.do(http.MethodPost, api+"/scenes", other), http.StatusCreated, "")

	// Two boards' first pictures asked for: one render runs (held), the
	// other waits for the one worker.
	got := make(chan reply, 2)
	go func() { got <- e.thumb("") }()
	go func() {
		got <- e.do(http.MethodGet, api+"/scenes/other/thumbnail.png?max_pixels=96000", nil)
	}()
	<-started
	select {
	case n := <-started:
		t.Fatalf("a second render (%s) started beside the first with one worker", n)
	case <-time.After(300 * time.Millisecond):
	}
	// Writes to the board being drawn complete while its render is held.
	for i := range 5 {
		done := make(chan reply, 1)
		go func() { done <- e.moveBox(int64(1+i), 50*i) }()
		select {
		case r := <-done:
			expect(t, r, http.StatusOK, "")
		case <-time.After(5 * time.Second):
			t.Fatalf("write %d did not complete while a thumbnail render was held", i)
		}
	}
	close(hold)
	for range 2 {
		if r := <-got; r.status != http.StatusOK {
			t.Fatalf("thumbnail: %d %s", r.status, r.raw)
		}
	}
	if m := most.Load(); m != 1 {
		t.Fatalf("%d renders at once, want at most 1 (Workers)", m)
	}
}
