package pgstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap/zaptest"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// stepClock is a clock that moves on by a little over a millisecond at
// every reading, so that the times it gives have digits below the
// millisecond, which the stores do not keep.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func newStepClock() *stepClock {
	return &stepClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(1234567 * time.Nanosecond)
	return c.now
}

// fileStore opens a file store on a fresh drawings directory, its codec
// a Differ (so its journal keeps before-images).
func fileStore(t *testing.T, dir string, now func() time.Time) *store.Store {
	t.Helper()
	if dir == "" {
		dir = filepath.Join(t.TempDir(), "drawings")
	}
	s, err := store.Open(store.Options{Dir: dir, Codec: storetest.DiffCodec{}, Now: now, Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// pgStore opens a Store on a fresh database, with a Differ, and returns
// its pool too.
func pgStore(t *testing.T, now func() time.Time) (*Store, *pgxpool.Pool) {
	t.Helper()
	pool := openPool(t, pgtest.DSN(t))
	return openStore(t, pool, Options{Codec: storetest.DiffCodec{}, Now: now, Logger: zaptest.NewLogger(t)}), pool
}

// historyOf gives scene "plan" of the file store in dir every kind of
// commit: created, saved, updated, force-saved (with before-images),
// edited by hand and recorded by recovery, made corrupt and restored from
// its backup by recovery (so a corrupt copy is kept), and saved again;
// most with request ids and attributions. Scene "other" is there too.
func historyOf(t *testing.T, s *store.Store, dir string) {
	t.Helper()
	must := func(_ *store.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(2, "one"), Actor: store.ActorAgent, RequestID: "c1",
		Attribution: store.Attribution{Name: "claude", Bot: "bot-1", Via: "batch_create", Note: "first <draft> & \"more\" — ünïcode"}}))
	must(s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: storetest.Doc(3, "two"), Actor: store.ActorUI,
		RequestID: "s2", Attribution: store.Attribution{Name: "ann", Person: "ann@example.com", Via: "PUT scene"}}))
	must(s.Update(bg, store.UpdateRequest{Name: "plan", AnyRevision: true, Actor: store.ActorAgent, RequestID: "u3",
		Mutate: func(*store.Scene) ([]byte, error) {
			return storetest.DocOf(storetest.El("e0", 5, "three"), storetest.El("e9", 90, "new")), nil
		}}))
	must(s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Force: true, Data: storetest.Doc(2, "four"), Actor: store.ActorUI}))
	scene := filepath.Join(dir, "plan.excalidraw")
	for _, data := range [][]byte{storetest.Doc(2, "by hand"), []byte("garbage")} {
		if err := os.WriteFile(scene, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if sc, err := s.Read(bg, "plan"); err != nil || sc.UpdatedBy != store.ActorRecovery {
			t.Fatalf("the file store did not record the change: %+v %v", sc, err)
		}
	}
	head, err := s.Head(bg, "plan")
	if err != nil {
		t.Fatal(err)
	}
	must(s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: head.Revision, Data: storetest.Doc(4, "last"), Actor: store.ActorAgent,
		RequestID: "s7", Attribution: store.Attribution{Name: "claude", Undoes: "01ABC", Mode: "revert"}}))
	must(s.Create(bg, store.CreateRequest{Name: "other", Data: storetest.Doc(1, "other"), Actor: store.ActorAgent}))
}

// historyArchive is the archive of "plan" of a file store with
// historyOf's history, with the store and its directory.
func historyArchive(t *testing.T) (*store.SceneArchive, *store.Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "drawings")
	fsrc := fileStore(t, dir, newStepClock().Now)
	historyOf(t, fsrc, dir)
	a := mustArchive(t, fsrc, "plan")
	// What makes the history worth copying: it has all of these.
	images, corrupt := 0, 0
	for _, c := range a.Journal {
		if c.Images != nil && len(c.Images.Before) > 0 {
			images++
		}
	}
	for _, r := range a.Revisions {
		if r.Corrupt {
			corrupt++
		}
	}
	if len(a.Journal) != int(a.Meta.Revision) || images < 3 || corrupt != 1 || len(a.Requests) != 4 {
		t.Fatalf("history: %d commits (%d with images) for revision %d, %d corrupt copies, %d request ids",
			len(a.Journal), images, a.Meta.Revision, corrupt, len(a.Requests))
	}
	return a, fsrc, dir
}

