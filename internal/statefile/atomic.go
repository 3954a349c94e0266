// Package statefile keeps dsh's small state (tokens, sessions, people,
// boards, OAuth clients) as named documents (Doc), each read whole, read
// through a cached View that notices other writers' changes, and changed
// by a read-modify-write under the document's lock, so no writer loses
// another's change. The rate limits' sliding windows (Windows) are the
// other half of that state.
//
// This package has the file backend, one host's: a document is a file,
// private to the user, replaced atomically and durably, locked with an
// flock against other processes (File, Files); the windows are in memory
// (NewMemoryWindows). Package pgstate keeps the same in PostgreSQL, shared
// by every node on one database, and package statefiletest is the
// conformance suite both pass.
package statefile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteAtomic replaces path with data so that a concurrent reader (the
// running server, another dsh command) sees either the old or the new file,
// never a torn one, and so that the new contents survive a crash once this
// returns: write a temp file in the same directory, fsync it, rename it over
// path, fsync the dir. A missing directory is created private (0700).
//
// It is the one way dsh replaces its private state files: the token file,
// the sessions and people files, board metadata, and the runtime file `dsh
// serve` leaves for the CLI.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	_, err := WriteAtomicFrom(path, bytes.NewReader(data), perm)
	return err
}

// WriteAtomicFrom is WriteAtomic of what r reads, streamed (a large
// export): it returns how many bytes it wrote. A failure, r's included,
// leaves path as it was and no temp file.
func WriteAtomicFrom(path string, r io.Reader, perm os.FileMode) (n int64, err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+TempMark+"*")
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		_ = tmp.Close()
		return 0, err
	}
	if n, err = io.Copy(tmp, r); err != nil {
		_ = tmp.Close()
		return 0, err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, err
	}
	return n, syncDir(dir)
}

// TempMark is in the name of the temp file WriteAtomic writes beside
// path (".NAME.tmp-RANDOM"): one a killed writer left is found by it.
const TempMark = ".tmp-"

// syncDir makes the rename durable. Some platforms cannot fsync a
// directory; that is not worth failing the write for.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// WriteJSON writes v as indented JSON to path, private to the user (0600)
// and atomically. what names the file in errors ("token file").
func WriteJSON(path, what string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := WriteAtomic(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}

// Read reads and parses a state file; a missing file is the zero value (an
// empty store), not an error. It is ReadDoc of File(path, what).
func Read[T any](ctx context.Context, path, what string, parse func(path string, data []byte) (T, error)) (T, error) {
	return ReadDoc(ctx, File(path, what), parse)
}
