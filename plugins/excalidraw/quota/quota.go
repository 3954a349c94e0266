// Package quota counts what bots do against per-hour limits: a sliding
// window of the times each subject did each thing, in memory (a restart
// forgets it, as seed 001's limits do), on an injectable clock.
package quota

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
)

// Rule is one limit: at most Limit times per Window.
type Rule struct {
	// Name is what it limits, as get_bot_info reports it ("createBoard").
	Name   string
	Limit  int
	Window time.Duration
}

// The limits seed 001 sets.
var (
	CreateBoard  = Rule{Name: "createBoard", Limit: 10, Window: time.Hour}
	CreateFolder = Rule{Name: "createFolder", Limit: 20, Window: time.Hour}
)

// Limiter holds the windows. The zero value is not usable; New.
type Limiter struct {
	now func() time.Time

	mu   sync.Mutex
	hits map[key][]time.Time // oldest first, only those inside the window
}

type key struct{ rule, subject string }

// New is a limiter on the clock now (nil: time.Now).
func New(now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{now: now, hits: map[key][]time.Time{}}
}

// Take counts one use of r by subject, or refuses with rate_limited when
// subject already used it Limit times in the last Window; the error's
// details say when to retry (retryAfterSec) and the limit.
func (l *Limiter) Take(r Rule, subject string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	k := key{r.Name, subject}
	hits := l.prune(k, now, r.Window)
	if len(hits) >= r.Limit {
		reset := hits[len(hits)-r.Limit].Add(r.Window)
		after := int(math.Ceil(reset.Sub(now).Seconds()))
		if after < 1 {
			after = 1
		}
		return sceneerr.New(sceneerr.RateLimited, "%s is limited to %d per %s; try again in %d s", r.Name, r.Limit, window(r.Window), after).
			With("limit", r.Name).With("max", r.Limit).With("windowSec", int(r.Window.Seconds())).
			With("retryable", true).With("retryAfterSec", after)
	}
	l.hits[k] = append(hits, now)
	return nil
}

// Give back undoes the newest Take of r by subject (the action it
// counted failed after all).
func (l *Limiter) GiveBack(r Rule, subject string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := key{r.Name, subject}
	if h := l.hits[k]; len(h) > 0 {
		l.hits[k] = h[:len(h)-1]
	}
}

// Usage is what get_bot_info reports of one rule.
type Usage struct {
	Name      string     `json:"name"`
	Used      int        `json:"used"`
	Limit     int        `json:"limit"`
	WindowSec int        `json:"windowSec"`
	ResetAt   *time.Time `json:"resetAt,omitempty"` // when the oldest use leaves the window
}

// Usage reports subject's use of r now.
func (l *Limiter) Usage(r Rule, subject string) Usage {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	hits := l.prune(key{r.Name, subject}, now, r.Window)
	u := Usage{Name: r.Name, Used: len(hits), Limit: r.Limit, WindowSec: int(r.Window.Seconds())}
	if len(hits) > 0 {
		at := hits[0].Add(r.Window).UTC()
		u.ResetAt = &at
	}
	return u
}

// prune drops the uses that left the window; l.mu is held.
func (l *Limiter) prune(k key, now time.Time, w time.Duration) []time.Time {
	hits := l.hits[k]
	i := 0
	for i < len(hits) && !hits[i].After(now.Add(-w)) {
		i++
	}
	hits = hits[i:]
	if len(hits) == 0 {
		delete(l.hits, k)
		return nil
	}
	l.hits[k] = hits
	return hits
}

func window(w time.Duration) string {
	if w == time.Hour {
		return "hour"
	}
	return fmt.Sprint(w)
}
