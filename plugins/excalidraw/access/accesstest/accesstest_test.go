package accesstest_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/identity"
)

var start = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func TestClock(t *testing.T) {
	c := accesstest.NewClock(start)
	if !c.Now().Equal(start) || !c.Now().Equal(start) {
		t.Fatalf("a clock left alone moved: %v", c.Now())
	}
	c.Advance(90 * time.Second)
	c.Advance(-30 * time.Second)
	if got := c.Now(); !got.Equal(start.Add(time.Minute)) {
		t.Fatalf("after +90s -30s: %v", got)
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { c.Advance(time.Second); _ = c.Now() })
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(start.Add(70 * time.Second)) {
		t.Fatalf("after ten concurrent seconds: %v", got)
	}
}

func TestBinder(t *testing.T) {
	var b accesstest.Binder // the zero value is ready
	if got := b.Bound("tok_1"); got != nil {
		t.Fatalf("bound before any binding: %v", got)
	}
	var wg sync.WaitGroup
	for _, board := range []string{"a", "b", "c"} {
		wg.Go(func() {
			if err := b.BindBoard(t.Context(), "tok_1", board); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := b.BindBoard(t.Context(), "tok_2", "z"); err != nil {
		t.Fatal(err)
	}
	got := b.Bound("tok_1")
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "b", "c"}) || !slices.Equal(b.Bound("tok_2"), []string{"z"}) {
		t.Fatalf("bound %v and %v", got, b.Bound("tok_2"))
	}
	got[0] = "changed"
	if slices.Contains(b.Bound("tok_1"), "changed") {
		t.Fatal("Bound hands out the binder's own slice")
	}

	bot := accesstest.Bot("tok_2", accesstest.Person("per_ann", "Ann"), access.Grant{Role: identity.RoleViewer, Boards: []string{"x"}})
	fresh := b.Refresh(bot)
	if g := access.GrantOf(fresh.Grant); !slices.Equal(g.Created, []string{"z"}) || !slices.Equal(g.Boards, []string{"x"}) || fresh.ID != "tok_2" {
		t.Fatalf("refreshed %+v %+v", fresh, g)
	}
	if g := access.GrantOf(bot.Grant); g.Created != nil {
		t.Fatalf("Refresh changed the bot's own grant: %+v", g)
	}
}

func TestPrincipals(t *testing.T) {
	ann := accesstest.Person("per_ann", "Ann")
	if ann != (identity.Principal{Kind: identity.KindSession, ID: "ses_ann", Name: "Ann", Person: "per_ann", PersonName: "Ann"}) {
		t.Fatalf("person %+v", ann)
	}
	owner := accesstest.Owner("Olga")
	if owner.Kind != identity.KindSession || owner.Person != accesstest.HostOwner || owner.Name != "Olga" || !owner.Admin || !owner.HostOwner {
		t.Fatalf("owner %+v", owner)
	}
	host := accesstest.Host("tok_h")
	if host.Kind != identity.KindToken || host.ID != "tok_h" || !host.Admin || host.Person != "" || host.IsBot() {
		t.Fatalf("host %+v", host)
	}
	bot := accesstest.Bot("tok_b", ann, access.Grant{Role: identity.RoleEditor})
	if !bot.IsBot() || bot.Kind != identity.KindToken || bot.ID != "tok_b" || bot.Person != "per_ann" || bot.Admin || bot.HostOwner ||
		bot.Display() != "helper (for Ann)" || access.GrantOf(bot.Grant).Role != identity.RoleEditor {
		t.Fatalf("bot %+v", bot)
	}
	if ob := accesstest.Bot("tok_o", owner, access.Grant{Role: identity.RoleViewer}); !ob.HostOwner || ob.Admin {
		t.Fatalf("the owner's bot %+v", ob)
	}
	if got := identity.Of(accesstest.As(bot)); got.ID != "tok_b" || got.Grant != bot.Grant {
		t.Fatalf("As: %+v", got)
	}
}

func TestGuard(t *testing.T) {
	clock := accesstest.NewClock(start)
	g, st, binder := accesstest.Guard(t, clock)
	dir := accesstest.Drawings(st)
	if st.Path() != boards.File(dir) || filepath.Base(dir) != "drawings" {
		t.Fatalf("store %s for drawings %s", st.Path(), dir)
	}
	if g.Boards() != st {
		t.Fatal("the guard decides from another store")
	}
	if _, err := os.Stat(filepath.Dir(dir)); err != nil {
		t.Fatalf("not in a temporary directory: %v", err)
	}

	ann := accesstest.Person("per_ann", "Ann")
	bot := accesstest.Bot("tok_1", ann, access.Grant{Role: identity.RoleViewer, CanCreateBoards: true})
	if err := g.Create(accesstest.As(bot), "plan"); err != nil {
		t.Fatalf("a bot may not create boards: %v", err)
	}
	clock.Advance(time.Hour)
	if err := g.Created(accesstest.As(bot), "plan"); err != nil {
		t.Fatal(err)
	}
	b, ok, err := st.Get(t.Context(), "plan")
	if err != nil || !ok || b.Owner != "per_ann" || !b.CreatedAt.Equal(start.Add(time.Hour)) {
		t.Fatalf("record %+v %v %v", b, ok, err)
	}
	if got := binder.Bound("tok_1"); !slices.Equal(got, []string{"plan"}) {
		t.Fatalf("bound %v", got)
	}
	if err := g.Check(accesstest.As(binder.Refresh(bot)), "plan", access.Write); err != nil {
		t.Fatalf("the bot cannot write to its board: %v", err)
	}

	// Folders of callers with no person are the host owner's.
	for _, ctx := range []context.Context{accesstest.As(accesstest.Host("tok_h")), context.Background()} {
		if who, err := g.FolderOwner(ctx); err != nil || who != accesstest.HostOwner {
			t.Fatalf("folder owner %q %v", who, err)
		}
	}
}

// A nil clock is the real time.
func TestGuardRealTime(t *testing.T) {
	g, st, _ := accesstest.Guard(t, nil)
	before := time.Now()
	if err := g.Created(accesstest.As(accesstest.Person("per_ann", "Ann")), "plan"); err != nil {
		t.Fatal(err)
	}
	if b, _, err := st.Get(t.Context(), "plan"); err != nil || b.CreatedAt.Before(before.Add(-time.Second)) || b.CreatedAt.After(time.Now().Add(time.Second)) {
		t.Fatalf("record %+v %v", b, err)
	}
}
