package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/tools"
	"go.uber.org/goleak"
)

func TestMCPOverStdio(t *testing.T) {
	for name, version := range map[string]string{
		"latest protocol": "",
		"2025-11-25":      "2025-11-25",
		"2025-06-18":      "2025-06-18",
	} {
		t.Run(name, func(t *testing.T) {
			defer goleak.VerifyNone(t)

			reg := tools.NewRegistry(nil)
			mustRegister(t, reg, echoTool("echo"))
			m := New(reg, Options{Name: "test-server", Version: "1"})
			client, changed := listChangedClient()
			cs, stop := pipeStdio(t, m, client, version)
			if version != "" && cs.InitializeResult().ProtocolVersion != version {
				t.Fatalf("negotiated %q", cs.InitializeResult().ProtocolVersion)
			}
			exerciseSession(t, reg, cs, changed)
			if err := stop(); err != nil {
				t.Errorf("ServeStdio returned %v after input closed", err)
			}
			if err := m.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestServeStdioReturnsOnContextCancel(t *testing.T) {
	defer goleak.VerifyNone(t)

	m := New(tools.NewRegistry(nil), Options{})
	defer m.Close()
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- m.ServeStdio(ctx, inR, io.Discard) }()
	cancel()
	if err := <-served; !errors.Is(err, context.Canceled) {
		t.Fatalf("ServeStdio = %v, want context.Canceled", err)
	}
}

func TestServeStdioReturnsOnClose(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	m := New(reg, Options{Name: "test-server"})
	client, _ := listChangedClient()
	cs, stop := pipeStdio(t, m, client, "2025-11-25")
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatalf("ServeStdio after Close = %v, want nil", err)
	}
	_ = cs
	if err := m.ServeStdio(context.Background(), io.NopCloser(nil), io.Discard); !errors.Is(err, ErrClosed) {
		t.Fatalf("ServeStdio after Close = %v, want ErrClosed", err)
	}
}

// TestServeStdioAnswersWhatItReadBeforeInputEnds: a client writes an
// initialize and a tool call and closes its end at once, as a script or an
// agent shutting down does. Every request read is answered before the
// session ends; a call that may have committed is never left unanswered.
// (The SDK alone ends the session at EOF and writes nothing.)
func TestServeStdioAnswersWhatItReadBeforeInputEnds(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	release := make(chan struct{})
	mustRegister(t, reg, tools.Tool{
		Name: "slow", Description: "answers once released",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			<-release
			return map[string]string{"done": "yes"}, nil
		},
	})
	m := New(reg, Options{Name: "test-server", Version: "1"})
	defer m.Close()
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":"call-2","method":"tools/call","params":{"name":"slow","arguments":{}}}
`)
	var out dshtest.Buffer
	served := make(chan error, 1)
	go func() { served <- m.ServeStdio(context.Background(), in, &out) }()
	time.AfterFunc(50*time.Millisecond, func() { close(release) })
	if err := <-served; err != nil {
		t.Fatalf("ServeStdio = %v", err)
	}
	got := out.String()
	for _, want := range []string{`"id":1,"result"`, `"id":"call-2","result"`, `\"done\":\"yes\"`} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %s:\n%s", want, got)
		}
	}
}
