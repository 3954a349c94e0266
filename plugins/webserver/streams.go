package webserver

import (
	"context"
	"mime"
	"net/http"
	"strings"
)

// An event stream is a request that stays open to receive events: a GET
// that accepts text/event-stream (the browser's EventSource, the MCP
// client's standalone stream, the editor's live updates). It has no end of
// its own, so a graceful shutdown would wait for it until the timeout.
// The server therefore ends event streams the moment shutdown begins —
// their handlers see a cancelled request context and return — while
// ordinary requests, tool calls included, are drained as before. A client
// of a stream reconnects when it ends, which is what it must do anyway.
//
//	Shutdown ─► end event streams (cancel their contexts)
//	         ─► stop accepting, drain ordinary requests (ShutdownTimeout)
//	         ─► force-close what is left
func isEventStream(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && mt == "text/event-stream" {
				return true
			}
		}
	}
	return false
}

// withStreamEnd gives an event stream's request a context that also ends
// when the server begins shutting down. The returned func releases it.
func (s *Server) withStreamEnd(r *http.Request) (*http.Request, func()) {
	if !isEventStream(r) {
		return r, func() {}
	}
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(s.streamsEnded, cancel)
	return r.WithContext(ctx), func() { stop(); cancel() }
}
