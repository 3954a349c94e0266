package excalidraw_test

import (
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// TestTraceOfAToolCallOnPostgreSQL: on the PostgreSQL store, a traced
// tool call's commit holds the database's spans (the commit's batch,
// BEGIN and COMMIT among them), client spans with the database
// conventions' attributes and the statements' text without a value of
// the board: under the commit span that names the commit, under the
// tool's span that names the request.
func TestTraceOfAToolCallOnPostgreSQL(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	yaml := hosttest.ConfigYAML(t.TempDir(), "  store: {kind: postgres, dsn: '"+pgtest.DSN(t)+"'}\n",
		`  - {id: excalidraw, name: excalidraw, config: {exports: {secret: "trace-test-secret-0123456789abcdefgh"}}}`+"\n")
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)), dsh.WithTracerProvider(tp))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	const secret = "ultramarine-owl-7"
	if out := callTool(t, sess, "excalidraw_scene_create", `{"name":"pg-traced","elements":[{"type":"text","id":"t","x":0,"y":0,"text":"`+secret+`"}]}`); !strings.Contains(out, `"revision":1`) {
		t.Fatalf("create: %s", out)
	}
	if out := callTool(t, sess, "excalidraw_scene_apply", `{"name":"pg-traced","expected_revision":1,"operations":[{"op":"update","id":"t","patch":{"x":50}}]}`); !strings.Contains(out, `"revision":2`) {
		t.Fatalf("apply: %s", out)
	}
	closeMCP()

	spans := rec.Ended()
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byID[s.SpanContext().SpanID()] = s
	}
	// ancestor is the nearest span above s named name (nil: none).
	ancestor := func(s sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
		for p := byID[s.Parent().SpanID()]; p != nil; p = byID[p.Parent().SpanID()] {
			if p.Name() == name {
				return p
			}
		}
		return nil
	}
	ops := map[string]bool{}
	for _, s := range spans {
		if !strings.HasPrefix(s.Name(), "db.") {
			continue
		}
		a := attrs(s)
		text := a["db.query.text"].AsString()
		if a["db.system.name"].AsString() != "postgresql" || a["db.operation.name"].AsString() == "" || text == "" ||
			s.SpanKind() != trace.SpanKindClient {
			t.Fatalf("%s's attributes %v", s.Name(), a)
		}
		if strings.Contains(text, secret) || strings.Contains(text, "pg-traced") {
			t.Fatalf("%s records a value of the board: %s", s.Name(), text)
		}
		commit := ancestor(s, "excalidraw.commit")
		if commit == nil {
			continue // a read, outside the commit
		}
		tool := ancestor(commit, "tool excalidraw_scene_apply")
		if tool == nil {
			continue // the create's
		}
		if ca, ta := attrs(commit), attrs(tool); len(ca["commit"].AsString()) != 26 || ca["revision"].AsInt64() != 2 ||
			ta["request_id"].AsString() == "" {
			t.Fatalf("above %s: commit span %v, tool span %v", s.Name(), ca, ta)
		}
		ops[s.Name()+" "+a["db.operation.name"].AsString()] = true
	}
	for _, want := range []string{"db.query BEGIN", "db.query COMMIT"} {
		if !ops[want] {
			t.Fatalf("no %q under the apply's commit, only %v", want, ops)
		}
	}
	batch := false
	for op := range ops {
		batch = batch || strings.HasPrefix(op, "db.batch BATCH")
	}
	if !batch {
		t.Fatalf("no batch under the apply's commit, only %v", ops)
	}
}
