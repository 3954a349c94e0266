package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// eventsEnv is a web server with only the events route mounted, over a
// service whose commit hook publishes to the hub, as the plugin wires it.
type eventsEnv struct {
	*env
	svc   *service.Service
	hub   *live.Hub
	stop  chan struct{}
	mount *webserver.Mount
}

func newEventsEnv(t *testing.T, heartbeat time.Duration) *eventsEnv {
	t.Helper()
	hub := live.NewHub(nil)
	t.Cleanup(hub.Close)
	dir := filepath.Join(t.TempDir(), "drawings")
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: testLimits, LockTimeout: 2 * time.Second,
		Rand:     rand.New(rand.NewPCG(1, 2)),
		OnCommit: func(h service.Head) { hub.Publish(ChangeOf(h)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	stop := make(chan struct{})
	srv := webserver.New(webserver.Config{Listen: "127.0.0.1:0"}, nil, func() connection.Admitter { return admitAll{} })
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	m, err := srv.Mount("excalidraw-events", webserver.Route{
		Method: http.MethodGet, Path: api + "/scenes/:name/events", Handler: sceneEvents(svc, hub, stop, heartbeat),
	}, webserver.Route{
		Method: http.MethodGet, Path: api + "/events", Handler: sceneListEvents(svc, hub, stop, heartbeat),
	})
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &eventsEnv{
		env: &env{t: t, base: srv.URL(), client: &http.Client{Transport: tr}, dir: dir},
		svc: svc, hub: hub, stop: stop, mount: m,
	}
}

// sseEvent is one parsed event; a comment-only block has only comment.
type sseEvent struct {
	event, id, data, comment string
}

// stream is an open event stream read by a goroutine; events is closed
// at EOF or on a read error.
type stream struct {
	resp   *http.Response
	events chan sseEvent
	cancel context.CancelFunc
}

func (e *eventsEnv) open(t *testing.T, name string) *stream {
	t.Helper()
	return e.openPath(t, api+"/scenes/"+name+"/events")
}

func (e *eventsEnv) openPath(t *testing.T, path string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &stream{resp: resp, events: make(chan sseEvent, 16), cancel: cancel}
	go s.read()
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		for range s.events { // wait for the reader to exit
		}
	})
	return s
}

func (s *stream) read() {
	defer close(s.events)
	sc := bufio.NewScanner(s.resp.Body)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			s.events <- ev
			ev = sseEvent{}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "":
			ev.comment = value
		case "event":
			ev.event = value
		case "id":
			ev.id = value
		case "data":
			ev.data = value
		}
	}
}

// next returns the next event, skipping heartbeats unless wanted.
func (s *stream) next(t *testing.T, comments bool) sseEvent {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("stream ended")
			}
			if ev.comment != "" && !comments {
				continue
			}
			return ev
		case <-deadline:
			t.Fatal("no event within 5s")
		}
	}
}

// change decodes a revision event.
func (ev sseEvent) change(t *testing.T) live.Change {
	t.Helper()
	if ev.event != "revision" {
		t.Fatalf("event %q, want revision: %+v", ev.event, ev)
	}
	var c live.Change
	if err := json.Unmarshal([]byte(ev.data), &c); err != nil {
		t.Fatalf("data %q: %v", ev.data, err)
	}
	return c
}

// ended waits for EOF (heartbeats aside) within d.
func (s *stream) ended(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				return
			}
			if ev.comment == "" {
				t.Fatalf("unexpected event %+v", ev)
			}
		case <-deadline:
			t.Fatalf("stream still open after %v", d)
		}
	}
}

