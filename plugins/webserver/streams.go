package webserver

import (
	"context"
	"mime"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// An event stream is a GET that stays open to receive events (the
// browser's EventSource, the MCP client's standalone stream, the editor's
// live updates, `curl -N`). It has no end of its own, so a graceful
// shutdown would wait for it until the timeout. The server therefore ends
// event streams the moment shutdown begins — their handlers see a
// cancelled request context and return — while ordinary requests, tool
// calls included, are drained as before. A client of a stream reconnects
// when it ends, which is what it must do anyway.
//
// Whether a GET is a stream never depends on the client alone: it is one
// when its route says so (Route.Stream), when its response declares
// itself one (Content-Type text/event-stream, whenever the handler writes
// it), or when the request asks for one (Accept). Any of the three marks
// it; once marked it ends with shutdown, even if shutdown began earlier.
//
//	Shutdown ─► end event streams (cancel their contexts)
//	         ─► stop accepting, drain ordinary requests (ShutdownTimeout)
//	         ─► force-close what is left
func isEventStream(r *http.Request) bool {
	return r.Method == http.MethodGet && acceptsEventStream(r.Header.Values("Accept"))
}

// acceptsEventStream reports whether any of the Accept values names
// text/event-stream.
func acceptsEventStream(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if isEventStreamType(part) {
				return true
			}
		}
	}
	return false
}

func isEventStreamType(v string) bool {
	mt, _, err := mime.ParseMediaType(strings.TrimSpace(v))
	return err == nil && mt == "text/event-stream"
}

// stream is one GET's claim on ending with shutdown. Until mark is
// called it is an ordinary request, drained by shutdown.
type stream struct {
	ended  context.Context // the server's: done when shutdown begins
	cancel context.CancelFunc

	mu   sync.Mutex
	stop func() bool // set by mark; unregisters the AfterFunc
}

type streamKey struct{}

// mark makes the request an event stream: its context ends when shutdown
// begins, or at once if it already has.
func (st *stream) mark() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stop == nil {
		st.stop = context.AfterFunc(st.ended, st.cancel)
	}
}

func (st *stream) release() {
	st.mu.Lock()
	stop := st.stop
	st.mu.Unlock()
	if stop != nil {
		stop()
	}
	st.cancel()
}

// markStream marks r's request as an event stream, if it is a GET the
// server is tracking (see withStreamEnd).
func markStream(r *http.Request) {
	if st, ok := r.Context().Value(streamKey{}).(*stream); ok {
		st.mark()
	}
}

// withStreamEnd lets a GET end with shutdown should it turn out to be an
// event stream: it gets a context of its own, and w watches the response's
// Content-Type. The returned func releases both.
func (s *Server) withStreamEnd(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, func()) {
	if r.Method != http.MethodGet {
		return w, r, func() {}
	}
	ctx, cancel := context.WithCancel(r.Context())
	st := &stream{ended: s.streamsEnded, cancel: cancel}
	if isEventStream(r) {
		st.mark()
	}
	r = r.WithContext(context.WithValue(ctx, streamKey{}, st))
	return &streamWriter{ResponseWriter: w, st: st}, r, st.release
}

// streamRoute marks every GET on a Route.Stream route as an event stream
// before its handler runs, whatever the request asked for.
func streamRoute(rt Route, h echo.HandlerFunc) echo.HandlerFunc {
	if !rt.Stream {
		return h
	}
	return func(c echo.Context) error {
		markStream(c.Request())
		return h(c)
	}
}

// streamWriter marks its request as an event stream when the response
// declares itself one.
type streamWriter struct {
	http.ResponseWriter
	st      *stream
	checked bool // the header is written: its Content-Type was looked at
}

// check looks at the Content-Type once, as the header goes out.
func (w *streamWriter) check() {
	if w.checked {
		return
	}
	w.checked = true
	if isEventStreamType(w.Header().Get("Content-Type")) {
		w.st.mark()
	}
}

func (w *streamWriter) WriteHeader(code int) {
	if code >= 200 {
		w.check()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *streamWriter) Write(b []byte) (int, error) {
	w.check()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer
// (Flush, Hijack, deadlines).
func (w *streamWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush is what a handler that asserts http.Flusher finds.
func (w *streamWriter) Flush() {
	w.check()
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

var _ http.Flusher = (*streamWriter)(nil)
