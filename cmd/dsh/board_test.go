package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/dshtest"
)

// dsh board share and members, through a running host: a person gets a
// role on a board, the listing shows it, and none takes it away; an
// unknown person or role is refused with what to do.
func TestBoardShare(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, _ := serve(t, cfg)
	c := browser(t)
	if resp, b := dshtest.Send(t, c, http.MethodPost, info.URL+"/dsh-excalidraw/api/scenes", `{"name":"plan"}`,
		"Authorization", "Bearer "+info.Token, "Content-Type", "application/json"); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, b)
	}
	if _, err := userCmd(t, "add", "erin", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	board := func(args ...string) (string, error) {
		return run(t, context.Background(), append(append([]string{"board"}, args...), "--config", cfg)...)
	}
	out, err := board("share", "plan", "erin", "--role", "viewer")
	if err != nil || !strings.Contains(out, "erin") || !strings.Contains(out, "viewer") {
		t.Fatalf("share: %v\n%s", err, out)
	}
	if out, err = board("members", "plan"); err != nil || !strings.Contains(out, "erin") || !strings.Contains(out, "viewer") {
		t.Fatalf("members: %v\n%s", err, out)
	}
	if _, err := board("share", "plan", "nobody"); err == nil || !strings.Contains(err.Error(), "dsh user add") {
		t.Fatalf("an unknown person: %v", err)
	}
	if _, err := board("share", "plan", "erin", "--role", "admin"); err == nil || !strings.Contains(err.Error(), "--role") {
		t.Fatalf("a bad role: %v", err)
	}
	if out, err = board("share", "plan", "erin", "--role", "none"); err != nil || strings.Contains(out, "erin") {
		t.Fatalf("stop sharing: %v\n%s", err, out)
	}
}
