package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// commits makes a scene of n commits (a create and n-1 saves), each of
// one element tagged with its revision.
func commits(t *testing.T, b store.Backend, name string, n int) {
	t.Helper()
	mustCreate(t, b, name, Doc(1, "r1"))
	for rev := int64(1); rev < int64(n); rev++ {
		mustSave(t, b, store.SaveRequest{Name: name, ExpectedRevision: rev, Data: Doc(1, fmt.Sprint("r", rev+1))})
	}
}

// logFilters: each filter of LogQuery alone and combined, on five
// commits by different writers an hour apart.
func logFilters(t *testing.T, b store.Backend, c *clock) {
	t0 := c.Now()
	doc := func(tags string) []byte {
		els := []string{}
		for i, tag := range tags {
			els = append(els, El(fmt.Sprint("e", i), i*10, string(tag)))
		}
		return DocOf(els...)
	}
	if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: doc("aa"), Actor: store.ActorAgent,
		Attribution: store.Attribution{Name: "claude", Bot: "claude", Person: "erin"}}); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Hour)
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: doc("ab"), Attribution: store.Attribution{Name: "erin", Person: "erin"}})
	c.Add(time.Hour)
	if _, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 2, Actor: store.ActorAgent,
		Attribution: store.Attribution{Name: "gpt", Bot: "gpt"},
		Mutate:      func(*store.Scene) ([]byte, error) { return doc("aba"), nil }}); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Hour)
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 3, Data: doc("bba"), Actor: store.ActorSystem})
	c.Add(time.Hour)
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 4, Data: doc("bbb"), Attribution: store.Attribution{Name: "bob", Person: "bob"}})

	for _, tc := range []struct {
		q    store.LogQuery
		want string
	}{
		{store.LogQuery{}, "[5 4 3 2 1]"},
		{store.LogQuery{Actor: "agent"}, "[3 1]"},
		{store.LogQuery{Actor: "ui"}, "[5 2]"},
		{store.LogQuery{Actor: "system"}, "[4]"},
		{store.LogQuery{Actor: "erin"}, "[2 1]"},
		{store.LogQuery{Actor: "claude"}, "[1]"},
		{store.LogQuery{Actor: "gpt"}, "[3]"},
		{store.LogQuery{Actor: "nobody"}, "[]"},
		{store.LogQuery{Element: "e0"}, "[4 1]"},
		{store.LogQuery{Element: "e1"}, "[2 1]"},
		{store.LogQuery{Element: "e2"}, "[5 3]"},
		{store.LogQuery{Element: "e9"}, "[]"},
		{store.LogQuery{Since: t0.Add(time.Hour)}, "[5 4 3 2]"},
		{store.LogQuery{Since: t0.Add(time.Hour + time.Nanosecond)}, "[5 4 3]"},
		{store.LogQuery{Until: t0.Add(time.Hour)}, "[2 1]"},
		{store.LogQuery{Until: t0.Add(time.Hour - time.Nanosecond)}, "[1]"},
		{store.LogQuery{Since: t0.Add(time.Hour), Until: t0.Add(3 * time.Hour)}, "[4 3 2]"},
		{store.LogQuery{Since: t0.Add(10 * time.Hour)}, "[]"},
		{store.LogQuery{MinRevision: 2, MaxRevision: 4}, "[4 3 2]"},
		{store.LogQuery{MinRevision: 4}, "[5 4]"},
		{store.LogQuery{MaxRevision: 1}, "[1]"},
		{store.LogQuery{Actor: "ui", Element: "e2"}, "[5]"},
		{store.LogQuery{Actor: "agent", Since: t0.Add(30 * time.Minute)}, "[3]"},
		{store.LogQuery{Element: "e1", MaxRevision: 1}, "[1]"},
		{store.LogQuery{Actor: "erin", Element: "e0", Until: t0}, "[1]"},
	} {
		tc.q.Name = "plan"
		page, err := b.Log(ctx, tc.q)
		if err != nil {
			t.Fatalf("%+v: %v", tc.q, err)
		}
		if got := fmt.Sprint(revisionsOf(page.Entries)); got != tc.want || page.Next != "" || page.Revision != 5 {
			t.Errorf("%+v: %s (next %q, revision %d), want %s", tc.q, got, page.Next, page.Revision, tc.want)
		}
		for _, e := range page.Entries {
			if !tc.q.Matches(&e) {
				t.Errorf("%+v: entry %d does not match by LogQuery.Matches", tc.q, e.Revision)
			}
		}
	}
}

// logLimit: 0 is DefaultLogLimit; outside 1 to MaxLogLimit is
// invalid_request.
func logLimit(t *testing.T, b store.Backend) {
	commits(t, b, "plan", 25)
	page, err := b.Log(ctx, store.LogQuery{Name: "plan"})
	if err != nil || len(page.Entries) != store.DefaultLogLimit || page.Next == "" || page.Entries[0].Revision != 25 {
		t.Fatalf("the default page: %v %d entries, next %q", err, len(page.Entries), page.Next)
	}
	page, err = b.Log(ctx, store.LogQuery{Name: "plan", Limit: store.MaxLogLimit})
	if err != nil || len(page.Entries) != 25 || page.Next != "" {
		t.Fatalf("the largest page: %v %d entries, next %q", err, len(page.Entries), page.Next)
	}
	page, err = b.Log(ctx, store.LogQuery{Name: "plan", Limit: 1})
	if err != nil || len(page.Entries) != 1 || page.Entries[0].Revision != 25 || page.Next == "" {
		t.Fatalf("a page of one: %v %+v", err, page)
	}
	for _, limit := range []int{-1, store.MaxLogLimit + 1} {
		_, err := b.Log(ctx, store.LogQuery{Name: "plan", Limit: limit})
		var e *store.Error
		if !errors.As(err, &e) || e.Code != store.CodeInvalidRequest || e.Details["max"] != store.MaxLogLimit {
			t.Fatalf("limit %d: %v %+v", limit, err, e)
		}
	}
}

