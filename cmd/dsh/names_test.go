package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A name with a control character is refused with invalid_name before
// anything is opened or written: no token file, no accounts file (not
// even the owner's record `user add` makes first).
func TestCommandsRefuseControlCharactersInNames(t *testing.T) {
	cfg := writeConfig(t)
	state := filepath.Join(filepath.Dir(cfg), "state")
	for _, args := range [][]string{
		{"token", "create", "bot\x1b[31m"},
		{"token", "create", "two\nlines", "--board", "plan"},
		{"user", "add", "bob\n", "--url", "https://dsh.example.org"},
		{"user", "add", "bo\x07b", "--url", "https://dsh.example.org"},
	} {
		_, err := run(t, context.Background(), append(args, "--config", cfg)...)
		if err == nil || !strings.HasPrefix(err.Error(), "invalid_name: ") {
			t.Errorf("%q: %v, want invalid_name", args, err)
		}
	}
	for _, f := range []string{"tokens.json", "accounts.json"} {
		if _, err := os.Stat(filepath.Join(state, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused name left %s: %v", f, err)
		}
	}
}

// Listings print a name kept before names were checked (or edited in by
// hand) quoted, never its escape sequences raw.
func TestListingsEscapeNames(t *testing.T) {
	cfg := writeConfig(t)
	state := filepath.Join(filepath.Dir(cfg), "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	sha := strings.Repeat("ab", 32)
	tokens := `{"tokens":[{"id":"tok_0123456789ab","name":"red\u001b[31malert","sha256":"` + sha + `","createdAt":"2026-01-01T00:00:00Z"}]}`
	sessions := `{"sessions":[{"id":"ses_0123456789ab","label":"Mozilla\u001b[2J\u0007","createdAt":"2026-01-01T00:00:00Z","expiresAt":"2999-01-01T00:00:00Z","sha256":"` + sha + `"}]}`
	for f, body := range map[string]string{"tokens.json": tokens, "sessions.json": sessions} {
		if err := os.WriteFile(filepath.Join(state, f), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"token", "ls"}, `"red\x1b[31malert"`},
		{[]string{"sessions", "ls"}, `"Mozilla\x1b[2J\a"`},
	} {
		out, err := run(t, context.Background(), append(c.args, "--config", cfg)...)
		if err != nil || strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, c.want) {
			t.Errorf("%v: %v\n%q, want %s and no raw escapes", c.args, err, out, c.want)
		}
	}
}
