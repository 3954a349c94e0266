package mcpserve

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// newStreamableHandler configures the SDK's Streamable HTTP handler.
//
// Admission (authentication, Host/Origin policy, the body limit, which
// the host passes down as MaxRequestBodyBytes) is the host's job and
// happens before this handler,
// so nothing here duplicates it; the session caps are HTTPHandler's:
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
//
// Stateless (Options.Stateless, for several nodes behind one address)
// drops the sessions and with them the event store: a resumed stream
// could land on another node, which never saw its events.
func newStreamableHandler(s *mcp.Server, timeout time.Duration, maxBody int64, stateless bool, log *slog.Logger) *mcp.StreamableHTTPHandler {
	opts := &mcp.StreamableHTTPOptions{
		SessionTimeout:      timeout,
		Logger:              log,
		MaxRequestBodyBytes: maxBody,
		Stateless:           stateless,
	}
	if !stateless {
		events := mcp.NewMemoryEventStore(nil)
		events.SetMaxBytes(replayBufferBytes)
		opts.EventStore = events
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
}

// replayBufferBytes bounds the events kept for stream resumption across all
// sessions; the oldest are purged first.
const replayBufferBytes = 8 << 20

// HTTPHandler returns the Streamable HTTP endpoint. Mount it behind the
// host's authentication, which should name the request's credential with
// WithSessionOwner. After Close it answers 503.
//
// Sessions are capped in total and per owner (Options.MaxSessions,
// MaxSessionsPerOwner). A request without a session id may open one, so
// it first reserves a slot; at a cap it is refused before the SDK sees it,
// with 409 too_many_sessions naming the cap and the setting that raises
// it (see refuse). A session once open is never closed to make room. A
// request naming a session another owner opened is refused with 403
// forbidden_session.
func (m *Server) HTTPHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.enter() {
			http.Error(w, ErrClosed.Error(), http.StatusServiceUnavailable)
			return
		}
		defer m.leave()
		m.serveHTTP(w, r)
	})
}

// sessionIDHeader is the Streamable HTTP transport's session header.
const sessionIDHeader = "Mcp-Session-Id"

// serveHTTP accounts for r in the session table (see HTTPHandler) and
// hands it to the SDK.
func (m *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if m.stateless {
		m.http.ServeHTTP(w, r) // no session to account for
		return
	}
	owner := sessionOwner(r.Context())
	if id := r.Header.Get(sessionIDHeader); id != "" {
		if m.sessions.forbidden(id, owner) {
			writeHTTPError(w, http.StatusForbidden, CodeForbiddenSession, "this MCP session was opened with another credential", nil)
			return
		}
		m.http.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		m.http.ServeHTTP(w, r) // the SDK refuses it: GET and DELETE need a session
		return
	}
	// Any POST without a session may be an initialize (looking would mean
	// reading the body first); one that opens no session gives its slot
	// back.
	a, refused := m.sessions.admit(owner, m.liveSessions)
	if refused != nil {
		m.refuse(w, r, refused)
		return
	}
	a.who, _ = identity.From(r.Context())
	cw := &sessionCapture{ResponseWriter: w, answered: func(id string) {
		if id == "" {
			m.sessions.noSession(a)
			return
		}
		m.sessions.register(a, id, m.findSession(id))
	}}
	// Deferred, so that even a panic in the SDK (which net/http recovers
	// from) gives the slot back.
	defer m.sessions.finish(a)
	m.http.ServeHTTP(cw, r)
}

// rpcCodeRefused is the JSON-RPC error code of a refused initialize (the
// range -32000..-32099 is the server's own).
const rpcCodeRefused = -32000

