package migrate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/pgstore"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var ctx = context.Background()

func fileSide(t *testing.T) (migrate.Side, *store.Store, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(store.Options{Dir: filepath.Join(dir, "drawings"), Codec: storetest.DiffCodec{}, MaxSceneBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	fl, err := files.Open(files.Config{Dir: filepath.Join(dir, "files"), MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fl.Close() })
	ex, err := exports.Open(exports.Config{Dir: filepath.Join(dir, "exports"), Secret: []byte(strings.Repeat("s", 32))})
	if err != nil {
		t.Fatal(err)
	}
	doc := func(name string) statefile.Doc { return statefile.File(filepath.Join(dir, name+".json"), name) }
	return migrate.Side{Name: "fs", Scenes: st, Doc: doc, Files: fl, Exports: ex}, st, dir
}

func pgSide(t *testing.T) migrate.Side {
	t.Helper()
	pool, err := pgdb.Open(ctx, pgdb.Options{DSN: pgtest.DSN(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	st, err := pgstore.Open(ctx, pgstore.Options{Pool: pool, Codec: storetest.DiffCodec{}, MaxSceneBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	fl, err := files.OpenPostgres(pool, files.Config{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := exports.OpenPostgres(pool, exports.Config{Secret: []byte(strings.Repeat("s", 32))})
	if err != nil {
		t.Fatal(err)
	}
	return migrate.Side{Name: "postgres", Scenes: st, Doc: pgstate.New(pool, pgstate.Options{}).Doc, Files: fl, Exports: ex}
}

// Scenes and documents go across and come back; a destination whose
// document differs is refused (nothing of it written) unless Replace;
// a scene that differs is refused even with Replace.
func TestCopy(t *testing.T) {
	src, fs, dir := fileSide(t)
	if _, err := fs.Create(ctx, store.CreateRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 0, "x")), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Save(ctx, store.SaveRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 5, "y")), ExpectedRevision: 1, Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	people := []byte(`{"accounts":[]}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, accounts.StateDoc+".json"), people, 0o600); err != nil {
		t.Fatal(err)
	}
	dst := pgSide(t)
	lines, err := migrate.Copy(ctx, dst, src, migrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lines[0].Copied != 1 || lines[0].Journal != 2 || lines[1].Copied != 1 {
		t.Fatalf("first copy: %+v", lines)
	}

	// The database's people change (a node made an owner): a copy is
	// refused, naming the document, and leaves them.
	theirs := []byte(`{"accounts":[{"name":"root"}]}`)
	if err := dst.Doc(accounts.StateDoc).Update(ctx, func([]byte) ([]byte, bool, error) { return theirs, true, nil }); err != nil {
		t.Fatal(err)
	}
	_, err = migrate.Copy(ctx, dst, src, migrate.Options{})
	if err == nil || !strings.Contains(err.Error(), "--replace") || !strings.Contains(err.Error(), accounts.StateDoc) {
		t.Fatalf("a differing document: %v", err)
	}
	if got, _, _, _ := dst.Doc(accounts.StateDoc).Fetch(ctx, nil); string(got) != string(theirs) {
		t.Fatalf("the refused copy changed the document: %s", got)
	}
	lines, err = migrate.Copy(ctx, dst, src, migrate.Options{Replace: true})
	if err != nil || lines[0].Unchanged != 1 || lines[1].Copied != 1 {
		t.Fatalf("with Replace: %+v %v", lines, err)
	}

	// Back into an empty data directory, and a scene that differs there.
	back, backFS, _ := fileSide(t)
	if _, err := migrate.Copy(ctx, back, dst, migrate.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := backFS.Save(ctx, store.SaveRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 9, "z")), ExpectedRevision: 2, Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	_, err = migrate.Copy(ctx, back, dst, migrate.Options{Replace: true})
	var se *store.Error
	if err == nil || !strings.Contains(err.Error(), "plan") || !errors.As(err, &se) || se.Code != store.CodeAlreadyExists {
		t.Fatalf("a scene that differs: %v", err)
	}
}
