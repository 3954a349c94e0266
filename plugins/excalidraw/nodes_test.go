package excalidraw

import (
	"context"
	"testing"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

// fakeDB answers the follower's reads from heads, counting them.
type fakeDB struct {
	heads map[string]int64
	reads int
}

func (d *fakeDB) head(_ context.Context, name string) (service.Head, error) {
	d.reads++
	return service.Head{Name: name, Revision: d.heads[name]}, nil
}

func (d *fakeDB) list(context.Context) ([]service.SceneSummary, error) {
	var out []service.SceneSummary
	for name, rev := range d.heads {
		out = append(out, service.SceneSummary{Name: name, Revision: rev, Valid: true})
	}
	return out, nil
}

// took is what sub holds now, as revisions (Publish offers synchronously).
func took(sub *live.Subscription) []int64 {
	var out []int64
	for _, c := range sub.Take() {
		out = append(out, c.Revision)
	}
	return out
}

// The commit listener's calls as they may come after a reconnect: the
// catch-up lists plan at 3 while the notifications of 2 and 3 wait behind
// it. The editor gets 3 once and never 2 after it, and the late
// notifications cost no read; a later commit is read and sent. A catch-up
// listing older than what this node committed itself sends nothing.
func TestFollowerNeverGoesBack(t *testing.T) {
	ctx := context.Background()
	hub := live.NewHub(nil)
	defer hub.Close()
	sub, err := hub.Subscribe("plan")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	db := &fakeDB{heads: map[string]int64{"plan": 1}}
	f := &follower{hub: hub, head: db.head, list: db.list, log: zap.NewNop()}

	f.resync(ctx)
	f.commit(ctx, "plan", 1)
	if got := took(sub); len(got) != 1 || got[0] != 1 || db.reads != 0 {
		t.Fatalf("first connect: sent %v after %d reads, want [1] and none", got, db.reads)
	}

	db.heads["plan"] = 3 // 2 and 3 committed while the listing ran
	f.resync(ctx)
	if got := took(sub); len(got) != 1 || got[0] != 3 {
		t.Fatalf("catch-up: sent %v, want [3]", got)
	}
	f.commit(ctx, "plan", 2)
	f.commit(ctx, "plan", 3)
	if got := took(sub); len(got) != 0 || db.reads != 0 {
		t.Fatalf("late notifications: sent %v after %d reads, want nothing", got, db.reads)
	}

	db.heads["plan"] = 4
	f.commit(ctx, "plan", 4)
	if got := took(sub); len(got) != 1 || got[0] != 4 || db.reads != 1 {
		t.Fatalf("a new commit: sent %v after %d reads, want [4] and one", got, db.reads)
	}

	hub.Publish(live.Change{Name: "plan", Revision: 5}) // this node's own commit
	took(sub)
	f.resync(ctx) // listed before 5 committed
	f.commit(ctx, "plan", 5)
	if got := took(sub); len(got) != 0 || db.reads != 1 {
		t.Fatalf("after this node's own commit: sent %v after %d reads, want nothing", got, db.reads)
	}
}
