package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"
	"go.uber.org/zap/zaptest"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

var bg = context.Background()

// patience is how long a test waits for something that is to happen.
const patience = 30 * time.Second

type commitEvent struct {
	name string
	rev  int64
}

// events are a running Listener's calls, for a test to wait on.
type events struct {
	commits chan commitEvent
	resyncs chan struct{}
	last    map[string]int64 // the newest revision read of each scene
}

// listen runs l until the returned stop, which also checks that Run
// returned the context's error.
func listen(t *testing.T, l *Listener) (*events, func()) {
	t.Helper()
	ev := &events{commits: make(chan commitEvent, 100), resyncs: make(chan struct{}, 100), last: map[string]int64{}}
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error, 1)
	go func() {
		done <- l.Run(ctx,
			func(name string, rev int64) {
				select {
				case ev.commits <- commitEvent{name, rev}:
				case <-ctx.Done():
				}
			},
			func(ctx context.Context) {
				select {
				case ev.resyncs <- struct{}{}:
				case <-ctx.Done():
				}
			})
	}()
	stopped := false
	return ev, func() {
		t.Helper()
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Run returned %v, want context.Canceled", err)
			}
		case <-time.After(patience):
			t.Fatal("Run did not return after its context ended")
		}
	}
}

// resynced waits for the next onResync.
func (ev *events) resynced(t *testing.T) {
	t.Helper()
	select {
	case <-ev.resyncs:
	case <-time.After(patience):
		t.Fatal("no onResync")
	}
}

// next waits for the next onCommit, which must not go back: a scene's
// commits are notified in the order they committed, so a revision at or
// below one already notified never comes.
func (ev *events) next(t *testing.T, want string) commitEvent {
	t.Helper()
	select {
	case got := <-ev.commits:
		if got.rev <= ev.last[got.name] {
			t.Fatalf("notified of %s %d after %d", got.name, got.rev, ev.last[got.name])
		}
		ev.last[got.name] = got.rev
		return got
	case <-time.After(patience):
		t.Fatalf("no notification of %s", want)
	}
	panic("unreachable")
}

// commit waits for the next onCommit, which must be name's rev.
func (ev *events) commit(t *testing.T, name string, rev int64) {
	t.Helper()
	if got := ev.next(t, fmt.Sprint(name, " ", rev)); got != (commitEvent{name, rev}) {
		t.Fatalf("notified of %s %d, want %s %d", got.name, got.rev, name, rev)
	}
}

// through waits for name's notifications up to rev, each newer than the
// one before (see next). Those of commits made while the Listener was
// reconnecting may be missing: they came before its LISTEN, and
// onResync is there for them.
func (ev *events) through(t *testing.T, name string, rev int64) {
	t.Helper()
	for {
		got := ev.next(t, fmt.Sprint(name, " ", rev))
		switch {
		case got == (commitEvent{name, rev}):
			return
		case got.name != name || got.rev > rev:
			t.Fatalf("notified of %s %d, want %s up to %d", got.name, got.rev, name, rev)
		}
	}
}

func save(t *testing.T, s store.Backend, expected int64, tag string) *store.Result {
	t.Helper()
	res, err := s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: expected, Data: storetest.Doc(2, tag), Actor: store.ActorUI})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A commit on another node (a second Store on the database) reaches
// this node's Listener, and so do this node's own, which CommittedHere
// tells apart. A refused write notifies nothing. When the Listener's
// connection is cut, it connects again and calls onResync again, and
// later commits still arrive. Run leaves no goroutine behind.
func TestListener(t *testing.T) {
	dsn := pgtest.DSN(t)
	here := openStore(t, openPool(t, dsn), Options{})
	other := openStore(t, openPool(t, dsn), Options{})
	ignore := goleak.IgnoreCurrent()

	ev, stop := listen(t, here.Listener())
	defer stop()
	ev.resynced(t)
	if _, err := other.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	ev.commit(t, "plan", 1)
	if here.CommittedHere(bg, "plan") || !other.CommittedHere(bg, "plan") {
		t.Fatal("CommittedHere: the other node made revision 1")
	}
	if _, err := other.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 7, Data: storetest.Doc(1, "x"), Actor: store.ActorUI}); store.CodeOf(err) != store.CodeRevisionConflict {
		t.Fatalf("a stale save: %v", err)
	}
	save(t, here, 1, "b")
	ev.commit(t, "plan", 2) // not the refused save's
	if !here.CommittedHere(bg, "plan") || other.CommittedHere(bg, "plan") {
		t.Fatal("CommittedHere: this node made revision 2")
	}

	pgtest.Terminate(t, dsn)
	ev.resynced(t)
	save(t, other, 2, "c") // on a pool whose connections were cut too
	ev.commit(t, "plan", 3)

	stop()
	goleak.VerifyNone(t, ignore)
}

