package exports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
)

// List yields every kept export, in order of id (a folder's entries that
// are not exports are passed over). A failure to list is yielded alone.
func (s *Store) List(ctx context.Context) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		entries, err := s.b.list(ctx)
		if err != nil {
			yield(Entry{}, err)
			return
		}
		for _, e := range entries {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// Copy copies the export id from src to dst verbatim: its bytes and its
// creation time, so the sweep removes it when it would have (PostgreSQL
// keeps times to the microsecond). It does nothing and reports false when
// dst already holds the same bytes as id, so a copy run again changes
// nothing; different bytes there are replaced. Links stay valid across a
// copy when both stores have the same secret.
func Copy(ctx context.Context, dst, src *Store, id string) (copied bool, err error) {
	if !idPattern.MatchString(id) {
		return false, fmt.Errorf("exports: bad id %q", id)
	}
	e, data, err := src.read(ctx, id)
	if err != nil {
		return false, err
	}
	_, have, err := dst.read(ctx, id)
	switch {
	case err == nil && bytes.Equal(have, data):
		return false, nil
	case err != nil && !errors.Is(err, ErrNoLongerKept):
		return false, err
	}
	if err := dst.b.put(ctx, id, data, e.Created); err != nil {
		return false, err
	}
	return true, nil
}

// CopyAll copies every export of src to dst (Copy, in src's List order)
// and counts those copied and those dst already held. An export swept
// from src meanwhile is passed over. It stops at the first failure (an
// interrupt included); running it again after one is safe.
func CopyAll(ctx context.Context, dst, src *Store) (copied, unchanged int, err error) {
	return CopyEach(ctx, dst, src, nil)
}

// CopyEach is CopyAll telling done, if not nil, of each export as it is
// copied (true) or found there already (false): the progress of `dsh
// store migrate`.
func CopyEach(ctx context.Context, dst, src *Store, done func(id string, copied bool)) (copied, unchanged int, err error) {
	for e, err := range src.List(ctx) {
		if err != nil {
			return copied, unchanged, err
		}
		if err := ctx.Err(); err != nil {
			return copied, unchanged, err
		}
		c, err := Copy(ctx, dst, src, e.ID)
		if err == nil && done != nil {
			done(e.ID, c)
		}
		switch {
		case errors.Is(err, ErrNoLongerKept):
			continue
		case err != nil:
			return copied, unchanged, fmt.Errorf("exports: copy %s: %w", e.ID, err)
		case c:
			copied++
		default:
			unchanged++
		}
	}
	return copied, unchanged, nil
}

// read loads the export id whole.
func (s *Store) read(ctx context.Context, id string) (Entry, []byte, error) {
	f, err := s.b.open(ctx, id)
	if err != nil {
		return Entry{}, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return Entry{}, nil, fmt.Errorf("exports: read %s: %w", id, err)
	}
	return f.Entry, data, nil
}
