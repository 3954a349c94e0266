package main

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
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

// The README's order on a fresh install: a connect token for a board that
// does not exist yet is refused with how to make it, `dsh board create`
// makes it, and then the same command gives a token that reads it. Before
// `dsh board create`, the README's token command failed with a bare
// not_found on a fresh install.
func TestBoardCreateThenConnectToken(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, _ := serve(t, cfg)
	token := []string{"token", "create", "my-agent", "--board", "plan", "--role", "viewer", "--config", cfg}
	if _, err := run(t, context.Background(), token...); err == nil || !strings.Contains(err.Error(), "not_found") ||
		!strings.Contains(err.Error(), "dsh board create") {
		t.Fatalf("a token for a missing board: %v, want not_found saying how to create it", err)
	}
	out, err := run(t, context.Background(), "board", "create", "plan", "--title", "The plan", "--config", cfg)
	if err != nil || !strings.Contains(out, "created board plan") {
		t.Fatalf("board create: %v\n%s", err, out)
	}
	if _, err := run(t, context.Background(), "board", "create", "plan", "--config", cfg); err == nil || !strings.Contains(err.Error(), "already_exists") {
		t.Fatalf("creating it again: %v", err)
	}
	bot, err := run(t, context.Background(), token...)
	if err != nil {
		t.Fatal(err)
	}
	c := browser(t)
	resp, b := dshtest.Send(t, c, http.MethodGet, info.URL+"/dsh-excalidraw/api/scenes/plan", "",
		"Authorization", "Bearer "+strings.TrimSpace(bot))
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"revision":1`) {
		t.Fatalf("the connect token reads its new board: %d %s", resp.StatusCode, b)
	}
}

// dsh board room prints a room link for a stock Excalidraw client: the
// board's room id with a new connect token after it, and the key; the
// token reads the board, and the command says how to end it. A missing
// board is refused before any token is minted.
func TestBoardRoomLink(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, _ := serve(t, cfg)
	if _, err := run(t, context.Background(), "board", "room", "nope", "--config", cfg); err == nil || !strings.Contains(err.Error(), "not_found") ||
		!strings.Contains(err.Error(), "dsh board create nope") {
		t.Fatalf("a missing board: %v", err)
	}
	if _, err := run(t, context.Background(), "board", "create", "plan", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, context.Background(), "board", "room", "plan", "--role", "viewer", "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`#room=([0-9a-f]{20})_(dsh_[A-Za-z0-9_-]+),([A-Za-z0-9_-]{22})\n`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "dsh token revoke tok_") || !strings.Contains(out, "VITE_APP_WS_SERVER_URL="+info.URL) {
		t.Fatalf("board room:\n%s", out)
	}
	c := browser(t)
	resp, b := dshtest.Send(t, c, http.MethodGet, info.URL+"/dsh-excalidraw/api/scenes/plan/room", "", "Authorization", "Bearer "+m[2])
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), m[1]) || !strings.Contains(string(b), m[3]) {
		t.Fatalf("the link's token reads the board's room: %d %s", resp.StatusCode, b)
	}
	tokens, err := run(t, context.Background(), "token", "ls", "--config", cfg)
	if err != nil || strings.Count(tokens, "room plan") != 1 {
		t.Fatalf("token ls: %v\n%s", err, tokens)
	}
}
