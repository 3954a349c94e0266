package statefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// fileDoc is a document kept in one file, private to the user (0600),
// replaced atomically and durably (WriteAtomic) under the file's lock
// (Lock).
type fileDoc struct {
	path string
	what string // "token file", for errors
}

// File is the document kept in the file at path; what names it in errors
// ("token file"). A missing file is a missing document.
func File(path, what string) Doc { return &fileDoc{path: path, what: what} }

func (f *fileDoc) Where() string { return f.path }

// fileVersion is what a file's bytes were read at: its stat (nil when it
// did not exist). "Changed" includes a different inode: WriteAtomic
// replaces by rename, so even a rewrite within the filesystem's mtime
// granularity that keeps the size is noticed.
type fileVersion struct{ fi os.FileInfo }

func (v *fileVersion) same(fi os.FileInfo) bool {
	if v.fi == nil || fi == nil {
		return v.fi == nil && fi == nil
	}
	return os.SameFile(v.fi, fi) && v.fi.ModTime().Equal(fi.ModTime()) && v.fi.Size() == fi.Size()
}

// Fetch stats the file and reads it when it changed since since. The bytes
// and the stat come from one open file, so they always belong together.
func (f *fileDoc) Fetch(_ context.Context, since Version) ([]byte, Version, bool, error) {
	fi, err := os.Stat(f.path)
	if errors.Is(err, os.ErrNotExist) {
		fi, err = nil, nil
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("read %s: %w", f.what, err)
	}
	if v, ok := since.(*fileVersion); ok && v.same(fi) {
		return nil, v, false, nil
	}
	if fi == nil {
		return nil, &fileVersion{}, true, nil
	}
	file, err := os.Open(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &fileVersion{}, true, nil // removed since the stat
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("read %s: %w", f.what, err)
	}
	defer file.Close()
	if fi, err = file.Stat(); err != nil {
		return nil, nil, false, fmt.Errorf("read %s: %w", f.what, err)
	}
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, nil, false, fmt.Errorf("read %s: %w", f.what, err)
	}
	if data == nil {
		data = []byte{} // an empty file exists
	}
	return data, &fileVersion{fi: fi}, true, nil
}

// Update changes the file under its lock (Lock), read afresh.
func (f *fileDoc) Update(_ context.Context, change func(cur []byte) ([]byte, bool, error)) error {
	unlock, err := Lock(f.path)
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := os.ReadFile(f.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		cur = nil
	case err != nil:
		return fmt.Errorf("read %s: %w", f.what, err)
	case cur == nil:
		cur = []byte{}
	}
	next, write, err := change(cur)
	if err != nil || !write {
		return err
	}
	if err := WriteAtomic(f.path, next, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", f.what, err)
	}
	return nil
}

// Files is the Backend of one host's data directory: the document called
// name is the file dir/name.json, and the rate-limit windows are in this
// process's memory.
func Files(dir string) Backend { return &files{dir: dir} }

type files struct {
	dir     string
	once    sync.Once
	windows Windows
}

// Doc is dir/name.json. A name that is not one plain file name (a path
// separator, "." or "..") is a programming error.
func (b *files) Doc(name string) Doc {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		panic(fmt.Sprintf("statefile: document name %q is not a plain name", name))
	}
	return File(filepath.Join(b.dir, name+".json"), name+" file")
}

func (b *files) Windows() Windows {
	b.once.Do(func() { b.windows = NewMemoryWindows() })
	return b.windows
}
