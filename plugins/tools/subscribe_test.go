package tools

import (
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func TestSubscribeNotifiesOnAddAndRemove(t *testing.T) {
	r := NewRegistry(nil)
	var seen []int
	cancel := r.Subscribe(func() { seen = append(seen, r.Len()) }) // re-entrant read must not deadlock
	unregister := mustRegister(t, r, echoTool("a"))
	unregister()
	unregister() // no-op: no notification
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 0 {
		t.Fatalf("notifications saw lengths %v, want [1 0]", seen)
	}
	cancel()
	cancel()
	mustRegister(t, r, echoTool("b"))
	if len(seen) != 2 {
		t.Fatalf("notified after cancel: %v", seen)
	}
}

func TestSubscribeFailedRegisterDoesNotNotify(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("a"))
	calls := 0
	r.Subscribe(func() { calls++ })
	if _, err := r.Register(echoTool("a")); err == nil {
		t.Fatal("duplicate accepted")
	}
	if calls != 0 {
		t.Fatalf("failed registration notified %d times", calls)
	}
}

func TestSubscribePanickingListenerIsContained(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	r := NewRegistry(zap.New(core))
	r.Subscribe(func() { panic("boom") })
	calls := 0
	r.Subscribe(func() { calls++ })
	mustRegister(t, r, echoTool("a"))
	if calls != 1 {
		t.Fatalf("healthy listener called %d times", calls)
	}
	if logs.FilterMessage("registry listener panicked").Len() != 1 {
		t.Fatalf("panic not logged: %v", logs.All())
	}
	if r.Len() != 1 {
		t.Fatal("registration lost")
	}
}

func TestSubscribeNil(t *testing.T) {
	r := NewRegistry(nil)
	r.Subscribe(nil)()
	mustRegister(t, r, echoTool("a"))
}
