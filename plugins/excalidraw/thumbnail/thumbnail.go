// Package thumbnail keeps the pictures the board list shows of boards. It
// draws them off the write path and lazily: a viewer asks, and gets the
// picture already drawn, even one of an older revision (with that
// revision), while one render of the newest revision is scheduled. A
// picture is drawn at most once per Interval however many commits and
// viewers there are, by at most Workers renders at once over all boards,
// and every viewer is served from that one render.
package thumbnail

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Key is one picture of a board: its theme and pixel budget.
type Key struct {
	Name      string
	Dark      bool
	MaxPixels int
}

// Picture is a drawn board.
type Picture struct {
	// Revision is the board's revision the picture shows.
	Revision int64
	// ETag names the picture for conditional requests.
	ETag string
	MIME string
	Data []byte
}

// Render draws the newest revision of a board. ctx carries the identity
// of the viewer who asked last, so the render reads only what they may.
// A failure that is that viewer's and not the board's (they lost access
// since they asked) is returned through Asker: see Get.
type Render func(ctx context.Context, k Key) (Picture, error)

// Asker marks err, a render's failure, as the asking viewer's own (their
// access), not the board's (nothing to draw, a corrupt file).
func Asker(err error) error { return &askerError{err} }

type askerError struct{ err error }

func (e *askerError) Error() string { return e.err.Error() }
func (e *askerError) Unwrap() error { return e.err }

// askers reports whether err is a failure Asker marked.
func askers(err error) bool {
	var a *askerError
	return errors.As(err, &a)
}

// Options tune a Cache.
type Options struct {
	// Interval is the least time between two renders of one picture
	// (0: 3 s).
	Interval time.Duration
	// Workers bounds the renders running at once (0: half the
	// processors Go uses, at least one), so boards changing together
	// leave the rest to writes.
	Workers int
	// Entries bounds the pictures kept (0: 1024); the least recently
	// asked for go first.
	Entries int
	// Timeout bounds one render (0: 30 s).
	Timeout time.Duration
	// OnRender, when set, is called in the worker as each render starts,
	// before it draws: to count renders, or (in tests) to hold one.
	OnRender func(Key)
}

// Cache holds the pictures. Its zero value is not usable: call New.
type Cache struct {
	render Render
	o      Options
	slots  chan struct{}

	mu      sync.Mutex
	entries map[Key]*entry
	closed  bool
	renders int64
	asks    uint64 // numbers each Get, to tell whose a render was
}

// entry is one picture and its schedule. Guarded by Cache.mu.
type entry struct {
	pic  *Picture
	err  error // the last render's failure, for revision errRev
	errR int64
	// want is the newest revision a viewer was told of; drawn, the
	// revision the last successful render drew.
	want, drawn int64
	// ctx is the last asking viewer's (not cancelled with their request),
	// and asker that Get's number.
	ctx   context.Context
	asker uint64
	// failErr is the last render's failure when it was its asker's own
	// (Asker), and failBy that asker: only they are told of it.
	failErr   error
	failBy    uint64
	last      time.Time // the last render's start
	used      time.Time
	pending   bool // a render is scheduled or running
	timer     *time.Timer
	rendering bool
	done      chan struct{} // closed when the running or next render ends
}

// New is a Cache drawing with render.
func New(render Render, o Options) *Cache {
	if o.Interval <= 0 {
		o.Interval = 3 * time.Second
	}
	if o.Workers <= 0 {
		o.Workers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if o.Entries <= 0 {
		o.Entries = 1024
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	return &Cache{render: render, o: o, slots: make(chan struct{}, o.Workers), entries: map[Key]*entry{}}
}

// Get is the picture of k for a viewer who knows of revision head. A
// picture of head or newer is served as it is; an older one is served
// too (its Revision says which) and a render of the newest is scheduled,
// no sooner than Interval after the last. Only when there is no picture
// yet does Get wait for a render (or ctx). The error of a render that
// failed for head or newer (nothing to draw) is answered as it is.
//
// A render reads as the viewer who asked last. When it fails on that
// viewer's own access (Asker), the failure is theirs alone: the picture
// drawn before stays and is served, the failure is not kept, and the next
// viewer's request draws again (as them; one waiting for a first picture
// has it drawn as them at once).
func (c *Cache) Get(ctx context.Context, k Key, head int64) (Picture, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return Picture{}, fmt.Errorf("thumbnail: cache closed")
	}
	e := c.entries[k]
	if e == nil {
		c.evict()
		e = &entry{done: make(chan struct{})}
		c.entries[k] = e
	}
	e.used = time.Now()
	e.want = max(e.want, head)
	c.asks++
	me := c.asks
	e.ctx, e.asker = context.WithoutCancel(ctx), me
	if e.pic != nil && e.pic.Revision >= head {
		p := *e.pic
		c.mu.Unlock()
		return p, nil
	}
	if e.err != nil && e.errR >= head {
		err := e.err
		c.mu.Unlock()
		return Picture{}, err
	}
	c.schedule(k, e)
	if e.pic != nil {
		p := *e.pic
		c.mu.Unlock()
		return p, nil
	}
	for {
		done := e.done
		c.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return Picture{}, ctx.Err()
		}
		c.mu.Lock()
		switch {
		case e.pic != nil:
			p := *e.pic
			c.mu.Unlock()
			return p, nil
		case e.err != nil:
			err := e.err
			c.mu.Unlock()
			return Picture{}, err
		case e.failErr != nil && e.failBy == me:
			err := e.failErr
			c.mu.Unlock()
			return Picture{}, err
		case e.failErr != nil && !c.closed:
			// It failed on another viewer's access: draw as this one.
			e.ctx, e.asker = context.WithoutCancel(ctx), me
			c.schedule(k, e)
			continue
		}
		c.mu.Unlock()
		return Picture{}, fmt.Errorf("thumbnail: %s not drawn", k.Name)
	}
}

