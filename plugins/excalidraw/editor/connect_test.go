package editor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// The connect dialog, its parts and its token list.
const (
	connectDialog = `dialog[data-testid="connect-dialog"]`
	snippetJS     = `document.querySelector('` + connectDialog + ` [data-testid="snippet"]')`
)

// tokenRowJS finds a token's row in the dialog's list by its name.
func tokenRowJS(name string) string {
	return fmt.Sprintf(`document.querySelector('%s tr[data-token-name=%q]')`, connectDialog, name)
}

// TestConnectAgentFromEditor: the board's owner opens the board, opens
// "Connect an agent", and mints an editor token. The snippet the page
// shows is all an MCP client needs: connected with the URL and token read
// from it, the agent draws on the board, the open page shows the box live,
// and the history names the bot and the person it acts for. A viewer token
// minted the same way is refused with permission_denied and leaves the
// file's bytes alone. Revoking the editor token in the dialog ends its
// MCP session: its next call fails.
func TestConnectAgentFromEditor(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "board", "elements": []any{
		map[string]any{"type": "rectangle", "id": "base", "x": 0, "y": 0, "width": 160, "height": 80},
	}})
	tab := w.browser
	w.openScene(tab, "board")

	editorCfg := w.mintInDialog(tab, "claude", "editor", "connect-minted-editor")
	w.run(tab, chromedp.Click(chromedp.CSS(connectDialog+` button[data-action="done"]`)))
	w.waitJS(tab, "the dialog closed", `document.querySelector('`+connectDialog+`') === null`)
	claude := w.connectWith(editorCfg)
	res := w.callAs(claude, "batch_create", map[string]any{"name": "board", "elements": []any{
		map[string]any{"type": "rectangle", "id": "from-bot", "x": 300, "y": 0, "width": 160, "height": 80, "backgroundColor": "#b2f2bb", "fillStyle": "solid"},
	}})
	if res.IsError {
		t.Fatalf("the editor token's batch_create failed: %s", resultText(res))
	}
	w.waitJS(tab, "the bot's box on the open page", pageHasJS("from-bot")+` && window.dshEditor.state().revision === 2`)
	if s := w.state(tab); s.Status != "saved" || s.Dirty {
		t.Errorf("after the bot's change the page is %+v", s)
	}

	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	const entry = `.dsh-history .dsh-entry[data-revision="2"]`
	w.waitJS(tab, "the bot's commit in the history", `document.querySelector('`+entry+` [data-testid="bot"]') !== null`)
	who := evalJS[string](w, tab, `document.querySelector('`+entry+` [data-testid="bot"]').textContent`)
	bot := evalJS[string](w, tab, `document.querySelector('`+entry+` .dsh-entry-bot').textContent`)
	if bot != "claude" || !strings.HasPrefix(who, "claude for ") || len(who) <= len("claude for ") {
		t.Errorf("the history names the writer %q (bot %q), want \"claude for <person>\"", who, bot)
	}
	w.keepScreenshot(tab, "connect-history-bot")

	// A viewer token, minted the same way, may not draw; the file stays
	// as it was, byte for byte.
	before := w.sceneFile("board")
	viewerCfg := w.mintInDialog(tab, "peek", "viewer", "connect-minted-viewer")
	// The list now shows both, the editor token as used.
	w.waitJS(tab, "both tokens listed", tokenRowJS("claude")+` !== null && `+tokenRowJS("peek")+` !== null`)
	if used := evalJS[string](w, tab, tokenRowJS("claude")+`.cells[3].textContent`); used != "just now" {
		t.Errorf("the editor token's last use reads %q, want just now", used)
	}
	if role := evalJS[string](w, tab, tokenRowJS("peek")+`.cells[1].textContent`); role != "view" {
		t.Errorf("the viewer token's row says it may %q", role)
	}
	peek := w.connectWith(viewerCfg)
	res = w.callAs(peek, "batch_create", map[string]any{"name": "board", "elements": []any{
		map[string]any{"type": "rectangle", "id": "not-allowed", "x": 0, "y": 300, "width": 100, "height": 60},
	}})
	if !res.IsError {
		t.Fatalf("the viewer token's batch_create succeeded: %s", resultText(res))
	}
	if code := errorCode(t, res); code != "permission_denied" {
		t.Errorf("the viewer token's batch_create failed with %q, want permission_denied: %s", code, resultText(res))
	}
	if after := w.sceneFile("board"); !bytes.Equal(before, after) {
		t.Errorf("the refused write changed the file:\nbefore %s\nafter  %s", before, after)
	}
	// It may still read.
	if res := w.callAs(peek, "excalidraw_scene_read", map[string]any{"name": "board"}); res.IsError {
		t.Errorf("the viewer token cannot read the board: %s", resultText(res))
	}

	// Revoke the editor token, asked first.
	w.run(tab, chromedp.Click(chromedp.CSS(connectDialog+` tr[data-token-name="claude"] button[data-action="revoke"]`)))
	const confirmRow = `document.querySelector('` + connectDialog + ` tr[data-confirm-for="claude"]')`
	w.waitJS(tab, "the revoke confirmation", confirmRow+`?.querySelector('button[data-action="confirm-revoke"]') === document.activeElement`)
	if text := evalJS[string](w, tab, confirmRow+`.textContent`); !strings.Contains(text, "Revoke claude? Agents using it stop at once") {
		t.Errorf("the revoke confirmation reads %q", text)
	}
	if n := len(w.tokensListed(tab)); n != 2 {
		t.Errorf("asking to revoke took %d tokens away", 2-n)
	}
	w.keepScreenshot(tab, "connect-revoke-confirm")
	w.run(tab, chromedp.Click(chromedp.CSS(connectDialog+` tr[data-confirm-for="claude"] button[data-action="confirm-revoke"]`)))
	w.waitJS(tab, "the revoked token gone from the list", tokenRowJS("claude")+` === null && `+tokenRowJS("peek")+` !== null`)
	if names := w.tokensListed(tab); strings.Join(names, ",") != "peek" {
		t.Errorf("after the revoke the host lists %v, want peek", names)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := claude.CallTool(ctx, &mcp.CallToolParams{Name: "batch_create", Arguments: map[string]any{"name": "board", "elements": []any{
		map[string]any{"type": "rectangle", "id": "after-revoke", "x": 0, "y": 500, "width": 100, "height": 60},
	}}})
	if err == nil && !res.IsError {
		t.Fatalf("the revoked token's session still writes: %s", resultText(res))
	}
	t.Logf("after the revoke the session's call failed: err=%v result=%s", err, resultTextOrEmpty(res))
	if ids := w.liveOnDisk("board"); strings.Join(ids, ",") != "base,from-bot" {
		t.Errorf("the file has %v after the revoke, want base,from-bot", ids)
	}

	// Escape closes the dialog and gives focus back to its button.
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the dialog closed", `document.querySelector('`+connectDialog+`') === null`)
	if focused := evalJS[string](w, tab, `document.activeElement?.dataset?.action || ""`); focused != "connect" {
		t.Errorf("after Escape the focus is on %q, want the connect button", focused)
	}
	w.noConsoleErrorsBut(tab)
}

