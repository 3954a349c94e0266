// Package quota counts what bots do against per-hour limits: a sliding
// window of the times each subject did each thing, on an injectable clock,
// counted in statefile.Windows: this process's memory (New; a restart
// forgets it, as seed 001's limits do), or a backend several nodes share
// (NewIn with pgstate's windows), where a bot's uses on every node count
// against the one limit.
package quota

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
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

// Limiter counts uses against rules. The zero value is not usable; New or
// NewIn. It is safe for concurrent use.
type Limiter struct {
	now func() time.Time
	w   statefile.Windows
	log *zap.Logger
	// refused is told of each refusal (OnRefuse, refused.go).
	refused atomic.Pointer[func(rule string)]
}

// New is a limiter counting in this process's memory, on the clock now
// (nil: time.Now).
func New(now func() time.Time) *Limiter {
	return NewIn(statefile.NewMemoryWindows(), now, nil)
}

// NewIn is a limiter counting in w (a shared backend's Windows: every
// node's uses count), on the clock now (nil: time.Now); log (nil: none)
// hears of what could not be counted.
func NewIn(w statefile.Windows, now func() time.Time, log *zap.Logger) *Limiter {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = zap.NewNop()
	}
	return &Limiter{now: now, w: w, log: log}
}

// key is the windows' key of r's uses by subject.
func key(r Rule, subject string) string { return "quota:" + r.Name + ":" + subject }

// Take counts one use of r by subject, or refuses with rate_limited when
// subject already used it Limit times in the last Window; the error's
// details say when to retry (retryAfterSec) and the limit. When the uses
// cannot be counted (the database is not reachable) it refuses too, with
// io_error: an uncounted use is not allowed. ctx bounds the count.
func (l *Limiter) Take(ctx context.Context, r Rule, subject string) error {
	now := l.now()
	ok, reset, err := l.w.Take(ctx, key(r, subject), now, r.Limit, r.Window)
	if err != nil {
		return sceneerr.New(sceneerr.IOError, "%s could not be counted against its limit: %v", r.Name, err).
			With("limit", r.Name).With("retryable", true)
	}
	if ok {
		return nil
	}
	l.tellRefused(r)
	after := int(math.Ceil(reset.Sub(now).Seconds()))
	if after < 1 {
		after = 1
	}
	return sceneerr.New(sceneerr.RateLimited, "%s is limited to %d per %s; try again in %d s", r.Name, r.Limit, window(r.Window), after).
		With("limit", r.Name).With("max", r.Limit).With("windowSec", int(r.Window.Seconds())).
		With("retryable", true).With("retryAfterSec", after)
}

// GiveBack undoes the newest Take of r by subject (the action it counted
// failed after all). One that cannot be undone is logged and stays
// counted. It is owed even when the caller of ctx has given up meanwhile,
// so ctx's cancellation does not stop it (its values are kept).
func (l *Limiter) GiveBack(ctx context.Context, r Rule, subject string) {
	if err := l.w.Undo(context.WithoutCancel(ctx), key(r, subject)); err != nil {
		l.log.Warn("quota: a use not given back", zap.String("limit", r.Name), zap.String("subject", subject), zap.Error(err))
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

// Usage reports subject's use of r now. Uses that cannot be read are
// logged and reported as none (Take still refuses then). ctx bounds the
// read.
func (l *Limiter) Usage(ctx context.Context, r Rule, subject string) Usage {
	n, oldest, err := l.w.Count(ctx, key(r, subject), l.now(), r.Window)
	if err != nil {
		l.log.Warn("quota: uses not read", zap.String("limit", r.Name), zap.String("subject", subject), zap.Error(err))
	}
	u := Usage{Name: r.Name, Used: n, Limit: r.Limit, WindowSec: int(r.Window.Seconds())}
	if n > 0 {
		at := oldest.Add(r.Window).UTC()
		u.ResetAt = &at
	}
	return u
}

func window(w time.Duration) string {
	if w == time.Hour {
		return "hour"
	}
	return fmt.Sprint(w)
}
