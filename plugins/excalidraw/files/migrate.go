package files

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Copy copies the file at p from src to dst verbatim: its bytes, content
// type and modification time (PostgreSQL keeps times to the
// microsecond). It does nothing and reports false when dst already holds
// the same bytes with the same content type, so a copy run again changes
// nothing; a different file at p in dst is replaced.
func Copy(ctx context.Context, dst, src Backend, p Path) (copied bool, err error) {
	f, err := src.Get(ctx, p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	return dst.Restore(ctx, f.Info, f)
}

// CopyAll copies every file of src to dst (Copy, in src's List order)
// and counts those copied and those dst already held. It stops at the
// first failure; running it again after one is safe.
func CopyAll(ctx context.Context, dst, src Backend) (copied, unchanged int, err error) {
	for info, err := range src.List(ctx) {
		if err != nil {
			return copied, unchanged, err
		}
		p, err := ParsePath(info.Path)
		if err != nil {
			return copied, unchanged, fmt.Errorf("files: listed path %q: %w", info.Path, err)
		}
		c, err := Copy(ctx, dst, src, p)
		if err != nil {
			return copied, unchanged, fmt.Errorf("files: copy %s: %w", p, err)
		}
		if c {
			copied++
		} else {
			unchanged++
		}
	}
	return copied, unchanged, nil
}

// Restore stores body as the file at info.Path with info's content type
// and modification time (see Backend.Restore), through the same write as
// Put.
func (s *Store) Restore(ctx context.Context, info Info, body io.Reader) (bool, error) {
	p, err := ParsePath(info.Path)
	if err != nil {
		return false, err
	}
	if same, err := holds(ctx, s, p, info); err != nil || same {
		return false, err
	}
	_, _, err = s.put(ctx, p, info.ContentType, info.Size, body, &info)
	return err == nil, err
}

// holds reports whether b already has info's file at p.
func holds(ctx context.Context, b Backend, p Path, info Info) (bool, error) {
	have, err := b.Stat(ctx, p)
	if err == nil {
		return have.Size == info.Size && have.SHA256 == info.SHA256 && have.ContentType == ContentType(info.ContentType), nil
	}
	if isNotFound(err) {
		return false, nil
	}
	return false, err
}

// List yields the Info of every file in the directory, in order of path.
// Entries that are not the store's (other names, temporary files) are
// passed over; a file or directory of the store's that cannot be read (a
// symlink, a corrupt file, one holding a path that does not belong
// there) yields an error.
func (s *Store) List(ctx context.Context) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		infos, errs := s.list(ctx)
		for _, err := range errs {
			if !yield(Info{}, err) {
				return
			}
		}
		for _, info := range infos {
			if !yield(info, nil) {
				return
			}
		}
	}
}

// list reads every file's Info, sorted by path, and the failures met.
func (s *Store) list(ctx context.Context) (infos []Info, errs []error) {
	scan := func(dir *os.File, label string, kind Kind, board string) bool {
		names, err := s.fs.ReadDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("files: list %s: %w", label, err))
			return true
		}
		for _, name := range names {
			if err := ctx.Err(); err != nil {
				errs = append(errs, err)
				return false
			}
			if !isFileName(name) {
				continue
			}
			info, err := s.readListed(dir, label+"/"+name, name, kind, board)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			infos = append(infos, info)
		}
		return true
	}
	if share, missing, err := s.ensureDir(s.root, shareLinksArea, false); err != nil {
		errs = append(errs, err)
	} else if !missing {
		ok := scan(share, shareLinksArea, ShareLinks, "")
		share.Close()
		if !ok {
			return nil, errs
		}
	}
	rooms, missing, err := s.ensureDir(s.root, roomsArea, false)
	switch {
	case err != nil:
		errs = append(errs, err)
	case !missing:
		defer rooms.Close()
		boards, err := s.fs.ReadDir(rooms)
		if err != nil {
			errs = append(errs, fmt.Errorf("files: list %s: %w", roomsArea, err))
		}
		for _, board := range boards {
			if store.ValidName(board) != nil {
				continue // not a board's: never made by the store
			}
			dir, missing, err := s.ensureDir(rooms, board, false)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if missing {
				continue
			}
			ok := scan(dir, roomsArea+"/"+board, Rooms, board)
			dir.Close()
			if !ok {
				return nil, errs
			}
		}
	}
	slices.SortFunc(infos, func(a, b Info) int { return cmp.Compare(a.Path, b.Path) })
	return infos, errs
}

// isFileName reports a name the store gives a file: 64 hex digits and
// the extension.
func isFileName(name string) bool {
	hexPart, ok := strings.CutSuffix(name, fileExt)
	return ok && len(hexPart) == 64 && strings.Trim(hexPart, "0123456789abcdef") == ""
}

// readListed reads the Info of the file name inside dir, which must hold
// a path of kind (and board) whose file name is name.
func (s *Store) readListed(dir *os.File, label, name string, kind Kind, board string) (Info, error) {
	f, err := s.fs.OpenFile(dir, name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	switch {
	case noFollowRefused(err):
		return Info{}, fmt.Errorf("files: %s is a symlink; not listed", label)
	case err != nil:
		return Info{}, fmt.Errorf("files: open %s: %w", label, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Info{}, fmt.Errorf("files: stat %s: %w", label, err)
	}
	if !st.Mode().IsRegular() {
		return Info{}, fmt.Errorf("files: %s is not a regular file; not listed", label)
	}
	m, err := readMeta(f, st.Size(), label)
	if err != nil {
		return Info{}, err
	}
	p, err := ParsePath(m.Path)
	if err != nil || p.Kind != kind || p.Board != board || fileName(p) != name {
		return Info{}, fmt.Errorf("files: %s is corrupt: it holds another path", label)
	}
	return m.info(st.ModTime()), nil
}

// isNotFound reports the not_found of Get and Stat.
func isNotFound(err error) bool { return sceneerr.CodeOf(err) == sceneerr.NotFound }
