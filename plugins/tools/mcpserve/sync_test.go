package mcpserve

import (
	"encoding/json"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh/plugins/tools"
)

func TestMCPReRegistrationReplacesTool(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	m := New(reg, Options{})
	defer m.Close()
	client, changed := listChangedClient()
	cs := connectInMemory(t, m, client)
	defer cs.Close()

	first := echoTool("x")
	first.Description = "first"
	unregister := mustRegister(t, reg, first)
	awaitTools(t, cs, changed, "x")
	unregister()
	second := echoTool("x")
	second.Description = "second"
	mustRegister(t, reg, second)

	guard := time.NewTimer(notifyGuard)
	defer guard.Stop()
	for {
		res, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) == 1 && res.Tools[0].Description == "second" {
			return
		}
		select {
		case <-changed:
		case <-guard.C:
			t.Fatalf("re-registration never reached the client: %+v", res.Tools)
		}
	}
}

// TestMCPAddToolPanicIsContained bypasses registry validation to prove the
// second line of defence: an SDK panic becomes a logged error.
func TestMCPAddToolPanicIsContained(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	reg := &spyRegistry{Registry: tools.NewRegistry(nil)}
	m := newServer(reg, Options{Logger: zap.New(core)})
	defer m.Close()
	bad := tools.Descriptor{Name: "bad", Description: "d", InputSchema: json.RawMessage(`{"type":"string"}`)}
	if err := m.addTool(bad); err == nil {
		t.Fatal("expected an error from a schema the SDK rejects")
	}

	// The same through sync: the tool is skipped and logged.
	reg.extra = []tools.Descriptor{bad}
	m.sync()
	if logs.FilterMessage("MCP server rejected tool").Len() != 1 {
		t.Fatalf("rejection not logged: %v", logs.All())
	}
}

func TestMCPSyncConvergesUnderConcurrentChanges(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	m := New(reg, Options{})
	defer m.Close()
	done := make(chan struct{})
	for i := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := range 10 {
				unregister, err := reg.Register(echoTool(string(rune('a'+i)) + string(rune('0'+j))))
				if err != nil {
					t.Errorf("Register: %v", err)
					return
				}
				if j%2 == 0 {
					unregister()
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	if len(m.synced) != reg.Len() {
		t.Fatalf("bridge mirrors %d tools, registry has %d", len(m.synced), reg.Len())
	}
	for _, d := range reg.List() {
		if _, ok := m.synced[d.Name]; !ok {
			t.Fatalf("%s missing from the bridge", d.Name)
		}
	}
}