func mustArchive(t *testing.T, s store.Archiver, name string) *store.SceneArchive {
	t.Helper()
	a, err := s.Archive(bg, name)
	if err != nil {
		t.Fatalf("Archive %s: %v", name, err)
	}
	return a
}

func mustRestore(t *testing.T, s store.Archiver, a *store.SceneArchive, want store.RestoreOutcome) {
	t.Helper()
	if out, err := s.Restore(bg, a); err != nil || out != want {
		t.Fatalf("Restore: %q %v, want %q", out, err, want)
	}
}

// sameArchive fails t unless got is want, field by field and byte for
// byte (and so as JSON, how a migration may carry it).
func sameArchive(t *testing.T, what string, got, want *store.SceneArchive) {
	t.Helper()
	if !reflect.DeepEqual(got.Meta, want.Meta) {
		t.Fatalf("%s: meta %+v, want %+v", what, got.Meta, want.Meta)
	}
	if !bytes.Equal(got.Data, want.Data) {
		t.Fatalf("%s: data %q, want %q", what, got.Data, want.Data)
	}
	if !reflect.DeepEqual(got.Requests, want.Requests) {
		t.Fatalf("%s: requests %+v, want %+v", what, got.Requests, want.Requests)
	}
	if len(got.Journal) != len(want.Journal) {
		t.Fatalf("%s: %d commits, want %d", what, len(got.Journal), len(want.Journal))
	}
	for i := range got.Journal {
		if g, w := got.Journal[i], want.Journal[i]; !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: commit %d: %+v %+v, want %+v %+v", what, i, g.Entry, g.Images, w.Entry, w.Images)
		}
	}
	if !reflect.DeepEqual(got.Revisions, want.Revisions) {
		t.Fatalf("%s: kept revisions %v, want %v", what, revisionKeys(got), revisionKeys(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: archives differ", what)
	}
	gj, err1 := json.Marshal(got)
	wj, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil || !bytes.Equal(gj, wj) {
		t.Fatalf("%s: archives differ as JSON (%v %v)", what, err1, err2)
	}
}

func revisionKeys(a *store.SceneArchive) []string {
	var out []string
	for _, r := range a.Revisions {
		k := strconv.FormatInt(r.Revision, 10)
		if r.Corrupt {
			k += "c"
		}
		out = append(out, k)
	}
	return out
}

// sceneFiles are the files of scene name in a file store's directory
// (its scene file, sidecar, journal and backups), path to bytes.
func sceneFiles(t *testing.T, dir, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), name+".") || filepath.Base(filepath.Dir(path)) == "locks" {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dbState is everything the database holds of scenes: every row of the
// scene tables with its xmin (the transaction that last wrote it).
func dbState(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var out string
	err := pool.QueryRow(bg, `SELECT concat_ws(E'\n',
		(SELECT coalesce(string_agg(xmin::text || ' ' || s::text, E'\n' ORDER BY name), '') FROM scenes s),
		(SELECT coalesce(string_agg(xmin::text || ' ' || r::text, E'\n' ORDER BY name, ord), '') FROM requests r),
		(SELECT coalesce(string_agg(xmin::text || ' ' || j::text, E'\n' ORDER BY name, seq), '') FROM journal j),
		(SELECT coalesce(string_agg(xmin::text || ' ' || v::text, E'\n' ORDER BY name, revision, corrupt), '') FROM revisions v))`).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameState fails t unless the database's state is before (dbState).
func sameState(t *testing.T, pool *pgxpool.Pool, what, before string) {
	t.Helper()
	after := dbState(t, pool)
	if after == before {
		return
	}
	a, b := strings.Split(after, "\n"), strings.Split(before, "\n")
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			t.Fatalf("%s: the database changed: %d rows, were %d; row %d differs", what, len(a), len(b), i)
		}
	}
}

