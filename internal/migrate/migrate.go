// Package migrate copies everything dsh persists from one store to the
// other (the data directory's files and a PostgreSQL database, either
// way): scenes with their whole history, the host's and the plugin's
// state documents (people, tokens, sessions, boards, OAuth clients),
// files and exports. What it copies it verifies, and what is already
// there identically it leaves alone, so a rerun copies nothing twice.
package migrate

import (
	"bytes"
	"context"
	"fmt"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/oauth"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Scenes is what a migration needs of a scene store: every backend
// (the file store, pgstore) is one.
type Scenes interface {
	List(ctx context.Context) ([]store.Summary, error)
	store.Archiver
}

// Side is one end of a migration: where each kind of data lives.
type Side struct {
	// Name says which store it is ("fs", "postgres"), for the report.
	Name    string
	Scenes  Scenes
	Doc     func(name string) statefile.Doc
	Files   files.Backend
	Exports *exports.Store
}

// Docs are the state documents a migration copies, by their shared
// names. Login links and OAuth codes live minutes and are not copied.
var Docs = []string{accounts.StateDoc, connection.TokensDoc, connection.SessionsDoc, boards.StateDoc, oauth.ClientsDoc}

// Options tune Copy.
type Options struct {
	// Replace overwrites a state document the destination holds with
	// different contents (the destination was used already, e.g. a node
	// started on it made its owner). Scenes are never replaced: one that
	// differs is refused.
	Replace bool
	// Progress, if set, hears of each item as it is done.
	Progress func(kind, item, outcome string)
}

// Line is the report of one kind of data.
type Line struct {
	Kind      string // scenes, documents, files, exports
	Copied    int
	Unchanged int
	// Journal counts the scenes' journal entries copied or checked.
	Journal int
}

// Copy copies everything from src to dst and verifies it. It stops at the
// first item it cannot copy (nothing of that item is written) and
// reports what it did up to there.
func Copy(ctx context.Context, dst, src Side, o Options) ([]Line, error) {
	if o.Progress == nil {
		o.Progress = func(string, string, string) {}
	}
	var out []Line
	l, err := copyScenes(ctx, dst, src, o)
	out = append(out, l)
	if err != nil {
		return out, err
	}
	l, err = copyDocs(ctx, dst, src, o)
	out = append(out, l)
	if err != nil {
		return out, err
	}
	l = Line{Kind: "files"}
	l.Copied, l.Unchanged, err = files.CopyAll(ctx, dst.Files, src.Files)
	out = append(out, l)
	if err != nil {
		return out, fmt.Errorf("files: %w", err)
	}
	l = Line{Kind: "exports"}
	l.Copied, l.Unchanged, err = exports.CopyAll(ctx, dst.Exports, src.Exports)
	out = append(out, l)
	if err != nil {
		return out, fmt.Errorf("exports: %w", err)
	}
	return out, nil
}

// copyScenes restores each scene's archive into dst and checks that dst
// then archives the same revision, bytes and journal.
func copyScenes(ctx context.Context, dst, src Side, o Options) (Line, error) {
	l := Line{Kind: "scenes"}
	rows, err := src.Scenes.List(ctx)
	if err != nil {
		return l, fmt.Errorf("scenes: list %s: %w", src.Name, err)
	}
	for _, r := range rows {
		a, err := src.Scenes.Archive(ctx, r.Name)
		if err != nil {
			return l, fmt.Errorf("scene %s: read from %s: %w", r.Name, src.Name, err)
		}
		outcome, err := dst.Scenes.Restore(ctx, a)
		if err != nil {
			return l, fmt.Errorf("scene %s: write to %s: %w", r.Name, dst.Name, err)
		}
		got, err := dst.Scenes.Archive(ctx, r.Name)
		if err != nil {
			return l, fmt.Errorf("scene %s: read back from %s: %w", r.Name, dst.Name, err)
		}
		if err := same(a, got); err != nil {
			return l, fmt.Errorf("scene %s: %s holds something else after the copy: %w", r.Name, dst.Name, err)
		}
		if outcome == store.RestoreUnchanged {
			l.Unchanged++
		} else {
			l.Copied++
		}
		l.Journal += len(a.Journal)
		o.Progress("scene", r.Name, string(outcome))
	}
	return l, nil
}

// same checks what a migration promises to keep: the bytes, the
// revision, every journal entry and every kept revision.
func same(want, got *store.SceneArchive) error {
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

// copyDocs copies each state document's bytes: into a destination that
// has none, or (Replace) over different ones.
func copyDocs(ctx context.Context, dst, src Side, o Options) (Line, error) {
	l := Line{Kind: "documents"}
	for _, name := range Docs {
		from := src.Doc(name)
		data, _, _, err := from.Fetch(ctx, nil)
		if err != nil {
			return l, fmt.Errorf("%s: read %s: %w", name, from.Where(), err)
		}
		if data == nil {
			continue // nothing kept of this kind
		}
		to := dst.Doc(name)
		outcome := ""
		err = to.Update(ctx, func(cur []byte) ([]byte, bool, error) {
			switch {
			case bytes.Equal(cur, data):
				outcome = "unchanged"
				return nil, false, nil
			case cur != nil && !o.Replace:
				return nil, false, fmt.Errorf("%s already holds different %s: migrate into an empty store, or pass --replace to overwrite it", to.Where(), name)
			}
			outcome = "copied"
			return data, true, nil
		})
		if err != nil {
			return l, fmt.Errorf("%s: %w", name, err)
		}
		if back, _, _, err := to.Fetch(ctx, nil); err != nil || !bytes.Equal(back, data) {
			return l, fmt.Errorf("%s: %s does not read back what was written (%v)", name, to.Where(), err)
		}
		if outcome == "unchanged" {
			l.Unchanged++
		} else {
			l.Copied++
		}
		o.Progress("document", name, outcome)
	}
	return l, nil
}
