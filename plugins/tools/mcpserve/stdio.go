package mcpserve

import (
	"context"
	"errors"
	"github.com/dshgo/dsh/plugins/identity"
	"io"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP session as newline-delimited JSON-RPC over in
// and out, for hosts launched by an agent as a subprocess.
//
// It returns nil when the client goes away (input ends or output is
// closed) or the server is closed, and ctx.Err() when ctx is done. When
// input ends, every request already read is answered first (see drain),
// so a client that sends a call and closes stdin still gets its result. To
// unblock a pending read on shutdown, in is closed if it implements
// io.Closer (os.Stdin and io.PipeReader do); a reader that cannot be
// closed may keep one SDK goroutine blocked until it returns. out is never
// closed (drainWriter's Close does nothing): the caller owns it.
func (m *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	if !m.enter() {
		return ErrClosed
	}
	defer m.leave()

	runCtx, cancel := m.withBase(ctx)
	defer cancel()
	// Whoever runs dsh over stdio started the process: they act as it.
	if _, ok := identity.From(runCtx); !ok {
		runCtx = identity.With(runCtx, identity.Local)
	}

	d := newDrain(runCtx)
	err := m.server.Run(runCtx, &mcp.IOTransport{
		Reader: &drainReader{d: d, r: readCloser(in)},
		Writer: &drainWriter{d: d, w: out},
	})
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case m.base.Err() != nil:
		return nil // closed by Close
	case err == nil, peerGone(err):
		return nil
	default:
		return err
	}
}

// peerGone reports errors that just mean the client went away: input
// ended, or output was closed while a final message (such as the response
// to a cancelled subscription) was still being written.
func peerGone(err error) bool {
	return errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, mcp.ErrConnectionClosed)
}

// readCloser adapts r to io.ReadCloser, closing r only if it can be.
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}
