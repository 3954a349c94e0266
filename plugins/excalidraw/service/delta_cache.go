package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Every open editor of a board asks for the delta of the same commit at
// the same moment (each stream wakes on it), and on a large board most of
// a delta's cost is proving which bytes are the head's: reading the file
// and hashing it. deltaCache makes that once per commit, not once per
// viewer:
//
//   - a board's recent deltas, by the revision they start from and the
//     head they end at (its revision, hash and commit time), are shared:
//     the first stream computes one, the others that ask meanwhile wait
//     for it, and later ones take it as it is (with its encoded event);
//   - the head's bytes are the store's own (store.Store.HeldScene: those
//     of its last commit, while it can prove the file still has them), so
//     a delta after this process's own commit reads and hashes no file;
//     else the file is read (per viewer, as before; the delta is still
//     computed once). A store without HeldScene (the database's) tells
//     the head by its record (Head, cheap), and its bytes are found by
//     their hash among the document cache's of that length (a write of
//     this process left them there) or the ones proven before, else read.
//
// Each caller's access is checked (as a read is) before anything is
// shared; a computation that fails (the first caller's context ended, an
// I/O error) is not shared: the callers waiting for it compute their own.
// A kept delta holds copies of its elements, not the head they were cut
// from.
type deltaCache struct {
	mu     sync.Mutex
	boards map[string]*boardDeltas
	held   int64 // bytes the boards keep: heads, and deltas (see size)
	tick   uint64
}

// The bounds of deltaCache: the boards kept (the least recently asked go
// first), the bytes kept over all of them, and the deltas kept per board
// (streams a commit or two behind the others included).
const (
	deltaBoards    = 64
	deltaHeldBytes = 128 << 20
	deltasPerBoard = 4
)

// boardDeltas is what deltaCache keeps of one board.
type boardDeltas struct {
	used   uint64
	head   deltaHead
	recent []*deltaCall // oldest first
}

// deltaHead is a head whose bytes were proven by their hash.
type deltaHead struct {
	sha  string
	data []byte
}

// deltaKey names a delta: the revision it starts from and the head it
// ends at.
type deltaKey struct {
	from, rev int64
	sha       string
	at        time.Time
}

func keyOf(from int64, m store.Meta) deltaKey {
	return deltaKey{from: from, rev: m.Revision, sha: m.SHA256, at: m.UpdatedAt}
}

// deltaCall is one computation of a delta: d is set (nil when it failed)
// before done is closed; size is what it counts in held while kept.
type deltaCall struct {
	key  deltaKey
	done chan struct{}
	d    *Delta
	size int64
}

// board is the entry of name, made if missing (c.mu is held).
func (c *deltaCache) board(name string) *boardDeltas {
	if c.boards == nil {
		c.boards = map[string]*boardDeltas{}
	}
	c.tick++
	b := c.boards[name]
	if b == nil {
		if len(c.boards) >= deltaBoards {
			c.dropOldest(func(*boardDeltas) bool { return true })
		}
		b = &boardDeltas{}
		c.boards[name] = b
	}
	b.used = c.tick
	return b
}

// dropOldest forgets the least recently used board that ok accepts;
// false when there is none (c.mu is held).
func (c *deltaCache) dropOldest(ok func(*boardDeltas) bool) bool {
	var oldest string
	var found *boardDeltas
	for name, b := range c.boards {
		if ok(b) && (found == nil || b.used < found.used) {
			oldest, found = name, b
		}
	}
	if found == nil {
		return false
	}
	c.held -= int64(len(found.head.data))
	for _, x := range found.recent {
		c.held -= x.size
	}
	delete(c.boards, oldest)
	return true
}

// fit drops the least recently used boards other than keep while the
// bytes kept are over the bound (c.mu is held).
func (c *deltaCache) fit(keep *boardDeltas) {
	for c.held > deltaHeldBytes && c.dropOldest(func(x *boardDeltas) bool { return x != keep }) {
	}
}

// join returns the call of key on name: a running or finished one to
// wait for (mine false), or a new one the caller must compute and end
// (mine true).
func (c *deltaCache) join(name string, key deltaKey) (call *deltaCall, mine bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.board(name)
	for _, x := range b.recent {
		if x.key == key {
			return x, false
		}
	}
	call = &deltaCall{key: key, done: make(chan struct{})}
	b.recent = append(b.recent, call)
	if len(b.recent) > deltasPerBoard {
		c.held -= b.recent[0].size
		b.recent = b.recent[1:]
	}
	return call, true
}