// logBadCursor: a cursor no page gave, or one whose commit is gone, is
// invalid_request naming the field.
func logBadCursor(t *testing.T, b store.Backend) {
	commits(t, b, "plan", 3)
	for _, c := range []string{"garbage", "-1.01ABC", "!!.01ABC", ".01ABC", "5.", store.LogCursor(1, "01NOSUCHCOMMIT0000000000000")} {
		_, err := b.Log(ctx, store.LogQuery{Name: "plan", Cursor: c})
		var e *store.Error
		if !errors.As(err, &e) || e.Code != store.CodeInvalidRequest || e.Details["field"] != "cursor" {
			t.Fatalf("cursor %q: %v %+v", c, err, e)
		}
	}
}

// pages reads every page of q and checks their shape: each full but the
// last, the last without a Next.
func pages(t *testing.T, b store.Backend, q store.LogQuery) []journal.Entry {
	t.Helper()
	var out []journal.Entry
	for n := 0; ; n++ {
		page, err := b.Log(ctx, q)
		if err != nil {
			t.Fatalf("page %d of %+v: %v", n, q, err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			if len(page.Entries) > q.Limit || (n > 0 && len(page.Entries) == 0) {
				t.Fatalf("the last page of %+v holds %d entries", q, len(page.Entries))
			}
			return out
		}
		if len(page.Entries) != q.Limit {
			t.Fatalf("page %d of %+v holds %d entries, not %d, and there are more", n, q, len(page.Entries), q.Limit)
		}
		if n > 100 {
			t.Fatal("the cursor never ends")
		}
		q.Cursor = page.Next
	}
}

// logPaging: cursors walk the journal newest first, page by page, with
// nothing twice and nothing left out, also while commits land.
func logPaging(t *testing.T, b store.Backend) {
	commits(t, b, "plan", 25)
	all := []int64{}
	for r := int64(25); r >= 1; r-- {
		all = append(all, r)
	}
	for _, limit := range []int{1, 4, 5, 7, 25} {
		if got := revisionsOf(pages(t, b, store.LogQuery{Name: "plan", Limit: limit})); !slices.Equal(got, all) {
			t.Fatalf("pages of %d: %v", limit, got)
		}
	}
	if got := revisionsOf(pages(t, b, store.LogQuery{Name: "plan", Limit: 7, MaxRevision: 21})); !slices.Equal(got, all[4:]) {
		t.Fatalf("three full pages: %v", got)
	}
	first, err := b.Log(ctx, store.LogQuery{Name: "plan", Limit: 7})
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 25, Data: Doc(1, "r26")})
	next, err := b.Log(ctx, store.LogQuery{Name: "plan", Limit: 7, Cursor: first.Next})
	if err != nil || len(next.Entries) != 7 || next.Entries[0].Revision != 18 || next.Revision != 26 {
		t.Fatalf("the next page after a commit: %v %v (revision %d)", err, revisionsOf(next.Entries), next.Revision)
	}
}

// logPagingFiltered: with filters, every page but the last still holds
// `limit` matching entries, across page boundaries.
func logPagingFiltered(t *testing.T, b store.Backend, c *clock) {
	t0 := c.Now()
	tags := []string{"r1", "r1", "r1"}
	doc := func() []byte { return DocOf(El("e0", 0, tags[0]), El("e1", 10, tags[1]), El("e2", 20, tags[2])) }
	mustCreate(t, b, "plan", doc())
	type made struct {
		rev   int64
		actor store.Actor
		id    string // the element it changed (all for the create)
		at    time.Time
	}
	log := []made{{1, store.ActorAgent, "*", t0}}
	for rev := int64(2); rev <= 25; rev++ {
		c.Add(time.Minute)
		actor := store.ActorUI
		if rev%2 == 1 {
			actor = store.ActorAgent
		}
		tags[rev%3] = fmt.Sprint("r", rev)
		mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: rev - 1, Data: doc(), Actor: actor})
		log = append(log, made{rev, actor, fmt.Sprint("e", rev%3), c.Now()})
	}
	for _, q := range []store.LogQuery{
		{Element: "e1"},
		{Actor: "agent"},
		{Actor: "agent", Element: "e1"},
		{Element: "e1", Since: t0.Add(5 * time.Minute)},
		{Actor: "ui", MinRevision: 5, MaxRevision: 20},
		{Element: "e2", Until: t0.Add(20 * time.Minute), MinRevision: 3},
	} {
		want := []int64{}
		for _, m := range slices.Backward(log) {
			ok := (q.Element == "" || m.id == "*" || m.id == q.Element) && (q.Actor == "" || string(m.actor) == q.Actor) &&
				(q.Since.IsZero() || !m.at.Before(q.Since)) && (q.Until.IsZero() || !m.at.After(q.Until)) &&
				(q.MinRevision == 0 || m.rev >= q.MinRevision) && (q.MaxRevision == 0 || m.rev <= q.MaxRevision)
			if ok {
				want = append(want, m.rev)
			}
		}
		for _, limit := range []int{1, 2, 3, 4, len(want)} {
			q.Name, q.Limit = "plan", limit
			if got := revisionsOf(pages(t, b, q)); !slices.Equal(got, want) {
				t.Fatalf("%+v: %v, want %v", q, got, want)
			}
		}
	}
}
