// Package migrate is the machinery of `dsh store migrate`: it copies
// named state documents from one store to the other (the data
// directory's files and a PostgreSQL database, either way), verifying
// each, and leaving alone what is already there identically, so a rerun
// copies nothing twice. The host copies its own documents with it; each
// plugin's module copies its own data (and documents) beside.
package migrate

import (
	"bytes"
	"context"
	"fmt"

	"github.com/dshgo/dsh/internal/statefile"
)

// Options tune a copy.
type Options struct {
	// Replace overwrites a state document the destination holds with
	// different contents (the destination was used already, e.g. a node
	// started on it made its owner). Scenes are never replaced: one that
	// differs is refused.
	Replace bool
	// Progress, if set, hears of each item as it is done.
	Progress func(kind, item, outcome string)
}

// progress is o.Progress, or nothing.
func (o Options) progress(kind, item, outcome string) {
	if o.Progress != nil {
		o.Progress(kind, item, outcome)
	}
}

// Line is the report of one kind of data.
type Line struct {
	Kind      string // scenes, documents, files, exports
	Copied    int
	Unchanged int
	// Journal counts the history entries copied or checked with the
	// items (a scene's journal), when Journaled.
	Journal   int
	Journaled bool
}

// DocOf is one side's state document by its shared name.
type DocOf func(name string) statefile.Doc

// Docs copies each named state document's bytes from src to dst: into a
// destination that has none, or (Replace) over different ones. It stops
// at the first document it cannot copy.
func Docs(ctx context.Context, dst, src DocOf, names []string, o Options) (Line, error) {
	l := Line{Kind: "documents"}
	for _, name := range names {
		from := src(name)
		data, _, _, err := from.Fetch(ctx, nil)
		if err != nil {
			return l, fmt.Errorf("%s: read %s: %w", name, from.Where(), err)
		}
		if data == nil {
			continue // nothing kept of this kind
		}
		to := dst(name)
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
		o.progress("document", name, outcome)
	}
	return l, nil
}