// A Listener whose connection stays silent pings it and keeps it: the
// commit after a few idle periods arrives with no reconnect between.
func TestListenerIdle(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	s := openStore(t, pool, Options{})
	l := NewListener(pool, ListenerOptions{Idle: 10 * time.Millisecond})
	var pings atomic.Int64
	pinged := make(chan struct{}, 1)
	l.l.Pinged = func() {
		if pings.Add(1) == 3 {
			pinged <- struct{}{}
		}
	}
	ev, stop := listen(t, l)
	defer stop()
	ev.resynced(t)
	select {
	case <-pinged:
	case <-time.After(patience):
		t.Fatal("the idle connection was never pinged")
	}
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	ev.commit(t, "plan", 1)
	select {
	case <-ev.resyncs:
		t.Fatal("the listener reconnected while idle")
	default:
	}
}

// isUnreachable checks err is what a caller is told when the database
// does not answer.
func isUnreachable(t *testing.T, what string, err error) {
	t.Helper()
	var e *store.Error
	if !errors.As(err, &e) || e.Code != store.CodeIOError || e.Details["retryable"] != true || e.Details["retryAfterSec"] != 2 ||
		!strings.Contains(e.Message, "the database cannot be reached; try again shortly") {
		t.Fatalf("%s: %v %+v", what, err, e)
	}
}

// agreeRows checks the scene's revision, its journal and its kept
// revisions and request ids say the same.
func agreeRows(t *testing.T, s *Store, pool *pgxpool.Pool, rev int64) {
	t.Helper()
	head, err := s.Head(bg, "plan")
	if err != nil || head.Revision != rev {
		t.Fatalf("head: %v %+v, want revision %d", err, head, rev)
	}
	var entries, newest, revisions, maxRevision int64
	if err := pool.QueryRow(bg, `SELECT (SELECT count(*) FROM journal), (SELECT coalesce(max(revision), 0) FROM journal),
		(SELECT count(*) FROM revisions), (SELECT coalesce(max(revision), 0) FROM revisions)`).Scan(&entries, &newest, &revisions, &maxRevision); err != nil {
		t.Fatal(err)
	}
	if entries != rev || newest != rev || revisions != rev-1 || maxRevision != rev-1 {
		t.Fatalf("revision %d: %d entries up to %d, %d kept revisions up to %d", rev, entries, newest, revisions, maxRevision)
	}
}

