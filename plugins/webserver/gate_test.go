package webserver

import (
	"sync"
	"testing"
)

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestGateDrains(t *testing.T) {
	g := newGate()
	if !g.enter() || !g.enter() {
		t.Fatal("open gate refused")
	}
	drained := g.close()
	if g.enter() {
		t.Fatal("closed gate admitted")
	}
	if isClosed(drained) || g.running() != 2 {
		t.Fatal("drained with requests inside")
	}
	g.leave()
	if isClosed(drained) {
		t.Fatal("drained with one request inside")
	}
	g.leave()
	if !isClosed(drained) {
		t.Fatal("not drained after last leave")
	}
	if g.close() != drained {
		t.Fatal("close not idempotent")
	}
}

func TestGateCloseWhenEmpty(t *testing.T) {
	if !isClosed(newGate().close()) {
		t.Fatal("empty gate not drained on close")
	}
}

func TestGateConcurrentEnterAndClose(t *testing.T) {
	g := newGate()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if g.enter() {
					g.leave()
				}
			}
		})
	}
	drained := g.close()
	wg.Wait()
	<-drained
	if g.running() != 0 {
		t.Fatalf("running %d", g.running())
	}
}