// tokensListed is the names of the tokens the host lists for the board.
func (w *world) tokensListed(tab context.Context) []string {
	w.t.Helper()
	return evalJS[[]string](w, tab, `fetch("/dsh-excalidraw/api/mcp/tokens?board=board").then(r => r.json()).then(d => d.tokens.map(t => t.name))`)
}

// mintInDialog opens the connect dialog (if it is not open), mints a
// token with this name and role as a person would, and returns the
// client configuration the page shows.
func (w *world) mintInDialog(tab context.Context, name, role, screenshot string) mcpConfig {
	w.t.Helper()
	open := evalJS[bool](w, tab, `document.querySelector('`+connectDialog+`') !== null`)
	if open && evalJS[bool](w, tab, `document.querySelector('`+connectDialog+` button[data-action="another"]') !== null`) {
		w.run(tab, chromedp.Click(chromedp.CSS(connectDialog+` button[data-action="another"]`)))
	} else if !open {
		w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="connect"]`)))
	}
	const input = connectDialog + ` input[name="token-name"]`
	w.waitJS(tab, "the connect dialog", `document.querySelector('`+connectDialog+`')?.open === true && document.activeElement === document.querySelector('`+input+`')`)
	if v := evalJS[string](w, tab, `document.querySelector('`+input+`').value`); v != "agent for board" {
		w.t.Errorf("the token name starts as %q, want \"agent for board\"", v)
	}
	if !open {
		w.keepScreenshot(tab, "connect-dialog")
	}
	// Type over the default name, as a person does.
	evalJS[bool](w, tab, `(document.querySelector('`+input+`').select(), true)`)
	w.run(tab, chromedp.KeyEvent(name))
	w.run(tab, chromedp.Click(chromedp.CSS(connectDialog+` input[name="token-role"][value="`+role+`"]`)))
	w.waitJS(tab, "the form filled in", fmt.Sprintf(`document.querySelector('%s').value === %q && document.querySelector('%s input[name="token-role"][value="%s"]').checked`, input, name, connectDialog, role))
	w.run(tab, chromedp.Click(chromedp.CSS(connectDialog+` button[data-action="mint"]`)))
	w.waitJS(tab, "the minted token", snippetJS+` !== null`)

	text := evalJS[string](w, tab, `document.querySelector('`+connectDialog+` [data-testid="minted"]').textContent`)
	if !strings.Contains(text, "only time the token is shown") {
		w.t.Errorf("the minted token's panel does not warn that it is shown once: %q", text)
	}
	if focused := evalJS[string](w, tab, `document.activeElement?.dataset?.action || ""`); focused != "copy" {
		w.t.Errorf("after minting the focus is on %q, want Copy", focused)
	}
	w.keepScreenshot(tab, screenshot)
	cfg := parseSnippet(w.t, evalJS[string](w, tab, snippetJS+`.textContent`))
	if url := evalJS[string](w, tab, `document.querySelector('`+connectDialog+` [data-testid="mcp-url"]').value`); url != cfg.URL {
		w.t.Errorf("the page shows the MCP URL %q, the snippet %q", url, cfg.URL)
	}
	if cfg.URL != w.host.URL()+"/mcp" {
		w.t.Errorf("the snippet's URL is %q, want %q", cfg.URL, w.host.URL()+"/mcp")
	}
	return cfg
}

// mcpConfig is what a client takes from the snippet.
type mcpConfig struct {
	URL, Token string
}

// parseSnippet reads the "mcpServers" configuration the dialog shows: one
// server, its URL and its Authorization header.
func parseSnippet(t testing.TB, snippet string) mcpConfig {
	t.Helper()
	var doc struct {
		MCPServers map[string]struct {
			Type    string            `json:"type"`
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(snippet), &doc); err != nil {
		t.Fatalf("the snippet is not JSON: %v\n%s", err, snippet)
	}
	if len(doc.MCPServers) != 1 {
		t.Fatalf("the snippet names %d servers, want 1:\n%s", len(doc.MCPServers), snippet)
	}
	for _, s := range doc.MCPServers {
		token, ok := strings.CutPrefix(s.Headers["Authorization"], "Bearer ")
		if !ok || token == "" || s.URL == "" {
			t.Fatalf("the snippet lacks a URL or a bearer token:\n%s", snippet)
		}
		return mcpConfig{URL: s.URL, Token: token}
	}
	panic("unreachable")
}

// connectWith is an MCP client connected as the snippet says.
func (w *world) connectWith(cfg mcpConfig) *mcp.ClientSession {
	w.t.Helper()
	tr := &http.Transport{}
	c := mcp.NewClient(&mcp.Implementation{Name: "snippet-client", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := c.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   cfg.URL,
		HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: cfg.Token, Base: tr}},
	}, nil)
	if err != nil {
		w.t.Fatalf("connecting with the snippet's token: %v", err)
	}
	w.t.Cleanup(func() { _ = sess.Close(); tr.CloseIdleConnections() })
	return sess
}

// callAs calls a tool in a session, failing the test on a transport error
// (not on a tool error: the caller looks at IsError).
func (w *world) callAs(s *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func resultTextOrEmpty(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	return resultText(res)
}

// errorCode is a tool error's code: {"error": {"code": …}} or {"code": …}.
func errorCode(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	var out struct {
		Code  string `json:"code"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(resultText(res)), &out); err != nil {
		t.Fatalf("tool error is not JSON: %v: %s", err, resultText(res))
	}
	if out.Error.Code != "" {
		return out.Error.Code
	}
	return out.Code
}
