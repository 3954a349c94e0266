package webserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/goleak"
)

func TestShutdownWaitsForInFlightRequest(t *testing.T) {
	s := New(Config{Listen: "127.0.0.1:0"}, nil, admitAll)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	slow := newBlocker()
	if _, err := s.Mount("slow", Route{Method: "GET", Path: "/slow", Handler: slow.handler}); err != nil {
		t.Fatal(err)
	}
	inflight := background(c, http.MethodGet, s.URL()+"/slow")
	<-slow.entered

	stopped := make(chan error, 1)
	go func() { stopped <- s.Shutdown(context.Background()) }()
	// New connections are refused once shutdown has begun.
	eventually(t, "listener closed", func() bool {
		_, err := tryCall(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}, http.MethodGet, s.URL()+"/", nil)
		return err != nil
	})
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) with a request in flight", err)
	default:
	}
	close(slow.release)
	if r := (<-inflight).must(t); r.status != http.StatusOK || r.body != "finished" {
		t.Fatalf("in-flight request: %d %q", r.status, r.body)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("graceful Shutdown: %v", err)
	}
	if err := s.Start(context.Background()); err == nil {
		t.Fatal("Start after Shutdown succeeded")
	}
}

// sse streams events until the request context ends, like a plugin's
// live-update endpoint.
func sse(c echo.Context) error { return trickle(c, "text/event-stream") }

// trickle writes a line every 10 ms as contentType until the request
// context ends.
func trickle(c echo.Context, contentType string) error {
	w := c.Response()
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	for i := 0; ; i++ {
		if _, err := fmt.Fprintf(w, "data: %d\n\n", i); err != nil {
			return nil
		}
		w.Flush()
		select {
		case <-c.Request().Context().Done():
			return nil
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestShutdownForceClosesStreamsAndLeaksNothing: a long response that is
// no event stream (a chunked text/plain download, say) is drained like any
// request, and force-closed when the timeout runs out.
func TestShutdownForceClosesStreamsAndLeaksNothing(t *testing.T) {
	s := New(Config{Listen: "127.0.0.1:0", ShutdownTimeout: 100 * time.Millisecond}, nil, admitAll)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	plain := func(c echo.Context) error { return trickle(c, "text/plain") }
	if _, err := s.Mount("live", Route{Method: "GET", Path: "/events", Handler: plain}); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	c := &http.Client{Transport: tr}
	resp, err := c.Get(s.URL() + "/events")
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "data: 0\n" {
		t.Fatalf("first event %q %v", line, err)
	}

	err = s.Shutdown(context.Background())
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v, want forced-close error", err)
	}
	resp.Body.Close()
	tr.CloseIdleConnections()

	// Idempotent.
	if err2 := s.Shutdown(context.Background()); err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("second Shutdown = %v", err2)
	}
	goleak.VerifyNone(t)
}

// TestShutdownEndsEventStreamsFirst: an open event stream (a GET that
// accepts text/event-stream, as EventSource and MCP clients send) ends when
// shutdown begins, so a graceful shutdown does not wait for it: Shutdown
// returns nil long before its timeout, and the client sees the stream end.
// Before streams were ended, this waited the whole ShutdownTimeout and
// returned a forced-close error.
func TestShutdownEndsEventStreamsFirst(t *testing.T) {
	s := New(Config{Listen: "127.0.0.1:0", ShutdownTimeout: time.Minute}, nil, admitAll)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mount("live", Route{Method: "GET", Path: "/events", Handler: sse}); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, s.URL()+"/events", nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body := bufio.NewReader(resp.Body)
	if line, err := body.ReadString('\n'); err != nil || line != "data: 0\n" {
		t.Fatalf("first event %q %v", line, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with an open event stream = %v, want a graceful stop", err)
	}
	// The stream ended: the body reaches EOF after the events already sent.
	for {
		if _, err := body.ReadString('\n'); err != nil {
			break
		}
	}
	goleak.VerifyNone(t)
}

func TestIsEventStream(t *testing.T) {
	for _, tc := range []struct {
		method, accept string
		want           bool
	}{
		{"GET", "text/event-stream", true},
		{"GET", "application/json, text/event-stream", true},
		{"GET", "text/event-stream; q=0.9", true},
		{"GET", "text/html", false},
		{"GET", "", false},
		{"POST", "application/json, text/event-stream", false}, // a tool call: drained, not ended
	} {
		r, _ := http.NewRequest(tc.method, "http://x/", nil)
		if tc.accept != "" {
			r.Header.Set("Accept", tc.accept)
		}
		if got := isEventStream(r); got != tc.want {
			t.Errorf("%s Accept %q: %v, want %v", tc.method, tc.accept, got, tc.want)
		}
	}
}

// TestShutdownEndsStreamsWhateverTheHeaders: a stream is ended at
// shutdown by its route or by its response, never only by what the client
// sent. `curl -N` sends no Accept: text/event-stream; before, such a
// stream was drained like a request and shutdown waited out its timeout.
func TestShutdownEndsStreamsWhateverTheHeaders(t *testing.T) {
	started := make(chan struct{}, 1)
	quiet := func(c echo.Context) error { // a stream that says nothing yet
		started <- struct{}{}
		<-c.Request().Context().Done()
		return nil
	}
	for _, tc := range []struct {
		name  string
		route Route
		ready func(t *testing.T, body *bufio.Reader)
	}{
		{"response says text/event-stream", Route{Method: "GET", Path: "/events", Handler: sse},
			func(t *testing.T, body *bufio.Reader) {
				if line, err := body.ReadString('\n'); err != nil || line != "data: 0\n" {
					t.Fatalf("first event %q %v", line, err)
				}
			}},
		{"route says Stream, before any byte", Route{Method: "GET", Path: "/events", Handler: quiet, Stream: true},
			func(t *testing.T, _ *bufio.Reader) { <-started }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{Listen: "127.0.0.1:0", ShutdownTimeout: time.Minute}, nil, admitAll)
			if err := s.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Mount("live", tc.route); err != nil {
				t.Fatal(err)
			}
			tr := &http.Transport{DisableKeepAlives: true}
			got := make(chan *http.Response, 1)
			go func() {
				req, _ := http.NewRequest(http.MethodGet, s.URL()+"/events", nil) // no Accept header
				resp, err := (&http.Client{Transport: tr}).Do(req)
				if err != nil {
					close(got)
					return
				}
				got <- resp
			}()
			var resp *http.Response
			if tc.route.Stream {
				tc.ready(t, nil) // the handler runs; no header is out yet
			} else {
				if resp = <-got; resp == nil {
					t.Fatal("no response")
				}
				tc.ready(t, bufio.NewReader(resp.Body))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := s.Shutdown(ctx); err != nil {
				t.Fatalf("Shutdown with an open stream requested without Accept = %v, want a graceful stop", err)
			}
			if resp == nil {
				resp = <-got
			}
			if resp != nil {
				_, _ = io.Copy(io.Discard, resp.Body) // the stream ended: EOF
				resp.Body.Close()
			}
			tr.CloseIdleConnections()
			goleak.VerifyNone(t)
		})
	}
}