// ordCounter is where the request ids' order counter is: a statement
// that inserted one, even one rolled back, moved it on.
func ordCounter(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var out string
	if err := pool.QueryRow(bg, `SELECT last_value::text || ' ' || is_called::text FROM requests_ord_seq`).Scan(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// rowsOf counts scene name's rows in the scene tables.
func rowsOf(t *testing.T, pool *pgxpool.Pool, name string) [4]int {
	t.Helper()
	var n [4]int
	if err := pool.QueryRow(bg, `SELECT (SELECT count(*) FROM scenes WHERE name = $1), (SELECT count(*) FROM requests WHERE name = $1),
		(SELECT count(*) FROM journal WHERE name = $1), (SELECT count(*) FROM revisions WHERE name = $1)`, name).
		Scan(&n[0], &n[1], &n[2], &n[3]); err != nil {
		t.Fatal(err)
	}
	return n
}

// A scene goes from the file store to PostgreSQL and back without losing
// a byte: the database's archive of the restored scene is the file
// store's, and so is that of a file store it is restored into from
// there, whose files are the first one's. The restore is notified to
// the nodes' Listeners, was committed by no node, and takes the next
// commit from where the archive left off.
func TestRoundTripFileStorePostgresFileStore(t *testing.T) {
	a, fsrc, srcDir := historyArchive(t)
	pg, pool := pgStore(t, newStepClock().Now)
	other := openStore(t, pool, Options{Codec: storetest.DiffCodec{}})
	ev, stop := listen(t, other.Listener())
	defer stop()
	ev.resynced(t)

	mustRestore(t, pg, a, store.RestoreWritten)
	ev.commit(t, "plan", a.Meta.Revision)
	if got, want := rowsOf(t, pool, "plan"), [4]int{1, len(a.Requests), len(a.Journal), len(a.Revisions)}; got != want {
		t.Fatalf("rows %v, want %v", got, want)
	}
	if n := rowsOf(t, pool, "other"); n != [4]int{} {
		t.Fatalf("rows of other: %v", n)
	}
	b := mustArchive(t, pg, "plan")
	sameArchive(t, "postgres", b, a)
	if pg.CommittedHere(bg, "plan") || other.CommittedHere(bg, "plan") {
		t.Fatal("a restored revision counts as committed by a node")
	}

	dstDir := filepath.Join(t.TempDir(), "drawings")
	fdst := fileStore(t, dstDir, nil)
	mustRestore(t, fdst, b, store.RestoreWritten)
	sameArchive(t, "file store again", mustArchive(t, fdst, "plan"), a)
	if got, want := sceneFiles(t, dstDir, "plan"), sceneFiles(t, srcDir, "plan"); len(want) != 3+len(a.Revisions) || !maps.Equal(got, want) {
		t.Fatalf("the files of the round trip differ:\n%v\nwant\n%v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	// And back again: the same scene, so unchanged.
	mustRestore(t, pg, mustArchive(t, fdst, "plan"), store.RestoreUnchanged)

	// What is served of it is what the file store serves.
	sameReads(t, pg, fsrc, a)

	// Every remembered request id is a duplicate of its original commit.
	for _, r := range a.Requests {
		res, err := pg.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: storetest.Doc(9, "retry"), Actor: store.ActorAgent, RequestID: r.ID})
		if err != nil || !res.Duplicate || res.Revision != r.Revision || res.SHA256 != r.SHA256 || res.ByteLength != r.ByteLength ||
			res.ElementCount != r.ElementCount || !res.SavedAt.Equal(r.At) {
			t.Fatalf("retry of %s: %+v %v, want %+v", r.ID, res, err, r)
		}
	}
	// The next commit follows the archived one, its revision and its
	// journal's sequence.
	next, err := pg.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: a.Meta.Revision, Data: storetest.Doc(5, "next"),
		Actor: store.ActorUI, RequestID: "n8"})
	if err != nil || next.Revision != a.Meta.Revision+1 || next.PreviousRevision != a.Meta.Revision || next.PreviousSHA256 != a.Meta.SHA256 {
		t.Fatalf("next commit %+v %v", next, err)
	}
	ev.commit(t, "plan", next.Revision) // and nothing between: the unchanged Restore and the duplicates notified nothing
	if got, err := pg.ReadRevision(bg, "plan", a.Meta.Revision); err != nil || !bytes.Equal(got, a.Data) {
		t.Fatalf("the restored revision once superseded: %q %v", got, err)
	}
	p, err := pg.Log(bg, store.LogQuery{Name: "plan", Limit: 1})
	last := a.Journal[len(a.Journal)-1].Entry
	if err != nil || len(p.Entries) != 1 || p.Entries[0].Seq != last.Seq+1 || p.Entries[0].PreviousRevision != a.Meta.Revision ||
		p.Entries[0].RequestID != "n8" || len(p.Entries[0].Created) != 1 {
		t.Fatalf("next entry %+v %v", p.Entries, err)
	}
	after := mustArchive(t, pg, "plan")
	if ids := requestIDs(after); !slices.Equal(ids, []string{"c1", "s2", "u3", "s7", "n8"}) {
		t.Fatalf("request ids after the next commit %v", ids)
	}
	if r := after.Requests[4]; r.Revision != next.Revision || r.SHA256 != next.SHA256 || r.ByteLength != next.ByteLength ||
		r.ElementCount != 5 || !r.At.Equal(next.UpdatedAt) {
		t.Fatalf("the record of a request id committed on PostgreSQL %+v, commit %+v", r, next.Meta)
	}

	// A scene with PostgreSQL's own commits goes to the file store and
	// back unchanged too.
	back := fileStore(t, "", nil)
	mustRestore(t, back, after, store.RestoreWritten)
	sameArchive(t, "file store from postgres", mustArchive(t, back, "plan"), after)
	mustRestore(t, pg, mustArchive(t, back, "plan"), store.RestoreUnchanged)
}

