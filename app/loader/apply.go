package loader

import "context"

// Applier brings the running plugins in line with a new version of the file.
// It is implemented by the runtime; the loader only decides what changed.
//
// ApplyChanges receives only entries that changed (no Unchanged), in the
// order Diff reports them, and is never called concurrently. An error does
// not roll the file back: the runtime reports per-entry failures itself and
// the loader moves on to the new file, so the next edit is diffed against
// what the operator last wrote.
type Applier interface {
	ApplyChanges(ctx context.Context, changes []Change) error
}

// ApplierFunc adapts a function to the Applier interface.
type ApplierFunc func(ctx context.Context, changes []Change) error

// ApplyChanges implements Applier.
func (f ApplierFunc) ApplyChanges(ctx context.Context, changes []Change) error {
	return f(ctx, changes)
}
