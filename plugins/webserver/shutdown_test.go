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
