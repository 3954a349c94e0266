package exports

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// dirBackend keeps each export as the file <dir>/<id>, its modification
// time the time it was created.
//
// It follows the scene store's rule (store.FS): the folder is opened
// with O_NOFOLLOW|O_DIRECTORY for each operation, and every file in it
// is opened, created, dated, renamed, listed and removed relative to
// that handle without following a symlink. A symlinked exports folder is
// refused (at Open, and at every later operation if one is swapped in),
// so nothing is ever written outside it; a symlink (or anything but a
// regular file) where an export should be is never served.
type dirBackend struct {
	dir string
	fs  store.FS
}

// tmpPrefix starts the names of files being written.
const tmpPrefix = ".tmp-"

// openDir makes the folder (0700, and its parent) if missing, refusing
// one that is a symlink.
func openDir(dir string, fsys store.FS) (*dirBackend, error) {
	if dir == "" {
		return nil, fmt.Errorf("exports: Config.Dir is required")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	if fsys == nil {
		fsys = store.OSFS()
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	d := &dirBackend{dir: abs, fs: fsys}
	if err := fsys.Mkdir(nil, abs, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("exports: %w", err)
	}
	root, err := d.root()
	if err != nil {
		return nil, err
	}
	root.Close()
	return d, nil
}

// refusedDir is the refusal of an exports folder that is a symlink
// (or not a directory).
func (d *dirBackend) refusedDir() error {
	return &sceneerr.Error{Code: sceneerr.PermissionDenied, Message: "the exports folder is a symlink or not a directory; refused",
		Err: fmt.Errorf("exports: %s is a symlink or not a directory", d.dir)}
}

// root opens the folder without following a symlink.
func (d *dirBackend) root() (*os.File, error) {
	st, err := d.fs.Lstat(nil, d.dir)
	if err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
		return nil, d.refusedDir()
	}
	root, err := d.fs.OpenDir(nil, d.dir)
	if err != nil {
		if noFollowRefused(err) {
			return nil, d.refusedDir()
		}
		return nil, fmt.Errorf("exports: %w", err)
	}
	return root, nil
}

// noFollowRefused reports an open that O_NOFOLLOW or O_DIRECTORY refused.
func noFollowRefused(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) || errors.Is(err, syscall.ENOTDIR)
}

// put writes a new temporary file, syncs it, dates it at and renames it
// over the id, then syncs the folder.
func (d *dirBackend) put(ctx context.Context, id string, data []byte, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := d.root()
	if err != nil {
		return err
	}
	defer root.Close()
	f, tmp, err := d.createTemp(root)
	if err != nil {
		return err
	}
	_, werr := d.fs.Write(f, data)
	if werr == nil {
		werr = d.fs.Sync(f)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = store.SetModTime(root, tmp, at)
	}
	if werr == nil {
		// A rename never follows a symlink at id: it replaces the link.
		werr = d.fs.Rename(root, tmp, id, false)
	}
	if werr != nil {
		_ = d.fs.Remove(root, tmp)
		return fmt.Errorf("exports: %w", werr)
	}
	_ = d.fs.Sync(root)
	return nil
}

// createTemp creates a new private temporary file in root.
func (d *dirBackend) createTemp(root *os.File) (*os.File, string, error) {
	for range 10 {
		var b [12]byte
		_, _ = rand.Read(b[:])
		name := tmpPrefix + hex.EncodeToString(b[:])
		f, err := d.fs.OpenFile(root, name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("exports: %w", err)
		}
		return f, name, nil
	}
	return nil, "", errors.New("exports: create temporary file: names exhausted")
}

// open opens the export id: ErrNoLongerKept when there is none, and a
// refusal (permission_denied) for a symlink or anything but a regular
// file there.
func (d *dirBackend) open(ctx context.Context, id string) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, err := d.root()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// Non-blocking, so that a FIFO planted there cannot hang the open.
	f, err := d.fs.OpenFile(root, id, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrNoLongerKept
	case noFollowRefused(err):
		return nil, refusedFile(id)
	case err != nil:
		return nil, fmt.Errorf("exports: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("exports: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, refusedFile(id)
	}
	return &File{Entry: Entry{ID: id, Format: format(id), Size: st.Size(), Created: st.ModTime()}, r: f, close: f.Close}, nil
}

// refusedFile is the refusal to serve what is at id: not a file dsh
// wrote.
func refusedFile(id string) error {
	return sceneerr.New(sceneerr.PermissionDenied, "the export %s is not a regular file in the exports folder; refused", id)
}

// entries are the folder's regular files (by lstat: a symlink is not
// one), with what the filter keeps.
func (d *dirBackend) entries(ctx context.Context, root *os.File, keep func(name string) bool) ([]fs.FileInfo, error) {
	names, err := d.fs.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	slices.Sort(names)
	var out []fs.FileInfo
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !keep(name) {
			continue
		}
		st, err := d.fs.Lstat(root, name)
		if err != nil || !st.Mode().IsRegular() {
			continue // gone meanwhile, or not ours: never touched
		}
		out = append(out, st)
	}
	return out, nil
}

// sweep removes the exports and temporary files dated before cutoff;
// anything else in the folder is never touched.
func (d *dirBackend) sweep(ctx context.Context, cutoff time.Time) (int, error) {
	root, err := d.root()
	if err != nil {
		return 0, err
	}
	defer root.Close()
	list, err := d.entries(ctx, root, func(name string) bool {
		return idPattern.MatchString(name) || strings.HasPrefix(name, tmpPrefix)
	})
	n := 0
	for _, st := range list {
		if st.ModTime().Before(cutoff) && d.fs.Remove(root, st.Name()) == nil {
			n++
		}
	}
	return n, err
}

// list is the folder's exports (regular files named as ids).
func (d *dirBackend) list(ctx context.Context) ([]Entry, error) {
	root, err := d.root()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	list, err := d.entries(ctx, root, idPattern.MatchString)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(list))
	for _, st := range list {
		out = append(out, Entry{ID: st.Name(), Format: format(st.Name()), Size: st.Size(), Created: st.ModTime()})
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}