// refuse answers an initialize past a cap with 409 too_many_sessions:
// which cap (limit, setting, max), and what frees a place (closing a
// session, its idle timeout) or raises the cap (the setting). The status
// is not 429 or 503 on purpose: MCP clients treat those as transient and
// drop the body (the official Go SDK reports only "Service Unavailable"),
// and waiting a moment does not lift a cap.
//
// An MCP client shows the message of a JSON-RPC error and nothing else
// of a body, so a request that carries a JSON-RPC id is answered with a
// JSON-RPC error to that id, whose message starts with the code and whose
// data is the host's error object {code, message, details}; any other
// body gets the host's error shape ({"error": {…}}) itself.
func (m *Server) refuse(w http.ResponseWriter, r *http.Request, c *capRefusal) {
	whose := "this credential (a bearer token or a browser sign-in) already has"
	if c.limit == "maxSessions" {
		whose = "dsh already has"
	}
	msg := fmt.Sprintf("%s %d MCP sessions open, the most %s allows: close one (an MCP client closes its session when it quits), "+
		"wait for sessions idle for %s to end (%s), or raise %s",
		whose, c.max, c.setting, m.idleTimeout, SettingSessionIdleTimeout, c.setting)
	details := map[string]any{"limit": c.limit, "setting": c.setting, "max": c.max,
		"idleTimeoutSec": int(m.idleTimeout.Seconds())}
	m.log.Warn("MCP session refused at a cap", zap.String("owner", sessionOwner(r.Context())), zap.String("limit", c.limit), zap.Int("max", c.max))
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if json.Unmarshal(body, &req) != nil || len(req.ID) == 0 || string(req.ID) == "null" {
		writeHTTPError(w, http.StatusConflict, CodeTooManySessions, msg, details)
		return
	}
	type hostError struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	answer := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int       `json:"code"`
			Message string    `json:"message"`
			Data    hostError `json:"data"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: req.ID}
	answer.Error.Code = rpcCodeRefused
	answer.Error.Message = CodeTooManySessions + ": " + msg
	answer.Error.Data = hostError{Code: CodeTooManySessions, Message: msg, Details: details}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusConflict)
	_ = json.NewEncoder(w).Encode(answer)
}

// CloseSessionsOf closes every HTTP session owner (a principal's
// "kind:id", see WithSessionOwner) opened: its credential was revoked. It
// reports how many it closed.
func (m *Server) CloseSessionsOf(owner string) int {
	victims := m.sessions.ofOwner(owner)
	for _, v := range victims {
		m.log.Info("closing an MCP session: its credential was revoked", zap.String("session", v.id), zap.String("owner", owner))
		if err := v.ss.Close(); err != nil {
			m.log.Debug("closing MCP session", zap.String("session", v.id), zap.Error(err))
		}
	}
	return len(victims)
}

// liveSessions lists the sessions the SDK server holds now (HTTP and stdio).
func (m *Server) liveSessions() []*mcp.ServerSession {
	return slices.Collect(m.server.Sessions())
}

// findSession is the SDK's session with id, or nil.
func (m *Server) findSession(id string) *mcp.ServerSession {
	for ss := range m.server.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}

// sessionCapture passes a response through and, when its header goes
// out, reports the session id it carries with a 2xx status (the SDK's
// answer to an initialize), or "" for any other answer, so the table
// knows before the client does.
type sessionCapture struct {
	http.ResponseWriter
	answered func(id string)
	seen     sync.Once // the SDK may write from more than one goroutine
}

func (c *sessionCapture) capture(status int) {
	c.seen.Do(func() { c.report(status) })
}

func (c *sessionCapture) report(status int) {
	id := c.Header().Get(sessionIDHeader)
	if status < 200 || status > 299 {
		id = ""
	}
	c.answered(id)
}

func (c *sessionCapture) WriteHeader(status int) {
	c.capture(status)
	c.ResponseWriter.WriteHeader(status)
}

func (c *sessionCapture) Write(b []byte) (int, error) {
	c.capture(http.StatusOK)
	return c.ResponseWriter.Write(b)
}

// Flush lets event streams through (the SDK flushes each event).
func (c *sessionCapture) Flush() {
	c.capture(http.StatusOK)
	_ = http.NewResponseController(c.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (c *sessionCapture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// writeHTTPError answers with the host's JSON error shape.
func writeHTTPError(w http.ResponseWriter, status int, code, message string, details map[string]any) {
	_ = apierr.Write(w, status, code, message, details)
}
