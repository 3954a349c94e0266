package quota

import (
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestSlidingWindow(t *testing.T) {
	c := &clock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	l := New(c.now)
	r := Rule{Name: "createBoard", Limit: 3, Window: time.Hour}
	for i := range 3 {
		if err := l.Take(r, "tok_a"); err != nil {
			t.Fatalf("take %d: %v", i, err)
		}
		c.t = c.t.Add(10 * time.Minute)
	}
	// 10:30: three uses at 10:00, 10:10, 10:20; the fourth waits for
	// 10:00 to leave the window at 11:00.
	err := l.Take(r, "tok_a")
	e, ok := err.(*sceneerr.Error)
	if !ok || e.Code != sceneerr.RateLimited || e.Details["retryAfterSec"] != 1800 || e.Details["retryable"] != true {
		t.Fatalf("fourth take: %#v", err)
	}
	if e.Code.Status() != 429 {
		t.Fatalf("status %d", e.Code.Status())
	}
	if err := l.Take(r, "tok_b"); err != nil {
		t.Fatalf("another subject is not limited: %v", err)
	}
	u := l.Usage(r, "tok_a")
	if u.Used != 3 || u.Limit != 3 || u.ResetAt == nil || !u.ResetAt.Equal(time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("usage %+v", u)
	}
	c.t = time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
	if err := l.Take(r, "tok_a"); err != nil {
		t.Fatalf("after the oldest left the window: %v", err)
	}
	if u := l.Usage(r, "tok_a"); u.Used != 3 {
		t.Fatalf("usage after refill %+v", u)
	}
	l.GiveBack(r, "tok_a")
	if u := l.Usage(r, "tok_a"); u.Used != 2 {
		t.Fatalf("usage after give back %+v", u)
	}
	c.t = c.t.Add(2 * time.Hour)
	if u := l.Usage(r, "tok_a"); u.Used != 0 || u.ResetAt != nil {
		t.Fatalf("usage after the window %+v", u)
	}
}
