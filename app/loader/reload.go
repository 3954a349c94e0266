package loader

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"

	"go.uber.org/zap"
)

// Reload reads and applies the file now, without waiting for an event and
// even when its bytes are unchanged (the catalog's schemas may have changed,
// say after a plugin upgrade). It returns the rejection *Error for an invalid
// file, or the Applier's error after the new file was made current anyway.
func (w *Watcher) Reload(ctx context.Context) error {
	if !w.begin() {
		return ErrClosed
	}
	defer w.wg.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(w.ctx, cancel) // Close cancels a forced reload too
	defer stop()
	return w.reload(ctx, true)
}

// begin registers a Reload with Close's wait group unless already closed.
func (w *Watcher) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.wg.Add(1)
	return true
}

// reload runs one read-parse-diff-apply cycle while holding the turn, so
// the Applier never sees two change sets at once and every diff is taken
// against the file the previous cycle left in force.
func (w *Watcher) reload(ctx context.Context, force bool) error {
	select {
	case w.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-w.turn }()

	data, err := os.ReadFile(w.path)
	if err != nil {
		err = fmt.Errorf("loader: %w", err)
		w.log.Error("cannot read config file; keeping the running config", zap.Error(err))
		w.report(err)
		return err
	}
	sum := sha256.Sum256(data)
	if !force && sum == w.lastSum {
		w.log.Debug("config file content unchanged; nothing to reload")
		return nil
	}
	w.lastSum = sum

	f, err := Parse(w.path, data, w.hostSchema, w.cat, w.parseLog)
	if err != nil {
		w.reject(err)
		return err
	}
	changes := Effective(Diff(w.current.Load(), f))
	var applyErr error
	if len(changes) > 0 {
		applyErr = w.apply.ApplyChanges(ctx, changes)
	}
	w.current.Store(f)
	fields := []zap.Field{zap.Int("changes", len(changes)), zap.Strings("changed", changeNames(changes))}
	if applyErr != nil {
		w.log.Error("applying config changes failed; the new file is in force, the runtime reports which entries failed",
			append(fields, zap.Error(applyErr))...)
	} else {
		w.log.Info("config reloaded", fields...)
	}
	if w.opts.OnReload != nil {
		w.opts.OnReload(f, changes)
	}
	if applyErr != nil {
		return fmt.Errorf("loader: apply config changes: %w", applyErr)
	}
	return nil
}

// reject logs an invalid edit as a single error whose fields name the
// entries and pointers at fault, so one log line is enough to fix the file.
func (w *Watcher) reject(err error) {
	fields := []zap.Field{zap.Error(err)}
	var le *Error
	if errors.As(err, &le) {
		fields = append(fields,
			zap.Int("problems", len(le.Problems)),
			zap.Strings("entries", le.EntryIDs()),
			zap.Strings("pointers", le.Pointers()))
	}
	w.log.Error("config change rejected; keeping the running config", fields...)
	w.report(err)
}

func changeNames(changes []Change) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.String()
	}
	return out
}