// Renders is how many renders the cache has started.
func (c *Cache) Renders() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.renders
}

// Close stops scheduled renders; Get fails after it.
func (c *Cache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, e := range c.entries {
		if e.timer != nil {
			e.timer.Stop()
		}
	}
}

// schedule starts a render of e unless one is pending: at once for a
// picture never drawn, else Interval after the last render's start.
// Called with c.mu held.
func (c *Cache) schedule(k Key, e *entry) {
	if e.pending || c.closed {
		return
	}
	e.pending = true
	wait := time.Duration(0)
	if !e.last.IsZero() {
		wait = time.Until(e.last.Add(c.o.Interval))
	}
	e.timer = time.AfterFunc(max(wait, 0), func() { c.run(k, e) })
}

// run renders e in a worker slot and schedules another render when a
// viewer has meanwhile been told of a newer revision than it drew. The
// worker then rests as long as the render took before it takes another,
// so a busy pool uses at most half of each of its processors.
func (c *Cache) run(k Key, e *entry) {
	c.slots <- struct{}{}
	began := time.Now()
	defer func() {
		time.Sleep(time.Since(began))
		<-c.slots
	}()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	prevLast := e.last
	e.rendering, e.last = true, time.Now()
	c.renders++
	ctx, want, by := e.ctx, e.want, e.asker
	c.mu.Unlock()
	if c.o.OnRender != nil {
		c.o.OnRender(k)
	}

	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	pic, err := c.render(ctx, k)
	cancel()

	c.mu.Lock()
	defer c.mu.Unlock()
	e.rendering, e.pending, e.timer = false, false, nil
	if err != nil && askers(err) {
		// The viewer it read as lost the board; the board did not fail.
		// What was drawn stays, this attempt does not hold the next one
		// back, and only that viewer is told.
		e.failErr, e.failBy, e.last = err, by, prevLast
		close(e.done)
		e.done = make(chan struct{})
		if e.asker != by {
			c.schedule(k, e) // another viewer asked meanwhile: draw as them
		}
		return
	}
	e.failErr = nil
	if err != nil {
		e.pic, e.err, e.errR = nil, err, want
	} else {
		e.pic, e.err = &pic, nil
	}
	close(e.done)
	e.done = make(chan struct{})
	drawn := want
	if err == nil {
		drawn = pic.Revision
	}
	// A viewer told of a newer revision than drawn: a commit landed
	// during the render, so draw again; but when this render drew no newer
	// revision than the last, the revision asked for is not there (yet, on
	// this node): wait for the next viewer to ask.
	if e.want > drawn {
		if err == nil && drawn == e.drawn {
			e.want = drawn
		} else {
			c.schedule(k, e)
		}
	}
	if err == nil {
		e.drawn = drawn
	}
}

// evict drops the least recently asked for picture not being drawn when
// the cache is full. Called with c.mu held.
func (c *Cache) evict() {
	if len(c.entries) < c.o.Entries {
		return
	}
	var oldest Key
	var at time.Time
	found := false
	for k, e := range c.entries {
		if e.pending {
			continue
		}
		if !found || e.used.Before(at) {
			oldest, at, found = k, e.used, true
		}
	}
	if found {
		delete(c.entries, oldest)
	}
}
