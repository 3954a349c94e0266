package exports

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// dirBackend keeps each export as the file <dir>/<id>, its modification
// time the time it was created.
type dirBackend struct{ dir string }

// tmpPrefix starts the names of files being written.
const tmpPrefix = ".tmp-"

// openDir makes the folder (0700) if missing.
func openDir(dir string) (*dirBackend, error) {
	if dir == "" {
		return nil, fmt.Errorf("exports: Config.Dir is required")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	return &dirBackend{dir: dir}, nil
}

// put writes a temporary file, syncs it, dates it at and renames it over
// the id, then syncs the folder.
func (d *dirBackend) put(ctx context.Context, id string, data []byte, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.CreateTemp(d.dir, tmpPrefix+"*")
	if err != nil {
		return fmt.Errorf("exports: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chtimes(tmp, at, at)
	}
	if werr == nil {
		werr = os.Rename(tmp, filepath.Join(d.dir, id))
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("exports: %w", werr)
	}
	if dir, err := os.Open(d.dir); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}

func (d *dirBackend) open(ctx context.Context, id string) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(d.dir, id))
	if err != nil {
		return nil, ErrNoLongerKept
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, ErrNoLongerKept
	}
	return &File{Entry: Entry{ID: id, Format: format(id), Size: st.Size(), Created: st.ModTime()}, r: f, close: f.Close}, nil
}

// sweep removes the exports and temporary files dated before cutoff;
// anything else in the folder is never touched.
func (d *dirBackend) sweep(ctx context.Context, cutoff time.Time) (int, error) {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		name := e.Name()
		if !e.Type().IsRegular() || (!idPattern.MatchString(name) && !strings.HasPrefix(name, tmpPrefix)) {
			continue // not ours: never touched
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(cutoff) {
			continue
		}
		if os.Remove(filepath.Join(d.dir, name)) == nil {
			n++
		}
	}
	return n, nil
}

// list is the folder's exports (regular files named as ids).
func (d *dirBackend) list(ctx context.Context) ([]Entry, error) {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, fmt.Errorf("exports: %w", err)
	}
	var out []Entry
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := e.Name()
		if !e.Type().IsRegular() || !idPattern.MatchString(name) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // swept meanwhile
		}
		out = append(out, Entry{ID: name, Format: format(name), Size: info.Size(), Created: info.ModTime()})
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}
