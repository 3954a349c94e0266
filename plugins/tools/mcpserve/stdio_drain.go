package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// stdioDrainTimeout bounds how long the end of input waits for requests
// still being answered.
const stdioDrainTimeout = 60 * time.Second

// drain lets a stdio session answer every request it has read before the
// end of input ends it. Without it, a client that writes a tools/call and
// closes stdin (a script, or an agent shutting down) would make the SDK
// close the session at once: the call may still commit, but its answer
// is never written, and the client cannot know what happened.
//
// It watches both directions line by line (the transport is
// newline-delimited JSON-RPC): a request read from the client (an "id"
// and a "method") is pending until a response with that id is written.
// The reader returns EOF only once nothing is pending, ctx is done, or
// stdioDrainTimeout has passed since input ended.
//
//	client ─► in ─► drainReader (request ids) ─► SDK ─► drainWriter (response ids) ─► out
type drain struct {
	ctx     context.Context
	mu      sync.Mutex
	pending map[string]struct{}
	idle    chan struct{} // closed (and replaced) whenever pending empties
	gone    chan struct{} // closed when writing to the client fails
	goneOne sync.Once
}

func newDrain(ctx context.Context) *drain {
	return &drain{ctx: ctx, pending: map[string]struct{}{}, idle: make(chan struct{}), gone: make(chan struct{})}
}

// jsonrpcEnvelope is what drain reads of each message.
type jsonrpcEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// messages decodes one line: a message or (older protocol versions) a
// batch of them. Lines that are not JSON-RPC are ignored; the SDK reports
// them to the client.
func messages(line []byte) []jsonrpcEnvelope {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if line[0] == '[' {
		var batch []jsonrpcEnvelope
		if json.Unmarshal(line, &batch) != nil {
			return nil
		}
		return batch
	}
	var m jsonrpcEnvelope
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return []jsonrpcEnvelope{m}
}

func (d *drain) readLine(line []byte) {
	for _, m := range messages(line) {
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			d.mu.Lock()
			d.pending[string(m.ID)] = struct{}{}
			d.mu.Unlock()
		}
	}
}

func (d *drain) wroteLine(line []byte) {
	for _, m := range messages(line) {
		if m.Method != "" || len(m.ID) == 0 {
			continue // a notification or a request of the server's own
		}
		d.mu.Lock()
		if _, ok := d.pending[string(m.ID)]; ok {
			delete(d.pending, string(m.ID))
			if len(d.pending) == 0 {
				close(d.idle)
				d.idle = make(chan struct{})
			}
		}
		d.mu.Unlock()
	}
}

// wait blocks until nothing is pending, the client cannot be written to,
// ctx is done, or the timeout.
func (d *drain) wait() {
	timer := time.NewTimer(stdioDrainTimeout)
	defer timer.Stop()
	for {
		d.mu.Lock()
		n, idle := len(d.pending), d.idle
		d.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-idle:
		case <-d.gone:
			return
		case <-d.ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

// drainReader passes the client's bytes through, noting requests, and
// holds back the end of input until they are answered.
type drainReader struct {
	d   *drain
	r   io.ReadCloser
	buf []byte // the unfinished last line
}

func (r *drainReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.buf = append(r.buf, p[:n]...)
		for {
			i := bytes.IndexByte(r.buf, '\n')
			if i < 0 {
				break
			}
			r.d.readLine(r.buf[:i])
			r.buf = r.buf[i+1:]
		}
	}
	if err == io.EOF {
		if len(r.buf) > 0 {
			r.d.readLine(r.buf)
			r.buf = nil
		}
		if n > 0 {
			// Deliver the last bytes first; EOF comes with the next Read.
			return n, nil
		}
		r.d.wait()
	}
	return n, err
}

func (r *drainReader) Close() error { return r.r.Close() }

// drainWriter passes the server's bytes through, noting responses. The
// transport writes whole lines, but a line split across writes is handled.
type drainWriter struct {
	d   *drain
	w   io.Writer
	buf []byte
}

func (w *drainWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		// Nobody can be answered any more: stop holding input's end.
		w.d.goneOne.Do(func() { close(w.d.gone) })
	}
	// Only what reached the client counts as answered.
	w.buf = append(w.buf, p[:n]...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.d.wroteLine(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	return n, err
}

func (w *drainWriter) Close() error { return nil }