func (e *eventsEnv) create(t *testing.T, name string) *service.WriteResult {
	t.Helper()
	res, err := e.svc.Create(context.Background(), service.CreateRequest{Name: name, Elements: []json.RawMessage{
		json.RawMessage(`{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10}`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSceneEventsHeadThenCommitsThenHubClose(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	created := e.create(t, "flow")
	s := e.open(t, "flow")
	for k, want := range map[string]string{
		"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
	} {
		if got := s.resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if s.resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", s.resp.StatusCode)
	}

	first := s.next(t, false)
	want := live.Change{Name: "flow", Revision: 1, SHA256: created.SHA256, ElementCount: 1, UpdatedBy: "agent", At: created.SavedAt}
	if c := first.change(t); c != want || first.id != "1" {
		t.Fatalf("first event %+v (id %q), want %+v", c, first.id, want)
	}

	applied, err := e.svc.Apply(context.Background(), service.ApplyRequest{Name: "flow", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"update","id":"r","patch":{"x":50}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	next := s.next(t, false)
	if c := next.change(t); c.Revision != 2 || c.SHA256 != applied.SHA256 || next.id != "2" {
		t.Fatalf("second event %+v (id %q), want revision 2 %s", c, next.id, applied.SHA256)
	}

	// Closing the hub (the plugin being disposed) ends the stream, and
	// the route's unmount then has nothing left to drain.
	e.hub.Close()
	s.ended(t, 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.mount.Unmount(ctx); err != nil {
		t.Fatalf("unmount after hub close: %v", err)
	}
}

// TestSceneEventsEndWithStop: the plugin closes stop before unmounting its
// routes (the web server going away while the plugin stays), which ends
// open streams while the hub lives on for the next mount.
func TestSceneEventsEndWithStop(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	e.create(t, "flow")
	s := e.open(t, "flow")
	s.next(t, false)
	close(e.stop)
	s.ended(t, 10*time.Second)
	if _, err := e.hub.Subscribe("flow"); err != nil {
		t.Fatalf("hub closed by stop: %v", err)
	}
}

// TestSceneEventsSkipsWhatTheHeadCovers: the watcher may report a commit
// after the handler already sent it as the head (the hub has not seen it
// before, so it delivers); the stream must not repeat it.
func TestSceneEventsSkipsWhatTheHeadCovers(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	// Another process (a service without the hook) writes the scene, so
	// the hub has published nothing for it.
	other, err := service.New(service.Config{DrawingsDir: e.dir, LockTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	created, err := other.Create(context.Background(), service.CreateRequest{Name: "flow"})
	if err != nil {
		t.Fatal(err)
	}
	s := e.open(t, "flow")
	head := s.next(t, false).change(t)
	if head.Revision != 1 {
		t.Fatalf("head %+v", head)
	}
	e.hub.Publish(head) // the watcher's late report of revision 1
	e.hub.Publish(live.Change{Name: "flow", Revision: 2, SHA256: created.SHA256})
	if c := s.next(t, false).change(t); c.Revision != 2 {
		t.Fatalf("after the head got %+v, want revision 2", c)
	}
}

func TestSceneEventsHeartbeat(t *testing.T) {
	e := newEventsEnv(t, 20*time.Millisecond)
	e.create(t, "flow")
	s := e.open(t, "flow")
	s.next(t, false)
	if ev := s.next(t, true); ev.comment != "ping" {
		t.Fatalf("got %+v, want a ping comment", ev)
	}
}

// TestSceneEventsEndsWithClient: a client that goes away must not leave
// the handler running (it would hold up the unmount drain).
func TestSceneEventsEndsWithClient(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	e.create(t, "flow")
	s := e.open(t, "flow")
	s.next(t, false)
	s.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := e.mount.Unmount(ctx); err != nil {
		t.Fatalf("unmount after client left: %v", err)
	}
}

func TestSceneEventsErrors(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"missing", http.StatusNotFound, "not_found"},
		{"Bad%20Name", http.StatusBadRequest, "invalid_name"},
		{"..%2Fsecret", http.StatusBadRequest, "invalid_name"},
	} {
		r := e.with(t).do(http.MethodGet, api+"/scenes/"+tc.path+"/events", nil)
		if r.status != tc.status || r.code() != tc.code {
			t.Errorf("%s: got %d %q, want %d %q: %s", tc.path, r.status, r.code(), tc.status, tc.code, r.raw)
		}
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type %q", tc.path, ct)
		}
	}

	e.create(t, "flow")
	e.hub.Close() // a request racing the plugin's disposal
	r := e.with(t).do(http.MethodGet, api+"/scenes/flow/events", nil)
	expect(t, r, http.StatusInternalServerError, "io_error")
}

// TestSceneListEvents: a scene list's stream starts with the whole
// listing, then announces every commit to any scene — a scene created
// after the stream opened included — and ends with stop like the
// scene streams.
func TestSceneListEvents(t *testing.T) {
	e := newEventsEnv(t, time.Hour)
	first := e.create(t, "alpha")
	s := e.openPath(t, api+"/events")
	ev := s.next(t, false)
	if ev.event != "scenes" {
		t.Fatalf("first event %+v, want the listing", ev)
	}
	var list listBody
	if err := json.Unmarshal([]byte(ev.data), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Scenes) != 1 || list.Scenes[0].Name != "alpha" || list.Scenes[0].Revision != 1 || list.Scenes[0].SHA256 != first.SHA256 {
		t.Fatalf("listing %+v", list.Scenes)
	}

	created := e.create(t, "beta")
	if c := s.next(t, false).change(t); c.Name != "beta" || c.Revision != 1 || c.SHA256 != created.SHA256 || c.UpdatedBy != "agent" || c.At == "" {
		t.Fatalf("creation event %+v", c)
	}
	if _, err := e.svc.Apply(context.Background(), service.ApplyRequest{Name: "alpha", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"update","id":"r","patch":{"x":5}}`)}}); err != nil {
		t.Fatal(err)
	}
	if c := s.next(t, false).change(t); c.Name != "alpha" || c.Revision != 2 {
		t.Fatalf("commit event %+v", c)
	}
	close(e.stop)
	s.ended(t, 10*time.Second)
}