// end finishes call with d (nil: it failed, and is forgotten so the next
// caller computes again; so are a delta that reached a newer head than
// its key and one too large to keep, which the waiters still take).
func (c *deltaCache) end(name string, call *deltaCall, d *Delta) {
	c.mu.Lock()
	defer c.mu.Unlock()
	call.d = d
	close(call.done)
	b := c.boards[name]
	if b == nil {
		return
	}
	i := slices.Index(b.recent, call)
	if i < 0 {
		return // pushed out meanwhile
	}
	if d == nil || d.Revision != call.key.rev || d.SHA256 != call.key.sha || d.size() > deltaHeldBytes/8 {
		b.recent = slices.Delete(b.recent, i, i+1)
		return
	}
	call.size = d.size()
	c.held += call.size
	c.fit(b)
}

// size is about what a kept delta holds: its members, and its encoding
// once sent.
func (d *Delta) size() int64 {
	n := len(d.AppState) + 512
	for _, el := range d.Elements {
		n += len(el)
	}
	for _, f := range d.Files {
		n += len(f)
	}
	return 2 * int64(n)
}

// detach makes d hold copies of the bytes it has from the head's, so
// that keeping it does not keep the whole head.
func (d *Delta) detach() {
	for i, el := range d.Elements {
		d.Elements[i] = bytes.Clone(el)
	}
	d.AppState = bytes.Clone(d.AppState)
}

// headData is the kept bytes of name whose hash is sha, if any.
func (c *deltaCache) headData(name, sha string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.boards[name]; b != nil && b.head.sha == sha {
		return b.head.data
	}
	return nil
}

// keepHead remembers data (whose hash is sha) as name's head, within the
// bound on the bytes kept.
func (c *deltaCache) keepHead(name, sha string, data []byte) {
	if int64(len(data)) > deltaHeldBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.board(name)
	c.held += int64(len(data)) - int64(len(b.head.data))
	b.head = deltaHead{sha: sha, data: data}
	c.fit(b)
}

// sized is the document cache's bytes of length n, newest first.
func (c *docCache) sized(n int64) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out [][]byte
	for i := len(c.entries) - 1; i >= 0; i-- {
		if e := c.entries[i]; int64(len(e.data)) == n {
			out = append(out, e.data)
		}
	}
	return out
}

// holder is a store that can answer a read from the bytes of its own
// last commit (store.Store.HeldScene).
type holder interface {
	HeldScene(ctx context.Context, name string) (*store.Scene, bool)
}

// deltaHead is name's head for a delta, checked for the caller's access
// as Read is: its record, and its bytes unless the store tells the record
// alone (nil: headBytes finds them).
func (s *Service) deltaHead(ctx context.Context, name string) (store.Meta, []byte, error) {
	h, holds := s.store.st.(holder)
	if !holds {
		m, err := s.store.Head(ctx, name)
		return m, nil, mapError(err)
	}
	if err := s.store.check(ctx, name, access.Read); err != nil {
		return store.Meta{}, nil, mapError(err)
	}
	if sc, ok := h.HeldScene(ctx, name); ok {
		return sc.Meta, sc.Data, nil
	}
	sc, err := s.store.Read(ctx, name)
	if err != nil {
		return store.Meta{}, nil, mapError(err)
	}
	return sc.Meta, sc.Data, nil
}

// headBytes is the content of name's head m (read by the caller): bytes
// this process holds whose hash is m's, else the file as Read gives it,
// which may be of a newer head (then its record is returned too).
func (s *Service) headBytes(ctx context.Context, name string, m store.Meta) (store.Meta, []byte, error) {
	if data := s.deltas.headData(name, m.SHA256); data != nil {
		return m, data, nil
	}
	for _, data := range s.docs.sized(m.ByteLength) {
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) == m.SHA256 {
			s.deltas.keepHead(name, m.SHA256, data)
			return m, data, nil
		}
	}
	sc, err := s.store.Read(ctx, name)
	if err != nil {
		return store.Meta{}, nil, mapError(err)
	}
	s.deltas.keepHead(name, sc.SHA256, sc.Data) // Read's hash is of its bytes
	return sc.Meta, sc.Data, nil
}

// deltaEvent is a delta's JSON, encoded once however many streams send
// it.
type deltaEvent struct {
	once sync.Once
	data []byte
	err  error
}

// JSON is the delta encoded, as an event stream sends it; a shared delta
// is encoded once. The delta must not be changed after.
func (d *Delta) JSON() ([]byte, error) {
	if d.event == nil {
		return json.Marshal(d)
	}
	d.event.once.Do(func() { d.event.data, d.event.err = json.Marshal(d) })
	return d.event.data, d.event.err
}
