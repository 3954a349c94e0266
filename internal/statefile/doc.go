package statefile

import (
	"context"
	"encoding/json"
	"fmt"
)

// Doc is one named state document: the bytes of a small JSON document
// (the token file, the sessions, the people), read whole and changed by a
// read-modify-write under the document's lock. A file (File) is one kind;
// a row of PostgreSQL (package pgstate) is another, shared by every node
// on the database. Implementations are safe for concurrent use.
type Doc interface {
	// Where names the document in messages and logs: a file's path, or
	// the database and the document's name.
	Where() string
	// Fetch returns the document's bytes (nil when it does not exist)
	// and their version. When since is the version of the bytes still
	// current, it returns changed=false and no bytes, for the price of
	// a cheap check (a stat, a one-row query); a nil since always
	// fetches.
	Fetch(ctx context.Context, since Version) (data []byte, v Version, changed bool, err error)
	// Update runs change on the document's current bytes (nil: it does
	// not exist), read afresh with the document locked against every
	// other writer (goroutines, processes, nodes), and stores what
	// change returns when write is true, before the lock is let go. An
	// error from change, or write false, stores nothing.
	Update(ctx context.Context, change func(cur []byte) (next []byte, write bool, err error)) error
}

// Version marks one state of a document's bytes. It is opaque: only the
// Doc that returned it reads it, when it is handed back to Fetch.
type Version any

// Backend is where a host keeps its small shared state: named documents
// and the sliding windows of its rate limits. Files (a directory) is one,
// kept by one host; package pgstate's is another, shared by every node on
// one PostgreSQL database.
type Backend interface {
	// Doc is the document called name ("tokens", "sessions", "accounts",
	// "boards", "oauth-clients", ...): a logical name, the same on every
	// node.
	Doc(name string) Doc
	// Windows are the backend's rate-limit windows, one set per backend.
	Windows() Windows
}

// ReadDoc reads and parses d; a missing document is the zero value (an
// empty store), not an error, and is not parsed. parse is given d.Where()
// for its messages; ctx bounds the read.
func ReadDoc[T any](ctx context.Context, d Doc, parse func(where string, data []byte) (T, error)) (T, error) {
	data, _, _, err := d.Fetch(ctx, nil)
	if err != nil || data == nil {
		var zero T
		return zero, err
	}
	return parse(d.Where(), data)
}

// UpdateDoc runs change on d's parsed contents under d's lock and writes
// what it returns (write=false: nothing to write) as indented JSON. The
// contents are read afresh, not from a View, so an update never undoes
// another writer's. change runs once. ctx bounds the read and the write.
func UpdateDoc[T any](ctx context.Context, d Doc, parse func(where string, data []byte) (T, error), change func(T) (T, bool, error)) error {
	return d.Update(ctx, func(cur []byte) ([]byte, bool, error) {
		var v T
		if cur != nil {
			var err error
			if v, err = parse(d.Where(), cur); err != nil {
				return nil, false, err
			}
		}
		next, write, err := change(v)
		if err != nil || !write {
			return nil, false, err
		}
		data, err := json.MarshalIndent(next, "", "  ")
		if err != nil {
			return nil, false, fmt.Errorf("encode %s: %w", d.Where(), err)
		}
		return append(data, '\n'), true, nil
	})
}

// Import copies src's bytes into dst if dst does not exist yet and src
// does (a host moving its files into a shared backend: each node may run
// it at start, the first one copies), and reports whether it copied.
func Import(ctx context.Context, dst, src Doc) (bool, error) {
	copied := false
	err := dst.Update(ctx, func(cur []byte) ([]byte, bool, error) {
		if cur != nil {
			return nil, false, nil
		}
		data, _, _, err := src.Fetch(ctx, nil)
		if err != nil || data == nil {
			return nil, false, err
		}
		copied = true
		return data, true, nil
	})
	return copied && err == nil, err
}
