package store

import (
	"bytes"
	"context"
	"fmt"
)

// Migratable is what a migration needs of a scene store: every backend
// (the file store, pgstore) is one.
type Migratable interface {
	List(ctx context.Context) ([]Summary, error)
	Archiver
}

// CopyAll restores each scene's archive of src into dst (in src's List
// order) and checks that dst then archives the same revision, bytes,
// journal and kept revisions; it counts the scenes copied, those dst
// already held, and the journal entries copied or checked. A scene dst
// holds differently is refused (already_exists), never overwritten. It
// stops at the first failure; running it again after one is safe.
// progress, if set, hears of each scene as it is done.
func CopyAll(ctx context.Context, dst, src Migratable, progress func(name string, outcome RestoreOutcome)) (copied, unchanged, journal int, err error) {
	rows, err := src.List(ctx)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("scenes: list: %w", err)
	}
	for _, r := range rows {
		a, err := src.Archive(ctx, r.Name)
		if err != nil {
			return copied, unchanged, journal, fmt.Errorf("scene %s: read: %w", r.Name, err)
		}
		outcome, err := dst.Restore(ctx, a)
		if err != nil {
			return copied, unchanged, journal, fmt.Errorf("scene %s: write: %w", r.Name, err)
		}
		got, err := dst.Archive(ctx, r.Name)
		if err != nil {
			return copied, unchanged, journal, fmt.Errorf("scene %s: read back: %w", r.Name, err)
		}
		if err := sameArchive(a, got); err != nil {
			return copied, unchanged, journal, fmt.Errorf("scene %s: the destination holds something else after the copy: %w", r.Name, err)
		}
		if outcome == RestoreUnchanged {
			unchanged++
		} else {
			copied++
		}
		journal += len(a.Journal)
		if progress != nil {
			progress(r.Name, outcome)
		}
	}
	return copied, unchanged, journal, nil
}

// sameArchive checks what a migration promises to keep: the bytes, the
// revision, every journal entry and every kept revision.
func sameArchive(want, got *SceneArchive) error {
	switch {
	case got.Meta.Revision != want.Meta.Revision || got.Meta.SHA256 != want.Meta.SHA256:
		return fmt.Errorf("revision %d %.12s, want %d %.12s", got.Meta.Revision, got.Meta.SHA256, want.Meta.Revision, want.Meta.SHA256)
	case !bytes.Equal(got.Data, want.Data):
		return fmt.Errorf("the bytes differ")
	case len(got.Journal) != len(want.Journal):
		return fmt.Errorf("%d journal entries, want %d", len(got.Journal), len(want.Journal))
	case len(got.Revisions) != len(want.Revisions):
		return fmt.Errorf("%d kept revisions, want %d", len(got.Revisions), len(want.Revisions))
	}
	for i := range want.Journal {
		if got.Journal[i].Entry.Commit != want.Journal[i].Entry.Commit || got.Journal[i].Entry.SHA256 != want.Journal[i].Entry.SHA256 {
			return fmt.Errorf("journal entry %d is commit %s, want %s", i+1, got.Journal[i].Entry.Commit, want.Journal[i].Entry.Commit)
		}
	}
	return nil
}
