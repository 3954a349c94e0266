package loader

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"
)

// DefaultDebounce is how long the watcher waits after the last event before
// reloading. Editors and deploy tools touch a file several times per save
// (truncate, write, chmod, rename); reloading on each would apply half-written
// files and restart plugins several times for one edit.
const DefaultDebounce = 200 * time.Millisecond

// ErrClosed is returned by Reload once the watcher is closed.
var ErrClosed = errors.New("loader: watcher closed")

// WatchOptions tunes a Watcher. The zero value is usable.
type WatchOptions struct {
	// Debounce is the quiet period after the last event before a reload;
	// DefaultDebounce when zero or negative.
	Debounce time.Duration
	// OnReload is called after every successful reload with the new file and
	// the changes handed to the Applier (possibly none, for an edit that only
	// touched comments or the host section).
	OnReload func(f *File, changes []Change)
	// OnError is called when an edit is rejected or the file cannot be read.
	// The running config stays in force.
	OnError func(err error)
}

// Watcher follows the configuration file and applies valid edits. Reloads,
// and the callbacks they make, run one at a time; callbacks must not call
// Reload or Close, which would wait for the callback itself.
type Watcher struct {
	path       string
	base       string
	anyName    bool
	hostSchema []byte
	cat        Catalog
	apply      Applier
	parseLog   *zap.Logger // the caller's logger; Parse scopes it itself
	log        *zap.Logger
	opts       WatchOptions

	fsw    *fsnotify.Watcher
	ctx    context.Context
	cancel context.CancelFunc

	current atomic.Pointer[File]
	// turn holds one token while a reload runs. It is a channel rather than a
	// mutex so that waiting for it gives up when the context is cancelled.
	turn chan struct{}
	// lastSum is the hash of the bytes last parsed, good or bad; guarded by
	// turn. Events that leave the bytes unchanged (chmod, touch, an editor
	// rewriting the same content) are ignored, and a rejected edit is
	// reported once rather than on every event until it is fixed.
	lastSum [32]byte

	mu        sync.Mutex
	closed    bool
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Watch starts following current.Path and returns once the watch is in
// place. Edits are parsed with hostSchema and cat exactly as Parse does;
// valid ones are diffed against the running file and the changes handed to
// apply. Call Close to stop; cancelling ctx also stops watching, and is
// passed on to ApplyChanges.
//
// The file's directory is watched rather than the file itself: editors and
// deploy tools replace files by rename, which would silently end a watch on
// the old inode. When the path is a symlink (a Kubernetes ConfigMap mount,
// for one) every event in the directory is considered, since the update
// happens on the link's target; unchanged bytes are still ignored.
//
// The file is checked once right after the watch starts, so an edit made
// between Load and Watch is applied rather than missed. current should
// therefore come from Parse or Load; a File built by hand is diffed against
// the file on disk at that first check.
func Watch(ctx context.Context, current *File, hostSchema []byte, cat Catalog, apply Applier, log *zap.Logger, opts WatchOptions) (*Watcher, error) {
	if current == nil || current.Path == "" {
		return nil, errors.New("loader: Watch needs the running file and its path")
	}
	if apply == nil {
		return nil, errors.New("loader: Watch needs an Applier")
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	path := filepath.Clean(current.Path)
	w := &Watcher{
		path:       path,
		base:       filepath.Base(path),
		hostSchema: hostSchema,
		cat:        cat,
		apply:      apply,
		parseLog:   log,
		log:        moduleLogger(log).With(zap.String("path", path)),
		opts:       opts,
		turn:       make(chan struct{}, 1),
		lastSum:    current.sum,
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		w.anyName = true
	}
	w.current.Store(current)
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("loader: watch %s: %w", path, err)
	}
	if err := fsw.Add(filepath.Dir(path)); err != nil {
		_ = fsw.Close()
		return nil, fmt.Errorf("loader: watch %s: %w", path, err)
	}
	w.fsw = fsw
	w.ctx, w.cancel = context.WithCancel(ctx)
	w.wg.Add(1)
	go w.loop()
	w.log.Info("watching config file", zap.Duration("debounce", opts.Debounce))
	return w, nil
}

// Current returns the file in force: the last one that parsed, whether or
// not applying it fully succeeded.
func (w *Watcher) Current() *File {
	return w.current.Load()
}

// Close stops watching, cancels a reload in progress and returns once every
// goroutine the watcher started, and every Reload in flight, has ended.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		w.mu.Lock()
		w.closed = true
		w.mu.Unlock()
		w.cancel()
		w.closeErr = w.fsw.Close()
		w.wg.Wait()
		w.log.Info("stopped watching config file")
	})
	return w.closeErr
}

// loop turns file events into debounced reloads. It starts with one check
// of the file so that an edit made between Load and Watch is not missed;
// when the bytes are those of the running file the check costs a read.
func (w *Watcher) loop() {
	defer w.wg.Done()
	timer := time.NewTimer(w.opts.Debounce)
	defer timer.Stop()
	fire := timer.C
	for {
		select {
		case <-w.ctx.Done():
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if !w.relevant(ev) {
				continue
			}
			w.log.Debug("config file event", zap.String("op", ev.Op.String()), zap.String("name", ev.Name))
			timer.Reset(w.opts.Debounce)
			fire = timer.C
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.log.Error("config file watch failed", zap.Error(err))
			w.report(err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were dropped, possibly the config file's: check it.
				timer.Reset(w.opts.Debounce)
				fire = timer.C
			}
		case <-fire:
			fire = nil
			_ = w.reload(w.ctx, false)
		}
	}
}

// relevant filters the directory's events down to the config file.
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	return w.anyName || filepath.Base(ev.Name) == w.base
}

func (w *Watcher) report(err error) {
	if w.opts.OnError != nil {
		w.opts.OnError(err)
	}
}