func requestIDs(a *store.SceneArchive) []string {
	var ids []string
	for _, r := range a.Requests {
		ids = append(ids, r.ID)
	}
	return ids
}

// sameReads fails t unless pg, holding archive a's scene, answers Head,
// Read, Log (every page of several queries), Commit and ReadRevision as
// fsrc, the file store a was taken from, does. (Log's cursors are each
// backend's own: their pages are compared, not their cursors.)
func sameReads(t *testing.T, pg *Store, fsrc *store.Store, a *store.SceneArchive) {
	t.Helper()
	backends := []store.Backend{pg, fsrc}
	for _, b := range backends {
		sc, err := b.Read(bg, "plan")
		if err != nil || !reflect.DeepEqual(sc.Meta, a.Meta) || !bytes.Equal(sc.Data, a.Data) {
			t.Fatalf("%T: read %+v %v", b, sc, err)
		}
		if m, err := b.Head(bg, "plan"); err != nil || !reflect.DeepEqual(m, a.Meta) {
			t.Fatalf("%T: head %+v %v", b, m, err)
		}
	}
	mid := a.Journal[2].Entry.At
	at, _ := time.Parse(time.RFC3339Nano, mid)
	for _, q := range []store.LogQuery{
		{Limit: 2},
		{Limit: 100},
		{Actor: "claude"},
		{Actor: string(store.ActorRecovery), Limit: 1},
		{Element: "e1", Limit: 1},
		{Element: "e9"},
		{MinRevision: 2, MaxRevision: 5, Limit: 2},
		{Since: at, Limit: 2},
		{Until: at},
	} {
		q.Name = "plan"
		got, want := logPages(t, pg, q), logPages(t, fsrc, q)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("log %+v:\n%+v\nwant\n%+v", q, got, want)
		}
	}
	for _, c := range a.Journal {
		e, im, err := pg.Commit(bg, "plan", c.Entry.Commit)
		fe, fim, ferr := fsrc.Commit(bg, "plan", c.Entry.Commit)
		if err != nil || ferr != nil || !reflect.DeepEqual(e, fe) || !reflect.DeepEqual(im, fim) || !reflect.DeepEqual(*e, c.Entry) {
			t.Fatalf("commit %s: %+v %+v %v, file store %+v %+v %v", c.Entry.Commit, e, im, err, fe, fim, ferr)
		}
	}
	for _, b := range backends {
		if _, _, err := b.Commit(bg, "plan", "01NOSUCHCOMMIT"); store.CodeOf(err) != store.CodeNotFound {
			t.Fatalf("%T: an unknown commit: %v", b, err)
		}
	}
	// Every revision but the current one, which PostgreSQL serves from
	// the scene's row and the file store only once it is superseded.
	for rev := range a.Meta.Revision + 3 {
		if rev == a.Meta.Revision {
			continue
		}
		got, err := pg.ReadRevision(bg, "plan", rev)
		want, ferr := fsrc.ReadRevision(bg, "plan", rev)
		if !bytes.Equal(got, want) || store.CodeOf(err) != store.CodeOf(ferr) || (err == nil) != (ferr == nil) {
			t.Fatalf("revision %d: %q %v, file store %q %v", rev, got, err, want, ferr)
		}
	}
}

