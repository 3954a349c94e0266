package pgstore

import (
	"sync"
)

// DefaultCacheBytes bounds the documents a Store keeps in memory
// (Options.CacheBytes).
const DefaultCacheBytes = 64 << 20

// heads is a Store's copy of the bytes of the scenes' revisions it last
// committed or read, by name: a commit diffs against them, and a read
// whose revision and SHA-256 the row still has sends no bytes. An entry
// is only ever used after the database says the scene is at its
// revision with its hash, so a stale one (another node committed since)
// costs a fetch, never a wrong answer. Bytes in it are never changed.
type heads struct {
	mu    sync.Mutex
	m     map[string]cachedHead
	bytes int64
	max   int64
}

// cachedHead is one revision's bytes, and their SHA-256.
type cachedHead struct {
	rev  int64
	sha  string
	data []byte
}

func newHeads(max int64) *heads { return &heads{m: map[string]cachedHead{}, max: max} }

// get is name's entry (ok false: none).
func (h *heads) get(name string) (cachedHead, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.m[name]
	return c, ok
}

// put keeps data as name's revision rev (data is the cache's now: never
// changed after), evicting others while over the bound; a document
// larger than the bound is not kept.
func (h *heads) put(name string, rev int64, sha string, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if old, ok := h.m[name]; ok {
		if old.rev > rev {
			return // a newer one is there (a concurrent read of an older head)
		}
		h.bytes -= int64(len(old.data))
		delete(h.m, name)
	}
	if int64(len(data)) > h.max {
		return
	}
	for other, c := range h.m {
		if h.bytes+int64(len(data)) <= h.max {
			break
		}
		h.bytes -= int64(len(c.data))
		delete(h.m, other)
	}
	h.m[name] = cachedHead{rev: rev, sha: sha, data: data}
	h.bytes += int64(len(data))
}

// drop forgets name's entry.
func (h *heads) drop(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if old, ok := h.m[name]; ok {
		h.bytes -= int64(len(old.data))
		delete(h.m, name)
	}
}
