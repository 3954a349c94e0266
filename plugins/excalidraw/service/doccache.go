package service

import (
	"bytes"
	"sync"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// docCache keeps the last few scene documents this service parsed or
// encoded, by their bytes, so a write does not parse again the scene the
// previous write just produced (the next write's stored bytes are the
// previous one's output). An entry is found only by comparing the bytes
// themselves, so it is never the document of other bytes: another
// process's write, a hand edit, a restore from a backup all change the
// bytes and miss. Documents in it are never changed: every lookup returns
// a clone.
type docCache struct {
	mu      sync.Mutex
	entries [4]docEntry
	next    int
}

type docEntry struct {
	data []byte
	doc  *scene.Document
}

// shared returns the cached document of data itself: only to read.
func (c *docCache) shared(data []byte) (*scene.Document, bool) {
	c.mu.Lock()
	var doc *scene.Document
	for _, e := range c.entries {
		if e.doc != nil && len(e.data) == len(data) && bytes.Equal(e.data, data) {
			doc = e.doc
			break
		}
	}
	c.mu.Unlock()
	return doc, doc != nil
}

// put remembers doc as the document of data. The caller gives doc up for
// writing: it may still read it, never change it.
func (c *docCache) put(data []byte, doc *scene.Document) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.entries {
		if e := &c.entries[i]; e.doc != nil && len(e.data) == len(data) && bytes.Equal(e.data, data) {
			e.doc = doc
			return
		}
	}
	c.entries[c.next] = docEntry{data: data, doc: doc}
	c.next = (c.next + 1) % len(c.entries)
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
	if doc, ok := s.docs.shared(data); ok {
		return doc, nil
	}
	doc, err := scene.Parse(data, s.stored)
	if err != nil {
		return nil, err
	}
	s.docs.put(data, doc)
	return doc, nil
}
