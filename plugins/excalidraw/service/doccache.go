package service

import (
	"bytes"
	"slices"
	"sync"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// docCache remembers the last few scene documents this service and its
// store handled, by their bytes: what each is known to be. A write's
// stored bytes are usually the previous write's output, so
//
//   - the write starts from a clone of that document instead of parsing
//     the file (doc);
//   - the store's two inspections of bytes the service just encoded and
//     validated answer from here instead of parsing them twice more
//     (vouched, count);
//   - the journal's Diff splits only the bytes it writes (sp).
//
// An entry is found only by comparing the bytes themselves, so it never
// answers for other bytes: another process's write, a hand edit, a
// restore from a backup change the bytes and miss. Documents in it are
// never changed.
type docCache struct {
	mu      sync.Mutex
	entries []*docEntry // oldest first
	bytes   int64       // the data the entries hold
	// maxEntries and maxBytes bound it (0: the defaults); one entry per
	// scene being written is what keeps writes cheap, so it holds many
	// small scenes or a few large ones.
	maxEntries int
	maxBytes   int64
}

// The defaults of docCache's bounds.
const (
	cacheEntries = 64
	cacheBytes   = 256 << 20
)

// docEntry is what is known of one document's bytes; each part is filled
// when first learnt. data never changes; the rest is read and written
// under the cache's lock.
type docEntry struct {
	data    []byte
	doc     *scene.Document // parsed or encoded from data; read only
	sp      *scene.Split
	count   int
	vouched bool // data is a valid scene of count elements (finish made it)
}

// with runs fn on the entry of data, adding one if there is none.
func (c *docCache) with(data []byte, fn func(e *docEntry)) {
	e := c.find(data)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e == nil {
		e = &docEntry{data: data}
		c.entries = append(c.entries, e)
		c.bytes += int64(len(data))
		c.evict()
	}
	fn(e)
}

// evict drops the oldest entries past the bounds (c.mu is held), always
// keeping the newest.
func (c *docCache) evict() {
	maxN, maxB := c.maxEntries, c.maxBytes
	if maxN <= 0 {
		maxN = cacheEntries
	}
	if maxB <= 0 {
		maxB = cacheBytes
	}
	for len(c.entries) > 1 && (len(c.entries) > maxN || c.bytes > maxB) {
		c.bytes -= int64(len(c.entries[0].data))
		c.entries[0] = nil
		c.entries = c.entries[1:]
	}
}

// lookup returns a copy of the entry of data, if any.
func (c *docCache) lookup(data []byte) (docEntry, bool) {
	e := c.find(data)
	if e == nil {
		return docEntry{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return *e, true
}

// find returns the entry holding exactly data. The candidates (entries
// of the same length) are picked under the lock and compared outside it,
// newest first, since their data never changes.
func (c *docCache) find(data []byte) *docEntry {
	c.mu.Lock()
	var cands []*docEntry
	for i := len(c.entries) - 1; i >= 0; i-- {
		if e := c.entries[i]; len(e.data) == len(data) {
			if sameSlice(e.data, data) {
				c.mu.Unlock()
				return e
			}
			cands = append(cands, e)
		}
	}
	c.mu.Unlock()
	for _, e := range cands {
		if bytes.Equal(e.data, data) {
			return e
		}
	}
	return nil
}

// split is scene.SplitDocument of data, remembered.
func (c *docCache) split(data []byte) (*scene.Split, error) {
	if e, ok := c.lookup(data); ok && e.sp != nil {
		return e.sp, nil
	}
	sp, err := scene.SplitDocument(data)
	if err != nil {
		return nil, err
	}
	c.with(data, func(e *docEntry) { e.sp = sp })
	return sp, nil
}

// counted is the element count of vouched bytes.
func (c *docCache) counted(data []byte) (int, bool) {
	e, ok := c.lookup(data)
	return e.count, ok && e.vouched
}

// finished records what finish made: data is a valid scene of doc's
// element count, doc (sealed) its document and sp its split.
//
// A write forks the document of the previous one: the grandparent of
// doc (its base's base) is dropped, since the file moved on from it
// twice, so that a line of writes keeps two generations, not the cache's
// whole capacity of one scene.
func (c *docCache) finished(data []byte, doc *scene.Document, sp *scene.Split) {
	c.with(data, func(e *docEntry) {
		e.count, e.vouched, e.doc = doc.ElementCount(), true, doc
		if sp != nil {
			e.sp = sp
		}
	})
	_, parent := doc.Lineage()
	if parent == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var grand uint64
	for _, e := range c.entries {
		if g, p := e.doc.Lineage(); e.doc != nil && g == parent {
			grand = p
			break
		}
	}
	if grand == 0 {
		return
	}
	c.entries = slices.DeleteFunc(c.entries, func(e *docEntry) bool {
		if g, _ := e.doc.Lineage(); e.doc != nil && g == grand {
			c.bytes -= int64(len(e.data))
			return true
		}
		return false
	})
}

// putDoc remembers doc as the document of data. The caller gives doc up
// for writing: it may still read it, never change it.
func (c *docCache) putDoc(data []byte, doc *scene.Document) {
	c.with(data, func(e *docEntry) { e.doc = doc })
}

// parseStored parses a stored scene under the reading limits, from the
// cache when it holds those bytes. The document is the caller's to edit.
func (s *Service) parseStored(data []byte) (*scene.Document, error) {
	doc, err := s.viewStored(data)
	if err != nil {
		return nil, err
	}
	return doc.Clone(), nil
}

// viewStored is parseStored for a caller that only reads the document
// (it may be the cached one itself).
func (s *Service) viewStored(data []byte) (*scene.Document, error) {
	if e, ok := s.docs.lookup(data); ok && e.doc != nil {
		return e.doc, nil
	}
	doc, err := scene.Parse(data, s.stored)
	if err != nil {
		return nil, err
	}
	s.docs.putDoc(data, doc)
	return doc, nil
}

// sameSlice reports whether a and b are one slice (the store hands back
// the bytes it was given): equal without reading them.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}
