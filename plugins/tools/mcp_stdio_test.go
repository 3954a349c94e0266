package tools

import (
	"context"
	"errors"
	"io"
	"testing"

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

			reg := NewRegistry(nil)
			mustRegister(t, reg, echoTool("echo"))
			m := NewMCPServer(reg, MCPOptions{Name: "test-server", Version: "1"})
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

	m := NewMCPServer(NewRegistry(nil), MCPOptions{})
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

	reg := NewRegistry(nil)
	m := NewMCPServer(reg, MCPOptions{Name: "test-server"})
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
