package webserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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
func sse(c echo.Context) error {
	w := c.Response()
	w.Header().Set("Content-Type", "text/event-stream")
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

func TestShutdownForceClosesStreamsAndLeaksNothing(t *testing.T) {
	s := New(Config{Listen: "127.0.0.1:0", ShutdownTimeout: 100 * time.Millisecond}, nil, admitAll)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mount("live", Route{Method: "GET", Path: "/events", Handler: sse}); err != nil {
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
