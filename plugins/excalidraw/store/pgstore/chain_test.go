package pgstore

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// edits makes one-element changes of a document of n elements: next
// changes element i*7 mod n and returns the new bytes.
type edits struct {
	els []string
	i   int
}

func newEdits(n int) *edits {
	e := &edits{els: make([]string, n)}
	for i := range e.els {
		e.els[i] = storetest.El(fmt.Sprintf("e%d", i), i*10, "a")
	}
	return e
}

func (e *edits) doc() []byte { return storetest.DocOf(e.els...) }

func (e *edits) next() []byte {
	e.i++
	at := e.i * 7 % len(e.els)
	e.els[at] = storetest.El(fmt.Sprintf("e%d", at), 100000+e.i, "b")
	return e.doc()
}

// rowStats are how scene name's bytes are stored: rows that are deltas
// and snapshots (scene row and revisions), the largest delta, hidden
// links.
func rowStats(t *testing.T, pool *pgxpool.Pool, name string) (deltas, wholes, largest, hidden int) {
	t.Helper()
	err := pool.QueryRow(bg, `WITH x AS (SELECT base, data, true AS kept FROM scenes WHERE name = $1
			UNION ALL SELECT base, data, kept FROM revisions WHERE name = $1 AND NOT corrupt)
		SELECT count(*) FILTER (WHERE base IS NOT NULL), count(*) FILTER (WHERE base IS NULL),
			coalesce(max(octet_length(data)) FILTER (WHERE base IS NOT NULL), 0), count(*) FILTER (WHERE NOT kept) FROM x`, name).
		Scan(&deltas, &wholes, &largest, &hidden)
	if err != nil {
		t.Fatal(err)
	}
	return
}

// One-element commits are stored as deltas the size of the change, with
// a snapshot every maxChain commits; every revision reads back byte for
// byte from any node: the one that wrote it, one whose copy is some
// commits old (it rebuilds from its copy), one that keeps no copy, and
// through an archive restored into another database.
func TestDeltaHistoryAcrossNodes(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	a := openStore(t, pool, Options{KeepRevisions: -1})
	b := openStore(t, pool, Options{KeepRevisions: -1})
	cold := openStore(t, pool, Options{KeepRevisions: -1, CacheBytes: -1})
	e := newEdits(400)
	docs := map[int64][]byte{1: e.doc()}
	if _, err := a.Create(bg, store.CreateRequest{Name: "plan", Data: docs[1], Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	const commits = 2*maxChain + 10
	rev := int64(1)
	for i := range commits {
		w := a
		if i%9 == 4 {
			w = b // the other node commits now and then: its copy is behind
		}
		data := e.next()
		res, err := w.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: data, Actor: store.ActorUI})
		if err != nil {
			t.Fatal(err)
		}
		rev = res.Revision
		docs[rev] = data
		if i%13 == 0 { // b reads: from its copy some commits back, through the deltas since
			sc, err := b.Read(bg, "plan")
			if err != nil || sc.Revision != rev || !bytes.Equal(sc.Data, data) {
				t.Fatalf("b reads revision %d: %v", rev, err)
			}
		}
	}
	deltas, wholes, largest, _ := rowStats(t, pool, "plan")
	if wholes < commits/maxChain || wholes > commits/maxChain+2 || deltas != commits+1-wholes {
		t.Fatalf("%d rows whole, %d deltas over %d commits", wholes, deltas, commits)
	}
	if elSize := len(e.els[0]); largest > 3*elSize {
		t.Fatalf("a delta of %d bytes for a one-element change (elements of %d bytes, documents of %d)", largest, elSize, len(docs[1]))
	}
	for _, s := range []*Store{a, b, cold} {
		sc, err := s.Read(bg, "plan")
		if err != nil || sc.Revision != rev || !bytes.Equal(sc.Data, docs[rev]) || sc.ByteLength != int64(len(docs[rev])) {
			t.Fatalf("read: %v", err)
		}
	}
	for r := int64(1); r <= rev; r++ {
		data, err := cold.ReadRevision(bg, "plan", r)
		if err != nil || !bytes.Equal(data, docs[r]) {
			t.Fatalf("revision %d: %v", r, err)
		}
	}

	// An archive has every revision whole; restored elsewhere, it reads
	// the same and archives the same.
	ar := mustArchive(t, a, "plan")
	if len(ar.Revisions) != int(rev-1) {
		t.Fatalf("%d revisions archived, want %d", len(ar.Revisions), rev-1)
	}
	for _, v := range ar.Revisions {
		if !bytes.Equal(v.Data, docs[v.Revision]) {
			t.Fatalf("archived revision %d differs", v.Revision)
		}
	}
	other := openStore(t, openPool(t, pgtest.DSN(t)), Options{KeepRevisions: -1})
	mustRestore(t, other, ar, store.RestoreWritten)
	sameArchive(t, "restored", mustArchive(t, other, "plan"), ar)
	mustRestore(t, a, ar, store.RestoreUnchanged)
	for r := int64(1); r <= rev; r++ {
		if data, err := other.ReadRevision(bg, "plan", r); err != nil || !bytes.Equal(data, docs[r]) {
			t.Fatalf("restored revision %d: %v", r, err)
		}
	}
	// The restored scene goes on in deltas over its whole rows.
	res, err := other.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: e.next(), Actor: store.ActorUI})
	if err != nil || res.Revision != rev+1 {
		t.Fatalf("save over the restored scene: %v", err)
	}
}

