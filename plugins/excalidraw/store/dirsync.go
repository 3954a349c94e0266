package store

import (
	"os"
	"sync"
)

// Group commit of directory fsyncs. A commit fsyncs a directory to make a
// rename it has already done durable (the drawings directory after the
// scene's rename, .dsh-excalidraw after the sidecar's, backups/ after the
// backup's). One fsync of a directory makes every entry change made
// before it started durable, whoever made it, so concurrent commits in
// different scenes (each scene's own are serialised by its locks) can
// share one:
//
//   - A caller whose rename is done joins the next fsync of that directory
//     that has not started yet, or starts one if none is running. It never
//     joins one already running: that fsync may have started before its
//     rename, and would prove nothing about it.
//   - While an fsync runs, callers gather in the round after it; the first
//     of them starts it as soon as the running one ends, for all of them.
//   - Every caller of a round gets that round's own result, so a failed
//     fsync fails every commit that relied on it, exactly as its own would
//     have (callers treat it as they always did: see writeAtomic step 4).
//
// So a commit's directory fsync is never earlier than its rename and never
// skipped, and what it makes durable before what stays as commit.go
// documents; a caller waits at most for the running fsync and then its
// own round's. Directories are told apart by device and inode, since each
// operation opens the metadata directories afresh (a directory removed
// and recreated is another group). The fsync runs on the handle of the
// round's first caller, who holds it open until the round ends.
type dirSyncer struct {
	mu     sync.Mutex
	groups map[fileKey]*syncGroup
}

// syncGroup is one directory's fsyncs: the one running, if any, and the
// next one, gathering callers, if any.
type syncGroup struct {
	running, next *syncRound
}

// syncRound is one fsync and its result, set before done is closed.
type syncRound struct {
	done    chan struct{}
	err     error
	callers int // who relies on it (for tests)
}

// fsyncDir fsyncs dir on behalf of a caller whose changes to it are done,
// sharing the fsync with concurrent callers where it proves as much (see
// dirSyncer). A directory whose identity cannot be read is fsynced alone.
func (s *Store) fsyncDir(dir *os.File) error {
	info, err := dir.Stat()
	dev, ino, _, ok := fileID(info)
	if err != nil || !ok {
		return s.fs.Sync(dir)
	}
	return s.syncs.sync(fileKey{dev, ino}, func() error { return s.fs.Sync(dir) })
}

// sync runs fsync for key's group as described at dirSyncer.
func (d *dirSyncer) sync(key fileKey, fsync func() error) error {
	d.mu.Lock()
	if d.groups == nil {
		d.groups = map[fileKey]*syncGroup{}
	}
	g := d.groups[key]
	if g == nil {
		g = &syncGroup{}
		d.groups[key] = g
	}
	switch {
	case g.next != nil:
		// A round is gathering: it starts after this caller's rename.
		r := g.next
		r.callers++
		d.mu.Unlock()
		<-r.done
		return r.err
	case g.running == nil:
		r := &syncRound{done: make(chan struct{}), callers: 1}
		g.running = r
		d.mu.Unlock()
		return d.run(key, g, r, fsync)
	}
	// One is running and may have started before this caller's rename:
	// gather the next round and start it once the running one ends.
	r := &syncRound{done: make(chan struct{}), callers: 1}
	g.next = r
	prev := g.running
	d.mu.Unlock()
	<-prev.done
	d.mu.Lock()
	g.running, g.next = r, nil
	d.mu.Unlock()
	return d.run(key, g, r, fsync)
}

// run performs round r of group g and hands its result to every caller.
func (d *dirSyncer) run(key fileKey, g *syncGroup, r *syncRound, fsync func() error) error {
	r.err = fsync()
	d.mu.Lock()
	g.running = nil
	if g.next == nil {
		delete(d.groups, key)
	}
	close(r.done)
	d.mu.Unlock()
	return r.err
}

// size is the number of directories with an fsync running or gathering
// (for tests: 0 when the store is idle).
func (d *dirSyncer) size() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.groups)
}

// gathering is how many callers wait for key's next round (for tests).
func (d *dirSyncer) gathering(key fileKey) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if g := d.groups[key]; g != nil && g.next != nil {
		return g.next.callers
	}
	return 0
}
