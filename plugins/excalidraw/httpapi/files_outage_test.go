package httpapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
)

// While the file service's PostgreSQL is down, every file route answers
// 503 store_unavailable, retryable (details and Retry-After), as
// admission does for a credential it cannot check; nothing is stored,
// and uploads succeed again once the database is back.
func TestFilesDatabaseOutageIsStoreUnavailable(t *testing.T) {
	dsn := pgtest.DSN(t)
	if err := pgtest.Restartable(); err != nil {
		testenv.Missing(t, err.Error())
	}
	pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st, err := files.OpenPostgres(pool, files.Config{MaxFileBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	l, err := files.NewLimiter(pgstate.New(pool, pgstate.Options{Timeout: 5 * time.Second}).Windows(), 1<<20, st.MaxFileBytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newFilesEnv(t, filesOpts{backend: files.Limited{Backend: st, Limiter: l}})
	share := FilesPrefix + "shareLinks/l/kept"
	expect(t, e.put(share, "", "image/png", []byte("kept")), http.StatusCreated, "")
	expect(t, e.put(roomFile, asEditor, "image/png", []byte("room")), http.StatusCreated, "")

	unavailable := func(what string, r reply) {
		t.Helper()
		expect(t, r, http.StatusServiceUnavailable, "store_unavailable")
		if d := r.details(); d["retryable"] != true || d["retryAfterSec"] != float64(2) || r.header.Get("Retry-After") != "2" {
			t.Fatalf("%s: details %v, Retry-After %q", what, d, r.header.Get("Retry-After"))
		}
	}
	pgtest.Restart(t, func() {
		unavailable("PUT share link", e.put(FilesPrefix+"shareLinks/l/new", "", "image/png", []byte("new")))
		unavailable("GET share link", e.get(share, ""))
		if r := e.send(http.MethodHead, share, "", nil, nil); r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "2" {
			t.Fatalf("HEAD share link: %d, Retry-After %q", r.status, r.header.Get("Retry-After"))
		}
		unavailable("PUT board file", e.put(roomFile, asEditor, "image/png", []byte("changed")))
		unavailable("GET board file", e.get(roomFile, asViewer))
	})

	// Back: what was refused was not stored, what was there is unchanged,
	// and an upload goes through (a pooled connection the restart broke
	// may fail one call, retryable, before it is replaced).
	var r reply
	for range 4 {
		if r = e.put(FilesPrefix+"shareLinks/l/after", "", "image/png", []byte("after")); r.status != http.StatusServiceUnavailable {
			break
		}
	}
	expect(t, r, http.StatusCreated, "")
	expect(t, e.get(FilesPrefix+"shareLinks/l/new", ""), http.StatusNotFound, "not_found")
	if g := e.get(roomFile, asViewer); g.status != http.StatusOK || string(g.raw) != "room" {
		t.Fatalf("board file after the outage: %d %q", g.status, g.raw)
	}
	if g := e.get(share, ""); g.status != http.StatusOK || string(g.raw) != "kept" {
		t.Fatalf("share link after the outage: %d %q", g.status, g.raw)
	}
}