// logPage is what a page of Log says, but its cursor: whether there is
// a next page.
type logPage struct {
	Revision int64
	Entries  []journal.Entry
	More     bool
}

// logPages is every page of q, following the cursors.
func logPages(t *testing.T, b store.Backend, q store.LogQuery) []logPage {
	t.Helper()
	var out []logPage
	for {
		p, err := b.Log(bg, q)
		if err != nil {
			t.Fatalf("%T: log %+v: %v", b, q, err)
		}
		out = append(out, logPage{p.Revision, p.Entries, p.Next != ""})
		if p.Next == "" {
			return out
		}
		q.Cursor = p.Next
	}
}

// A Restore run again over the scene it wrote, or over one written as
// the same archive since, is unchanged and writes nothing; over a scene
// of the name that is not the archived one, already_exists, saying what
// differs, and nothing is changed.
func TestRestoreOverAScene(t *testing.T) {
	a, _, _ := historyArchive(t)
	pg, pool := pgStore(t, nil)
	mustRestore(t, pg, a, store.RestoreWritten)
	before, counter := dbState(t, pool), ordCounter(t, pool)
	for range 2 {
		mustRestore(t, pg, a, store.RestoreUnchanged)
	}
	sameState(t, pool, "an unchanged Restore", before)
	if got := ordCounter(t, pool); got != counter {
		t.Fatalf("an unchanged Restore inserted request ids: counter %s, was %s", got, counter)
	}

	edit := func(f func(b *store.SceneArchive)) *store.SceneArchive {
		b := *a
		b.Requests, b.Journal, b.Revisions = slices.Clone(a.Requests), slices.Clone(a.Journal), slices.Clone(a.Revisions)
		f(&b)
		return &b
	}
	other := mustArchive(t, func() *store.Store {
		s := fileStore(t, "", nil)
		if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: storetest.Doc(1, "mine"), Actor: store.ActorUI, RequestID: "x"}); err != nil {
			t.Fatal(err)
		}
		return s
	}(), "plan")
	for _, tc := range []struct {
		name    string
		archive *store.SceneArchive
		differs []string
	}{
		{"another scene", other, []string{"revision", "sha256", "meta", "requests", "journal", "revisions"}},
		{"another record", edit(func(b *store.SceneArchive) { b.Meta.UpdatedByName = "someone else" }), []string{"meta"}},
		{"another time", edit(func(b *store.SceneArchive) { b.Meta.UpdatedAt = b.Meta.UpdatedAt.Add(time.Millisecond) }), []string{"meta"}},
		{"other request ids", edit(func(b *store.SceneArchive) { b.Requests = b.Requests[1:] }), []string{"requests"}},
		{"request ids in another order", edit(func(b *store.SceneArchive) { slices.Reverse(b.Requests) }), []string{"requests"}},
		{"another journal", edit(func(b *store.SceneArchive) { b.Journal = b.Journal[1:] }), []string{"journal"}},
		{"other images", edit(func(b *store.SceneArchive) { b.Journal[1].Images = nil }), []string{"journal"}},
		{"other kept revisions", edit(func(b *store.SceneArchive) { b.Revisions = b.Revisions[1:] }), []string{"revisions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := pg.Restore(bg, tc.archive)
			var e *store.Error
			if out != "" || !errors.As(err, &e) || e.Code != store.CodeAlreadyExists || !reflect.DeepEqual(e.Details["differs"], tc.differs) ||
				e.Details["name"] != "plan" || e.Details["revision"] != a.Meta.Revision || e.Details["sha256"] != a.Meta.SHA256 ||
				e.Details["archivedRevision"] != tc.archive.Meta.Revision || e.Details["archivedSha256"] != tc.archive.Meta.SHA256 {
				t.Fatalf("%q %v %+v", out, err, e)
			}
			sameState(t, pool, "a refused Restore", before)
		})
	}

	// Finer times than the store keeps are the same scene.
	finer := edit(func(b *store.SceneArchive) {
		b.Meta.UpdatedAt = b.Meta.UpdatedAt.Add(999 * time.Microsecond)
		b.Requests[0].At = b.Requests[0].At.Add(789)
	})
	mustRestore(t, pg, finer, store.RestoreUnchanged)

	// A later revision of the scene is not the archived one either.
	if _, err := pg.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: a.Meta.Revision, Data: storetest.Doc(1, "later"), Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	_, err := pg.Restore(bg, a)
	var e *store.Error
	if !errors.As(err, &e) || e.Code != store.CodeAlreadyExists ||
		!reflect.DeepEqual(e.Details["differs"], []string{"revision", "sha256", "meta", "journal", "revisions"}) {
		t.Fatalf("over a later revision: %v", err)
	}
}

