package pgstore

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// A database written before deltas (schema 3: every scene row and kept
// revision whole, as the Store wrote them then) reads the same after
// migration 4, and its scenes go on in deltas from their whole rows:
// every revision, old and new, reads back byte for byte, and the
// journal, a remembered request id and the archive are whole.
func TestUpgradeFromWholeRows(t *testing.T) {
	dsn := pgtest.DSN(t)
	raw, err := pgxpool.New(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if err := pgdb.MigrateTo(bg, raw, 3); err != nil {
		t.Fatal(err)
	}
	e := newEdits(300)
	docs := map[int64][]byte{1: e.doc(), 2: e.next(), 3: e.next()}
	at := time.Now().UTC().Truncate(time.Millisecond) // within the journal's MaxAge
	// Rows as the Store wrote them at schema 3: the scene at revision 3,
	// revisions 1 and 2 kept, a journal entry for each and a request id.
	if _, err := raw.Exec(bg, `INSERT INTO scenes (name, revision, sha256, data, element_count, updated_at, updated_by, updated_by_name,
		previous_revision, previous_sha256, node, journal_seq) VALUES ('plan', 3, $1, $2, 300, $3, 'ui', '', 2, $4, 'old', 3)`,
		sha256Hex(docs[3]), docs[3], at, sha256Hex(docs[2])); err != nil {
		t.Fatal(err)
	}
	for rev := int64(1); rev <= 3; rev++ {
		commitAt := at.Add(time.Duration(rev-3) * time.Second)
		entry, err := json.Marshal(journal.Entry{Commit: store.NewCommitID(commitAt), Seq: rev, Scene: "plan", Revision: rev,
			PreviousRevision: rev - 1, SHA256: sha256Hex(docs[rev]), ByteLength: int64(len(docs[rev])), ElementCount: 300,
			At: store.FormatTime(commitAt), Actor: string(store.ActorUI), Images: journal.ImagesUnavailable})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(bg, `INSERT INTO journal (name, seq, commit_id, revision, at, entry) VALUES ('plan', $1, $2, $1, $3, $4)`,
			rev, store.NewCommitID(commitAt), commitAt, entry); err != nil {
			t.Fatal(err)
		}
		if rev < 3 {
			if _, err := raw.Exec(bg, `INSERT INTO revisions (name, revision, data, committed_at) VALUES ('plan', $1, $2, $3)`,
				rev, docs[rev], commitAt); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := raw.Exec(bg, `INSERT INTO requests (name, request_id, revision, sha256, byte_length, element_count, at)
		VALUES ('plan', 'r3', 3, $1, $2, 300, $3)`, sha256Hex(docs[3]), len(docs[3]), at); err != nil {
		t.Fatal(err)
	}
	// This Store needs migration 4 and says so.
	if _, err := Open(bg, Options{Pool: raw, Codec: storetest.Codec{}}); err == nil {
		t.Fatal("a Store opened on schema 3")
	}

	pool := openPool(t, dsn) // migrates
	s := openStore(t, pool, Options{})
	cold := openStore(t, pool, Options{CacheBytes: -1})
	sc, err := cold.Read(bg, "plan")
	if err != nil || sc.Revision != 3 || !bytes.Equal(sc.Data, docs[3]) || sc.ByteLength != int64(len(docs[3])) || sc.UpdatedAt != at {
		t.Fatalf("read after the upgrade: %v %+v", err, sc)
	}
	for rev := int64(1); rev <= 2; rev++ {
		if data, err := cold.ReadRevision(bg, "plan", rev); err != nil || !bytes.Equal(data, docs[rev]) {
			t.Fatalf("old revision %d: %v", rev, err)
		}
	}
	if res, err := s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: docs[3], Actor: store.ActorUI, RequestID: "r3"}); err != nil || !res.Duplicate || res.Revision != 3 {
		t.Fatalf("the old request id again: %v %+v", err, res)
	}
	if _, err := s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: 2, Data: e.next(), Actor: store.ActorUI}); store.CodeOf(err) != store.CodeRevisionConflict {
		t.Fatalf("a stale save: %v", err)
	}
	// New commits are deltas over the old whole row.
	for rev := int64(4); rev <= 8; rev++ {
		docs[rev] = e.next()
		if res, err := s.Save(bg, store.SaveRequest{Name: "plan", ExpectedRevision: rev - 1, Data: docs[rev], Actor: store.ActorUI}); err != nil || res.Revision != rev {
			t.Fatalf("save %d: %v", rev, err)
		}
	}
	deltas, wholes, _, _ := rowStats(t, pool, "plan")
	if deltas != 5 || wholes != 3 {
		t.Fatalf("%d deltas and %d whole rows after 5 commits over 3 old rows", deltas, wholes)
	}
	for rev := int64(1); rev <= 8; rev++ {
		if data, err := cold.ReadRevision(bg, "plan", rev); err != nil || !bytes.Equal(data, docs[rev]) {
			t.Fatalf("revision %d: %v", rev, err)
		}
	}
	ar := mustArchive(t, cold, "plan")
	if len(ar.Journal) != 8 || len(ar.Revisions) != 7 || !bytes.Equal(ar.Data, docs[8]) {
		t.Fatalf("archive: %d commits, revisions %v", len(ar.Journal), revisionKeys(ar))
	}
}
