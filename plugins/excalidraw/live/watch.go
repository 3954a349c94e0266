package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// ReadFunc returns the current head of a scene. The Watcher calls it after
// a scene's sidecar changed; it is typically service.Service.Head
// converted to a Change.
type ReadFunc func(ctx context.Context, name string) (Change, error)

// OwnFunc reports, cheaply (no scene read), whether a scene's current
// revision is one this process committed itself and announces through
// its commit hook.
type OwnFunc func(ctx context.Context, name string) bool

// Watcher publishes a Change whenever a scene's sidecar is written, by
// this process or any other. Reads run on one goroutine, apart from the
// event loop, and names changed while a read runs are read once more
// afterwards, however many events they got: the Hub drops repeats anyway.
type Watcher struct {
	dir, meta string
	hub       *Hub
	read      ReadFunc
	own       OwnFunc
	log       *zap.Logger
	fsw       *fsnotify.Watcher

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	dirty map[string]struct{}
	kick  chan struct{} // capacity 1: "dirty is not empty"

	closeOnce sync.Once
	closeErr  error
}

// Watch starts watching the drawings directory dir and returns once the
// watch is in place, so a commit after Watch returns is never missed. A
// missing metadata directory is picked up when the store creates it.
// Close stops it.
//
// own, if not nil, lets it skip this process's own commits: published by
// the commit hook, they reach the watcher too, and re-reading (and
// hashing) the whole scene for them would only be dropped as a repeat.
func Watch(dir string, hub *Hub, read ReadFunc, logger *zap.Logger, own OwnFunc) (*Watcher, error) {
	if hub == nil || read == nil {
		return nil, errors.New("live: Watch needs a hub and a read function")
	}
	if logger == nil {
		logger = zap.NewNop()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("live: drawings directory: %w", err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("live: watch: %w", err)
	}
	// The root is watched only to notice the metadata directory being
	// (re)created: a watch on a removed directory is gone for good.
	if err := fsw.Add(abs); err != nil {
		_ = fsw.Close()
		return nil, fmt.Errorf("live: watch %s: %w", abs, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{
		dir: abs, meta: filepath.Join(abs, store.MetaDir), hub: hub, read: read, own: own,
		log: logger.Named("excalidraw.live"), fsw: fsw, ctx: ctx, cancel: cancel,
		dirty: map[string]struct{}{}, kick: make(chan struct{}, 1),
	}
	if err := fsw.Add(w.meta); err != nil && !errors.Is(err, os.ErrNotExist) {
		cancel()
		_ = fsw.Close()
		return nil, fmt.Errorf("live: watch %s: %w", w.meta, err)
	}
	w.wg.Add(2)
	go w.loop()
	go w.reader()
	return w, nil
}

// Close stops watching and waits for the goroutines, including a read in
// progress (its context is cancelled). It is idempotent.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		w.cancel()
		w.closeErr = w.fsw.Close()
		w.wg.Wait()
	})
	return w.closeErr
}

// loop turns file events into dirty names until the fsnotify watcher is
// closed (which closes both of its channels).
func (w *Watcher) loop() {
	defer w.wg.Done()
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost; which scenes changed is unknown.
				w.rescan()
				continue
			}
			w.log.Warn("drawings watch error", zap.Error(err))
		}
	}
}

func (w *Watcher) handle(ev fsnotify.Event) {
	parent, base := filepath.Split(ev.Name)
	parent = filepath.Clean(parent)
	switch {
	case parent == w.dir && base == store.MetaDir && ev.Has(fsnotify.Create):
		if err := w.fsw.Add(w.meta); err != nil {
			w.log.Warn("cannot watch the metadata directory", zap.String("dir", w.meta), zap.Error(err))
			return
		}
		// Sidecars written between the mkdir and the Add sent no event.
		w.rescan()
	case parent == w.meta && (ev.Has(fsnotify.Create) || ev.Has(fsnotify.Write)):
		// A rename onto the sidecar is a Create; a Write is a hand edit.
		if name, ok := sidecarName(base); ok {
			w.mark(name)
		}
	}
}

// sidecarName is the scene name of a sidecar file name. Temp files and
// anything else in the directory are not sidecars.
func sidecarName(base string) (string, bool) {
	if strings.HasPrefix(base, ".") {
		return "", false
	}
	name, ok := strings.CutSuffix(base, store.SidecarExt)
	if !ok || name == "" {
		return "", false
	}
	return name, true
}

// rescan marks every scene that has a sidecar.
func (w *Watcher) rescan() {
	entries, err := os.ReadDir(w.meta)
	if err != nil {
		w.log.Debug("cannot list the metadata directory", zap.Error(err))
		return
	}
	for _, e := range entries {
		if name, ok := sidecarName(e.Name()); ok && e.Type().IsRegular() {
			w.mark(name)
		}
	}
}

func (w *Watcher) mark(name string) {
	w.mu.Lock()
	w.dirty[name] = struct{}{}
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// reader reads the head of each dirty scene and publishes it.
func (w *Watcher) reader() {
	defer w.wg.Done()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-w.kick:
		}
		for _, name := range w.take() {
			if w.ctx.Err() != nil {
				return
			}
			if w.own != nil && w.own(w.ctx, name) {
				continue // the commit hook publishes it
			}
			c, err := w.read(w.ctx, name)
			if err != nil {
				// A scene deleted since, a busy lock, a corrupt file: the
				// next commit will send another event.
				w.log.Debug("cannot read a changed scene", zap.String("name", name), zap.Error(err))
				continue
			}
			if c.Name == "" {
				c.Name = name
			}
			w.hub.Publish(c)
		}
	}
}

// take empties the dirty set, in name order.
func (w *Watcher) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	names := make([]string, 0, len(w.dirty))
	for n := range w.dirty {
		names = append(names, n)
	}
	clear(w.dirty)
	slices.Sort(names)
	return names
}