// An archive is kept as it is, however a file store came to hold it:
// request ids in any order, times finer than the store keeps (kept to
// the millisecond), a kept copy of the current revision (a leftover
// backup), corrupt copies only; and such a scene takes commits on.
func TestRestoreKeepsOddArchives(t *testing.T) {
	a, _, _ := historyArchive(t)
	b := *a
	b.Requests = slices.Clone(a.Requests)
	slices.Reverse(b.Requests)
	b.Meta.UpdatedAt = b.Meta.UpdatedAt.Add(123456)
	b.Requests[0].At = b.Requests[0].At.Add(789 * time.Microsecond)
	b.Revisions = append(slices.Clone(a.Revisions), store.ArchivedRevision{Revision: a.Meta.Revision, Data: a.Data},
		store.ArchivedRevision{Revision: a.Meta.Revision + 1, Corrupt: true, Data: []byte("half a save")})
	pg, _ := pgStore(t, newStepClock().Now) // the archive's time: its journal not too old to keep
	mustRestore(t, pg, &b, store.RestoreWritten)
	mustRestore(t, pg, &b, store.RestoreUnchanged)
	got := mustArchive(t, pg, "plan")
	want := b
	want.Meta.UpdatedAt = b.Meta.UpdatedAt.Truncate(time.Millisecond)
	want.Requests = slices.Clone(b.Requests)
	want.Requests[0].At = b.Requests[0].At.Truncate(time.Millisecond)
	sameArchive(t, "postgres", got, &want)
	if _, err := pg.ReadRevision(bg, "plan", a.Meta.Revision+1); store.CodeOf(err) != store.CodeNotFound {
		t.Fatalf("a corrupt copy is served: %v", err)
	}
	res, err := pg.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: a.Meta.Revision, Data: storetest.Doc(1, "next"), Actor: store.ActorUI})
	if err != nil || res.Revision != a.Meta.Revision+1 {
		t.Fatalf("save after the restore: %+v %v", res, err)
	}
	if data, err := pg.ReadRevision(bg, "plan", a.Meta.Revision); err != nil || !bytes.Equal(data, a.Data) {
		t.Fatalf("revision %d: %q %v", a.Meta.Revision, data, err)
	}
	if data, err := pg.ReadRevision(bg, "plan", a.Meta.Revision+1); err != nil || !bytes.Equal(data, storetest.Doc(1, "next")) {
		t.Fatalf("the current revision beside its corrupt copy: %q %v", data, err)
	}
}