// While the database restarts underneath, a Save fails with io_error,
// retryable; after it, the same call succeeds on the same Store. A
// commit whose connection dies before it commits leaves nothing of
// itself: the scene's revision and journal agree. The Listener comes
// back by itself and resyncs.
func TestDatabaseRestart(t *testing.T) {
	dsn := pgtest.DSN(t)
	if err := pgtest.Restartable(); err != nil {
		testenv.Missing(t, err.Error())
	}
	pool := openPool(t, dsn)
	s := openStore(t, pool, Options{Codec: storetest.DiffCodec{}, Logger: zaptest.NewLogger(t)})
	ev, stop := listen(t, s.Listener())
	defer stop()
	ev.resynced(t)
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	ev.commit(t, "plan", 1)

	req := store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: storetest.Doc(2, "b"), Actor: store.ActorUI, RequestID: "tab:1"}
	pgtest.Restart(t, func() {
		_, err := s.Save(bg, req)
		isUnreachable(t, "a save while the database is down", err)
		_, err = s.Read(bg, "plan")
		isUnreachable(t, "a read while the database is down", err)
	})
	res, err := s.Save(bg, req)
	if err != nil || res.Revision != 2 || res.Duplicate {
		t.Fatalf("the same save after the restart: %v %+v", err, res)
	}
	agreeRows(t, s, pool, 2)
	// The listener connects again by itself; from then on, commits reach
	// it. Whether revision 2 was notified depends on whether it was
	// back before the save committed (its resync covers it if not); in
	// either case nothing goes back.
	ev.resynced(t)
	save(t, s, 2, "c")
	ev.through(t, "plan", 3)

	// The server goes down while the commit holds its row lock.
	upd := store.UpdateRequest{Name: "plan", ExpectedRevision: 3, Actor: store.ActorAgent, RequestID: "u:1",
		Mutate: func(*store.Scene) ([]byte, error) { return storetest.Doc(3, "d"), nil }}
	restartIn := upd
	restartIn.Mutate = func(sc *store.Scene) ([]byte, error) {
		pgtest.Restart(t, nil)
		return upd.Mutate(sc)
	}
	_, err = s.Update(bg, restartIn)
	isUnreachable(t, "an update whose connection died", err)
	agreeRows(t, s, pool, 3)
	var remembered int
	if err := pool.QueryRow(bg, `SELECT count(*) FROM requests WHERE request_id = 'u:1'`).Scan(&remembered); err != nil || remembered != 0 {
		t.Fatalf("the failed update's request id is remembered: %d %v", remembered, err)
	}
	ev.resynced(t)
	res, err = s.Update(bg, upd)
	if err != nil || res.Revision != 4 || res.Duplicate {
		t.Fatalf("the update again: %v %+v", err, res)
	}
	ev.commit(t, "plan", 4)
	agreeRows(t, s, pool, 4)
}

// A cancelled context is the caller's: scene_busy wrapping it, never the
// database's "cannot be reached".
func TestCancelIsNotUnreachable(t *testing.T) {
	s := openStore(t, openPool(t, pgtest.DSN(t)), Options{})
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	cancelled := func(what string, err error) {
		t.Helper()
		var e *store.Error
		if !errors.As(err, &e) || e.Code != store.CodeSceneBusy || !errors.Is(err, context.Canceled) || e.Details["retryable"] != nil {
			t.Fatalf("%s: %v %+v", what, err, e)
		}
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := s.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: storetest.Doc(1, "b"), Actor: store.ActorUI})
	cancelled("save", err)
	_, err = s.Read(ctx, "plan")
	cancelled("read", err)
	ctx, cancel = context.WithCancel(bg)
	_, err = s.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 1, Actor: store.ActorAgent,
		Mutate: func(*store.Scene) ([]byte, error) { cancel(); return storetest.Doc(1, "c"), nil }})
	cancelled("update cancelled in the middle", err)
	if head, _ := s.Head(bg, "plan"); head.Revision != 1 {
		t.Fatalf("the cancelled update landed: %d", head.Revision)
	}
}

