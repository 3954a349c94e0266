package webserver

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// TestConcurrentMountUnmountAndRequests is the reason the dispatcher
// exists: plugins load and unload while requests are being served. Under
// -race this fails if publishing a routing table is not properly
// synchronised with serving from it; without -race it still checks that
// every response is one a client could legitimately get.
func TestConcurrentMountUnmountAndRequests(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	if _, err := s.Mount("stable", Route{Method: "GET", Path: "/stable", Handler: text("stable")}); err != nil {
		t.Fatal(err)
	}

	const (
		plugins = 4
		cycles  = 25
		readers = 4
	)
	done := make(chan struct{})
	errs := make(chan error, plugins+readers)
	var writers, clients sync.WaitGroup

	for p := range plugins {
		writers.Go(func() {
			owner := fmt.Sprintf("plugin-%d", p)
			for i := range cycles {
				m, err := s.Mount(owner,
					Route{Method: "GET", Path: "/" + owner + "/ping", Handler: text(owner)},
					Route{Method: "POST", Path: "/" + owner + "/items/:id", Handler: text(owner)},
				)
				if err != nil {
					errs <- fmt.Errorf("%s cycle %d: mount: %w", owner, i, err)
					return
				}
				if err := m.Unmount(context.Background()); err != nil {
					errs <- fmt.Errorf("%s cycle %d: unmount: %w", owner, i, err)
					return
				}
			}
		})
	}

	for r := range readers {
		clients.Go(func() {
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			c := &http.Client{Transport: tr}
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				stable, err := tryCall(c, http.MethodGet, s.URL()+"/stable", nil)
				if err != nil || stable.status != http.StatusOK || stable.body != "stable" {
					errs <- fmt.Errorf("reader %d: stable route: %+v %v", r, stable, err)
					return
				}
				owner := fmt.Sprintf("plugin-%d", i%plugins)
				res, err := tryCall(c, http.MethodGet, s.URL()+"/"+owner+"/ping", nil)
				if err != nil {
					errs <- err
					return
				}
				// Either mounted (200 from the right plugin) or not (404).
				ok := (res.status == http.StatusOK && res.body == owner) || (res.status == http.StatusNotFound && res.code == CodeNotFound)
				if !ok {
					errs <- fmt.Errorf("reader %d: %s: unexpected %d %q", r, owner, res.status, res.body)
					return
				}
			}
		})
	}

	writers.Wait()
	close(done)
	clients.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if routes := s.Routes(); len(routes) != 1 || routes[0].Owner != "stable" {
		t.Fatalf("routes after churn: %+v", routes)
	}
}