// A Restore that fails part way leaves nothing of the scene: the
// database refusing one of its journal rows (a commit id another scene
// has, text it cannot hold) rolls back the scene row and every row
// before it. An archive Check refuses writes nothing at all.
func TestRestoreIsAllOrNothing(t *testing.T) {
	a, _, _ := historyArchive(t)
	pg, pool := pgStore(t, nil)
	mustRestore(t, pg, a, store.RestoreWritten)
	before := dbState(t, pool)
	renamed := func(f func(b *store.SceneArchive)) *store.SceneArchive {
		b := *a
		b.Meta.Name = "copy"
		b.Journal = slices.Clone(a.Journal)
		for i := range b.Journal {
			b.Journal[i].Entry.Scene = "copy"
			b.Journal[i].Entry.Commit += "X"
		}
		f(&b)
		return &b
	}
	for _, tc := range []struct {
		name    string
		archive *store.SceneArchive
		code    string
	}{
		{"a commit id of another scene", renamed(func(b *store.SceneArchive) {
			b.Journal[len(b.Journal)-1].Entry.Commit = a.Journal[0].Entry.Commit
		}), store.CodeAlreadyExists},
		{"a NUL in a note", renamed(func(b *store.SceneArchive) { b.Journal[len(b.Journal)-1].Entry.Note = "nul \x00 here" }), store.CodeInvalidRequest},
		{"a NUL in the record", renamed(func(b *store.SceneArchive) { b.Meta.UpdatedByName = "nul \x00" }), store.CodeInvalidRequest},
		{"another scene's commit", renamed(func(b *store.SceneArchive) { b.Journal[0].Entry.Scene = "plan" }), store.CodeInvalidRequest},
		{"other bytes than its record's", renamed(func(b *store.SceneArchive) { b.Data = storetest.Doc(1, "other") }), store.CodeInvalidRequest},
		{"not a document", renamed(func(b *store.SceneArchive) { b.Data = []byte("garbage") }), store.CodeInvalidScene},
		{"no archive", nil, store.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, err := pg.Restore(bg, tc.archive); out != "" || store.CodeOf(err) != tc.code {
				t.Fatalf("%q %v, want %s", out, err, tc.code)
			}
			if n := rowsOf(t, pool, "copy"); n != [4]int{} {
				t.Fatalf("rows of the failed restore: %v", n)
			}
			sameState(t, pool, "a failed Restore", before)
		})
	}
	if _, err := pg.Head(bg, "copy"); store.CodeOf(err) != store.CodeNotFound {
		t.Fatalf("head of the failed restore: %v", err)
	}
	mustRestore(t, pg, renamed(func(*store.SceneArchive) {}), store.RestoreWritten)
}

// Of Restores of one archive racing on a new name, one writes the scene
// and the others find it there, unchanged.
func TestRestoreRace(t *testing.T) {
	a, _, _ := historyArchive(t)
	dsn := pgtest.DSN(t)
	nodes := []*Store{openStore(t, openPool(t, dsn), Options{Codec: storetest.DiffCodec{}}),
		openStore(t, openPool(t, dsn), Options{Codec: storetest.DiffCodec{}}), openStore(t, openPool(t, dsn), Options{Codec: storetest.DiffCodec{}})}
	outs := make([]store.RestoreOutcome, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, s := range nodes {
		wg.Go(func() { outs[i], errs[i] = s.Restore(bg, a) })
	}
	wg.Wait()
	written := 0
	for i := range nodes {
		switch {
		case errs[i] != nil:
			t.Fatalf("node %d: %v", i, errs[i])
		case outs[i] == store.RestoreWritten:
			written++
		case outs[i] != store.RestoreUnchanged:
			t.Fatalf("node %d: %q", i, outs[i])
		}
	}
	if written != 1 {
		t.Fatalf("outcomes %v", outs)
	}
	sameArchive(t, "postgres", mustArchive(t, nodes[0], "plan"), a)
}

// Archive is not_found for no scene and invalid_name for a bad name;
// a closed Store neither archives nor restores.
func TestArchiveErrors(t *testing.T) {
	pg, _ := pgStore(t, nil)
	if _, err := pg.Archive(bg, "missing"); store.CodeOf(err) != store.CodeNotFound {
		t.Fatalf("missing: %v", err)
	}
	if _, err := pg.Archive(bg, "../plan"); store.CodeOf(err) != store.CodeInvalidName {
		t.Fatalf("bad name: %v", err)
	}
	if err := pg.Close(); err != nil {
		t.Fatal(err)
	}
	a, _, _ := historyArchive(t)
	if _, err := pg.Restore(bg, a); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("restore after Close: %v", err)
	}
	if _, err := pg.Archive(bg, "plan"); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("archive after Close: %v", err)
	}
}