// Retention drops the bytes of the revisions before the oldest entry it
// keeps: ReadRevision of those is not_found, as the file store's of a
// pruned backup.
func TestRetentionDropsRevisions(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	s := openStore(t, pool, Options{Journal: store.JournalOptions{MaxEntries: 3}})
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(2, "r1"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	for rev := int64(1); rev < 10; rev++ {
		save(t, s, rev, fmt.Sprint("r", rev+1))
	}
	page, err := s.Log(bg, store.LogQuery{Name: "plan"})
	if err != nil || len(page.Entries) != 4 || page.Entries[3].Revision != 7 {
		t.Fatalf("log: %v %+v", err, page)
	}
	if _, err := s.ReadRevision(bg, "plan", 6); store.CodeOf(err) != store.CodeNotFound {
		t.Fatalf("a dropped revision: %v", err)
	}
	for _, rev := range []int64{7, 9, 10} {
		if data, err := s.ReadRevision(bg, "plan", rev); err != nil || string(data) != string(storetest.Doc(2, fmt.Sprint("r", rev))) {
			t.Fatalf("revision %d: %v %q", rev, err, data)
		}
	}
	var n int
	if err := pool.QueryRow(bg, `SELECT count(*) FROM revisions`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("%d revisions kept (%v), want 7 to 9", n, err)
	}
}

// Without a journal, commits write no entries, and the same rules keep
// the superseded revisions.
func TestJournalDisabled(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	s := openStore(t, pool, Options{Journal: store.JournalOptions{Disabled: true, MaxEntries: 3}})
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(2, "r1"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	for rev := int64(1); rev < 10; rev++ {
		save(t, s, rev, fmt.Sprint("r", rev+1))
	}
	page, err := s.Log(bg, store.LogQuery{Name: "plan"})
	if err != nil || len(page.Entries) != 0 || page.Revision != 10 {
		t.Fatalf("log: %v %+v", err, page)
	}
	if _, err := s.ReadRevision(bg, "plan", 6); store.CodeOf(err) != store.CodeNotFound {
		t.Fatalf("a dropped revision: %v", err)
	}
	if data, err := s.ReadRevision(bg, "plan", 9); err != nil || string(data) != string(storetest.Doc(2, "r9")) {
		t.Fatalf("revision 9: %v %q", err, data)
	}
}

// Open refuses a database without the schema, saying where it comes
// from; Close makes later calls fail.
func TestOpenAndClose(t *testing.T) {
	ctx := bg
	dsn := pgtest.DSN(t)
	bare, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if _, err := Open(ctx, Options{Pool: bare, Codec: storetest.Codec{}}); err == nil || !strings.Contains(err.Error(), "pgdb.Open") {
		t.Fatalf("open without the schema: %v", err)
	}
	if _, err := Open(ctx, Options{Codec: storetest.Codec{}}); err == nil {
		t.Fatal("open without a pool")
	}
	pool := openPool(t, dsn)
	s := openStore(t, pool, Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(ctx, "plan"); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("a read after Close: %v", err)
	}
	if _, err := s.Create(ctx, store.CreateRequest{Name: "plan", Data: storetest.Doc(1, "a"), Actor: store.ActorAgent}); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("a create after Close: %v", err)
	}
	if err := pool.Ping(ctx); err != nil {
		t.Fatalf("Close closed the caller's pool: %v", err)
	}
}

// KeepRevisions keeps the bytes of that many superseded revisions, as
// the file store's KeepBackups keeps backups.
func TestKeepRevisions(t *testing.T) {
	s := openStore(t, openPool(t, pgtest.DSN(t)), Options{KeepRevisions: 2})
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(2, "r1"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	for rev := int64(1); rev < 6; rev++ {
		save(t, s, rev, fmt.Sprint("r", rev+1))
	}
	for rev := int64(1); rev <= 3; rev++ {
		if _, err := s.ReadRevision(bg, "plan", rev); store.CodeOf(err) != store.CodeNotFound {
			t.Fatalf("revision %d, beyond KeepRevisions: %v", rev, err)
		}
	}
	for _, rev := range []int64{4, 5, 6} {
		if data, err := s.ReadRevision(bg, "plan", rev); err != nil || string(data) != string(storetest.Doc(2, fmt.Sprint("r", rev))) {
			t.Fatalf("revision %d: %v %q", rev, err, data)
		}
	}
	if es, err := s.Log(bg, store.LogQuery{Name: "plan"}); err != nil || len(es.Entries) != 6 {
		t.Fatalf("the journal keeps its entries: %v %+v", err, es)
	}
}

// An element id with U+0000, which the journal would list and PostgreSQL
// cannot keep, is refused as invalid_scene, saying why, and commits
// nothing.
func TestNULElementID(t *testing.T) {
	s := openStore(t, openPool(t, pgtest.DSN(t)), Options{Codec: storetest.DiffCodec{}})
	if _, err := s.Create(context.Background(), store.CreateRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 0, "x")), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Save(context.Background(), store.SaveRequest{Name: "plan", Data: storetest.DocOf(`{"id":"a\u0000b","type":"rectangle","x":1,"tag":"y"}`), ExpectedRevision: 1, Actor: store.ActorUI})
	var se *store.Error
	if !errors.As(err, &se) || se.Code != store.CodeInvalidScene || !strings.Contains(se.Message, "U+0000") {
		t.Fatalf("save with a NUL in an id: %v", err)
	}
	if h, _ := s.Head(context.Background(), "plan"); h.Revision != 1 {
		t.Fatalf("revision %d after the refused save", h.Revision)
	}
}
