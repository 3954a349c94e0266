package dshtest

import (
	"io"
	"net/http"
	"testing"
)

// mcpInitialize opens an MCP session.
const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`

// MCPStream opens an MCP session at mcpURL with c as the bearer of token
// and then the session's event stream (GET with its Mcp-Session-Id), as
// an agent that waits for the server's messages does. The channel it
// returns is closed when the stream ends; the stream is closed when the
// test ends. A session or stream that does not open fails the test.
func MCPStream(t testing.TB, c *http.Client, mcpURL, token string) <-chan struct{} {
	t.Helper()
	hdr := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer " + token}
	resp, body := Send(t, c, http.MethodPost, mcpURL, mcpInitialize, hdr...)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	hdr = append(hdr, "Mcp-Session-Id", sid)
	if resp, body := Send(t, c, http.MethodPost, mcpURL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr...); resp.StatusCode/100 != 2 {
		t.Fatalf("initialized: %d %s", resp.StatusCode, body)
	}
	req, err := http.NewRequest(http.MethodGet, mcpURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", sid)
	stream, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stream.Body.Close() })
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("stream: %d", stream.StatusCode)
	}
	ended := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, stream.Body)
		close(ended)
	}()
	return ended
}
