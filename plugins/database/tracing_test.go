package database_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/database"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// attrs are a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	out := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		out[kv.Key] = kv.Value
	}
	return out
}

// TestTracerSpans: on a real server, statements under a recording span
// become its children from its own provider (a query, a batch, a COPY
// FROM, a failure with its SQLSTATE), their text holding no value —
// neither a parameter nor a literal; statements under an untraced
// context make no span at all.
func TestTracerSpans(t *testing.T) {
	ctx := context.Background()
	pool, err := pgdb.Open(ctx, pgdb.Options{DSN: pgtest.DSN(t), Tracer: database.Tracer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TABLE notes (id int PRIMARY KEY, body text)`); err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	if _, err := pool.Exec(ctx, `INSERT INTO notes VALUES (1, 'untraced')`); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Ended()); n != 0 {
		t.Fatalf("an untraced statement made %d spans", n)
	}

	tctx, parent := tp.Tracer("test").Start(ctx, "caller")
	const secret = "token-sesame-42"
	if _, err := pool.Exec(tctx, `INSERT INTO notes VALUES ($1, $2)`, 2, secret); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(tctx, `UPDATE notes SET body = 'it''s `+secret+`' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	b := &pgx.Batch{}
	b.Queue(`SELECT body FROM notes WHERE id = $1`, 1)
	b.Queue(`SELECT body FROM notes WHERE id = $1`, 2)
	if err := pool.SendBatch(tctx, b).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.CopyFrom(tctx, pgx.Identifier{"notes"}, []string{"id", "body"}, pgx.CopyFromRows([][]any{{3, secret}})); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(tctx, `INSERT INTO notes VALUES ($1, $2)`, 2, secret); err == nil {
		t.Fatal("a duplicate key was inserted")
	}
	parent.End()

	got := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		if s.Name() == "caller" {
			continue
		}
		if s.Parent().SpanID() != parent.SpanContext().SpanID() {
			t.Fatalf("%s is not under the caller's span", s.Name())
		}
		a := attrs(s)
		text := a["db.query.text"].AsString()
		if a["db.system.name"].AsString() != "postgresql" || a["server.address"].AsString() == "" || a["db.namespace"].AsString() == "" {
			t.Fatalf("%s: %v", s.Name(), a)
		}
		if strings.Contains(text, secret) || strings.Contains(text, "it''s") {
			t.Fatalf("%s records a value: %s", s.Name(), text)
		}
		key := s.Name() + " " + a["db.operation.name"].AsString()
		if s.Status().Code == codes.Error {
			key += " failed"
		}
		got[key] = s
	}
	for _, want := range []string{"db.query INSERT", "db.query UPDATE", "db.batch BATCH SELECT", "db.copy_from COPY", "db.query INSERT failed"} {
		if got[want] == nil {
			t.Fatalf("no %q span among %v", want, keys(got))
		}
	}
	if text := attrs(got["db.query UPDATE"])["db.query.text"].AsString(); text != `UPDATE notes SET body = '?' WHERE id = 1` {
		t.Fatalf("the update's text %q", text)
	}
	batch := attrs(got["db.batch BATCH SELECT"])
	if batch["db.operation.batch.size"].AsInt64() != 2 || len(got["db.batch BATCH SELECT"].Events()) != 2 {
		t.Fatalf("the batch: %v, events %v", batch, got["db.batch BATCH SELECT"].Events())
	}
	if a := attrs(got["db.query INSERT failed"]); a["db.response.status_code"].AsString() != "23505" || a["error.type"].AsString() != "23505" ||
		got["db.query INSERT failed"].Status().Description != "23505" {
		t.Fatalf("the failed insert: %v %v", a, got["db.query INSERT failed"].Status())
	}
}

func keys(m map[string]sdktrace.ReadOnlySpan) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestQueryText: quoted literals of every form are recorded as '?';
// parameters, identifiers and the rest stay as they are.
func TestQueryText(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1 FROM t WHERE a = $1`:                `SELECT 1 FROM t WHERE a = $1`,
		`SELECT 'a''b', "col" FROM t`:                 `SELECT '?', "col" FROM t`,
		`SELECT E'it\'s', 'x' FROM t WHERE b = $2`:    `SELECT E'?', '?' FROM t WHERE b = $2`,
		`SELECT $$a 'b' c$$, $tag$d$$e$tag$ || $1`:    `SELECT '?', '?' || $1`,
		`SELECT pg_notify('dsh_commits', $1::text)`:   `SELECT pg_notify('?', $1::text)`,
		`SELECT 1 FROM t WHERE name='a\' AND b = 'c'`: `SELECT 1 FROM t WHERE name='?' AND b = '?'`,
		`SELECT 'never closed`:                        `SELECT '?'`,
	} {
		if got := database.QueryText(in); got != want {
			t.Errorf("QueryText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"  select 1": "SELECT", "(SELECT 1) UNION (SELECT 2)": "SELECT", "commit": "COMMIT", "": ""} {
		if got := database.Operation(in); got != want {
			t.Errorf("Operation(%q) = %q, want %q", in, got, want)
		}
	}
}
