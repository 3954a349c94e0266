package apierr

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

// DetailRequestID is the error detail that names the request an error
// answered (the X-Request-ID its access line shows), so an operator can
// find the request's log line, trace and journal entry from what a
// client reports.
const DetailRequestID = "request_id"

// HeaderRequestID is the header a request's id travels in: the web
// server answers it on every response and sets it on the request, so a
// handler behind it (the MCP transport) reads it there too.
const HeaderRequestID = "X-Request-ID"

// requestIDKey carries a request's id in its context.
type requestIDKey struct{}

// WithRequestID returns ctx carrying id as its request's id.
func WithRequestID(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the id of the request ctx serves, "" when none.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// NewRequestID is a new request id, for a request no web server named
// (a tool call over stdio): 32 hex digits, as long as the web server's.
func NewRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}
