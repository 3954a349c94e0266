package live

import (
	"errors"
	"sync"

	"go.uber.org/zap"
)

// ErrClosed is returned by Subscribe once the Hub is closed.
var ErrClosed = errors.New("live: hub closed")

// Hub fans changes out to the subscribers of each scene, and to those of
// every scene (a scene list). It is safe for concurrent use.
//
// Deduplication is by revision alone: a change whose revision is not
// greater than the last one published for its name is dropped. The store
// never reuses a revision number for a name (a re-created scene continues
// from its sidecar or backups), so equal revisions are the same commit
// seen twice (commit hook and watcher), and lower ones are stale reads.
// The one exception is a metadata directory wiped by hand while the host
// runs: that scene's revisions restart at 1 and are not announced until
// they pass the old number. An editor opened afterwards still starts from
// the true head, because the events handler sends the head itself.
type Hub struct {
	log *zap.Logger

	mu     sync.Mutex
	closed bool
	last   map[string]int64
	subs   map[string]map[*Subscription]struct{}
}

// NewHub returns an open Hub; a nil logger logs nothing.
func NewHub(logger *zap.Logger) *Hub {
	if logger == nil {
		logger = zap.NewNop()
	}
	return &Hub{
		log:  logger.Named("excalidraw.live"),
		last: map[string]int64{},
		subs: map[string]map[*Subscription]struct{}{},
	}
}

// Publish announces c to the subscribers of c.Name unless it is not newer
// than the last change published for that name. It never blocks on a
// subscriber, and does nothing once the Hub is closed.
func (h *Hub) Publish(c Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if c.Revision <= h.last[c.Name] {
		h.log.Debug("dropped change not newer than the last", zap.String("name", c.Name), zap.Int64("revision", c.Revision))
		return
	}
	h.last[c.Name] = c.Revision
	for s := range h.subs[c.Name] {
		s.offer(c)
	}
	for s := range h.subs[allScenes] {
		s.offer(c)
	}
}

// Published reports whether a change of name at revision (or a later
// one) was published already: a caller that would read the scene to
// publish it can skip the read.
func (h *Hub) Published(name string, revision int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return revision <= h.last[name]
}

// allScenes is the subscription key of SubscribeAll; no scene has an empty
// name.
const allScenes = ""

// Subscribe starts receiving the changes of one scene published from now
// on. The caller must Close the subscription.
func (h *Hub) Subscribe(name string) (*Subscription, error) {
	if name == allScenes {
		return nil, errors.New("live: a scene subscription needs a name")
	}
	return h.subscribe(name)
}

// SubscribeAll starts receiving the changes of every scene published from
// now on, newest per scene. The caller must Close the subscription.
func (h *Hub) SubscribeAll() (*Subscription, error) { return h.subscribe(allScenes) }

func (h *Hub) subscribe(name string) (*Subscription, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	s := &Subscription{hub: h, name: name, ready: make(chan struct{}, 1), pending: map[string]Change{}}
	set := h.subs[name]
	if set == nil {
		set = map[*Subscription]struct{}{}
		h.subs[name] = set
	}
	set[s] = struct{}{}
	return s, nil
}

// Close closes every subscription's channel, so streams reading them end,
// and refuses new subscriptions. It is idempotent.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	for _, set := range h.subs {
		for s := range set {
			s.closeLocked()
		}
	}
	h.subs = nil
}

// remove forgets s; h.mu must be held.
func (h *Hub) remove(s *Subscription) {
	set := h.subs[s.name]
	delete(set, s)
	if len(set) == 0 {
		delete(h.subs, s.name)
	}
}
