package tools

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newStreamableHandler configures the SDK's Streamable HTTP handler.
//
// Admission (authentication, Host/Origin policy, body limits beyond the
// SDK's 4 MiB default) is the host's job and happens before this handler,
// so nothing here duplicates it:
//   - stateful sessions, because list_changed notifications need a
//     session with a standalone SSE stream;
//   - the SDK's localhost DNS-rebinding check stays on: it only rejects a
//     loopback connection whose Host header is not loopback, which the
//     host's own Host check rejects too, so it can never overrule the host;
//   - no CrossOriginProtection (deprecated in the SDK; Origin is the
//     host's concern);
//   - an in-memory event store, so a client whose SSE stream drops in the
//     middle of a call reconnects with Last-Event-ID and still receives the
//     result (the answer to a committed write is not lost with the
//     connection). It is bounded by replayBufferBytes and forgets a
//     session's events when the session ends.
func newStreamableHandler(s *mcp.Server, timeout time.Duration, log *slog.Logger) *mcp.StreamableHTTPHandler {
	events := mcp.NewMemoryEventStore(nil)
	events.SetMaxBytes(replayBufferBytes)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		SessionTimeout: timeout,
		Logger:         log,
		EventStore:     events,
	})
}

// replayBufferBytes bounds the events kept for stream resumption across all
// sessions; the oldest are purged first.
const replayBufferBytes = 8 << 20

// HTTPHandler returns the Streamable HTTP endpoint. Mount it behind the
// host's authentication. After Close it answers 503.
func (m *MCPServer) HTTPHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.enter() {
			http.Error(w, ErrClosed.Error(), http.StatusServiceUnavailable)
			return
		}
		defer m.leave()
		m.http.ServeHTTP(w, r)
	})
}
