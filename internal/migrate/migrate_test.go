package migrate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var ctx = context.Background()

// Documents go across and come back; a destination whose document
// differs is refused (nothing of it written) unless Replace.
func TestDocs(t *testing.T) {
	dir := t.TempDir()
	files := func(name string) statefile.Doc { return statefile.File(filepath.Join(dir, name+".json"), name) }
	people := []byte(`{"accounts":[]}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, "accounts.json"), people, 0o600); err != nil {
		t.Fatal(err)
	}
	pool, err := pgdb.Open(ctx, pgdb.Options{DSN: pgtest.DSN(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	db := migrate.DocOf(pgstate.New(pool, pgstate.Options{}).Doc)
	names := []string{"accounts", "tokens"} // no tokens file: nothing to copy

	l, err := migrate.Docs(ctx, db, files, names, migrate.Options{})
	if err != nil || l.Copied != 1 || l.Unchanged != 0 {
		t.Fatalf("first copy: %+v %v", l, err)
	}
	if l, err = migrate.Docs(ctx, db, files, names, migrate.Options{}); err != nil || l.Copied != 0 || l.Unchanged != 1 {
		t.Fatalf("a rerun: %+v %v", l, err)
	}

	// The database's people change (a node made an owner): a copy is
	// refused, naming the document, and leaves them.
	theirs := []byte(`{"accounts":[{"name":"root"}]}`)
	if err := db("accounts").Update(ctx, func([]byte) ([]byte, bool, error) { return theirs, true, nil }); err != nil {
		t.Fatal(err)
	}
	_, err = migrate.Docs(ctx, db, files, names, migrate.Options{})
	if err == nil || !strings.Contains(err.Error(), "--replace") || !strings.Contains(err.Error(), "accounts") {
		t.Fatalf("a differing document: %v", err)
	}
	if got, _, _, _ := db("accounts").Fetch(ctx, nil); string(got) != string(theirs) {
		t.Fatalf("the refused copy changed the document: %s", got)
	}
	if l, err = migrate.Docs(ctx, db, files, names, migrate.Options{Replace: true}); err != nil || l.Copied != 1 {
		t.Fatalf("with Replace: %+v %v", l, err)
	}

	// Back into an empty directory.
	back := t.TempDir()
	into := func(name string) statefile.Doc { return statefile.File(filepath.Join(back, name+".json"), name) }
	if _, err := migrate.Docs(ctx, into, db, names, migrate.Options{}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(back, "accounts.json")); err != nil || string(got) != string(people) {
		t.Fatalf("back: %q %v", got, err)
	}
}