// Retention keeps a dropped revision that a kept one is rebuilt through
// as a hidden link: ReadRevision of it is not_found, the kept ones read
// back exactly, and the links go once no kept revision needs them.
func TestDeltaRetentionKeepsLinks(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	const keep = 5
	s := openStore(t, pool, Options{KeepRevisions: keep})
	cold := openStore(t, pool, Options{KeepRevisions: keep, CacheBytes: -1})
	e := newEdits(300)
	docs := map[int64][]byte{1: e.doc()}
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: docs[1], Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	rev := int64(1)
	sawHidden := false
	for range 3 * maxChain {
		data := e.next()
		res, err := s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: data, Actor: store.ActorUI})
		if err != nil {
			t.Fatal(err)
		}
		rev = res.Revision
		docs[rev] = data
		_, _, _, hidden := rowStats(t, pool, "plan")
		sawHidden = sawHidden || hidden > 0
		var rows int
		if err := pool.QueryRow(bg, `SELECT count(*) FROM revisions WHERE name = 'plan'`).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows > keep+maxChain+1 {
			t.Fatalf("revision %d: %d revision rows kept (%d hidden)", rev, rows, hidden)
		}
		for r := max(rev-keep, 1); r <= rev; r++ {
			if data, err := cold.ReadRevision(bg, "plan", r); err != nil || !bytes.Equal(data, docs[r]) {
				t.Fatalf("at %d, kept revision %d: %v", rev, r, err)
			}
		}
		if r := rev - keep - 1; r >= 1 {
			if _, err := cold.ReadRevision(bg, "plan", r); store.CodeOf(err) != store.CodeNotFound {
				t.Fatalf("at %d, dropped revision %d: %v", rev, r, err)
			}
		}
	}
	if !sawHidden {
		t.Fatal("no revision was ever kept only as a link")
	}
	if sc, err := cold.Read(bg, "plan"); err != nil || !bytes.Equal(sc.Data, docs[rev]) {
		t.Fatalf("read: %v", err)
	}
	ar := mustArchive(t, cold, "plan")
	if len(ar.Revisions) != keep {
		t.Fatalf("archive: revisions %v, want the last %d", revisionKeys(ar), keep)
	}
}

// A row whose delta does not rebuild to its record's SHA-256 is
// io_error, never other bytes.
func TestDeltaCorruptRowRefused(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	s := openStore(t, pool, Options{})
	e := newEdits(200)
	if _, err := s.Create(bg, store.CreateRequest{Name: "plan", Data: e.doc(), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: e.next(), Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	// The inserted bytes of the delta changed in place (x 100001 to 900001).
	tag, err := pool.Exec(bg, `UPDATE scenes SET data = overlay(data PLACING '9'::bytea FROM position('100001'::bytea IN data))
		WHERE name = 'plan' AND base IS NOT NULL AND position('100001'::bytea IN data) > 0`)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("corrupt the delta: %v %v", tag, err)
	}
	cold := openStore(t, pool, Options{CacheBytes: -1})
	if _, err := cold.Read(bg, "plan"); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("read: %v", err)
	}
	if _, err := cold.ReadRevision(bg, "plan", 2); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("read revision: %v", err)
	}
	if _, err := cold.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 2, Data: e.next(), Actor: store.ActorUI}); store.CodeOf(err) != store.CodeIOError {
		t.Fatalf("save over it: %v", err)
	}
}
