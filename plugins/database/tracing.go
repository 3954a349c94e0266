package database

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Spans of the database's work, children of the span the caller's
// context carries (a tool call's, an HTTP request's, a store commit's),
// from that span's own provider: the host never sets a global one. An
// untraced context (its span not recording) gets none, for the cost of
// a context lookup per statement.
const (
	SpanQuery    = "db.query"     // one statement (Query, QueryRow, Exec; BEGIN and COMMIT too)
	SpanBatch    = "db.batch"     // a batch of statements sent at once (SendBatch)
	SpanCopyFrom = "db.copy_from" // a COPY FROM
	SpanConnect  = "db.connect"   // a new connection made for the caller
)

// tracerName names the spans' instrumentation scope.
const tracerName = "github.com/dshgo/dsh/plugins/database"

// Tracer traces the pool's statements as OpenTelemetry client spans,
// with the attributes of the database semantic conventions:
// db.system.name, db.namespace, server.address and server.port, the
// statement's db.operation.name (its first keyword) and db.query.text,
// and, for a failure, error.type and db.response.status_code (the
// SQLSTATE). The text is the SQL as sent, whose values are parameters
// ($1) never recorded; a quoted literal in it is recorded as '?'.
// Set it as the pool's ConnConfig.Tracer (pgdb.Options.Tracer).
type Tracer struct{}

var (
	_ pgx.QueryTracer    = Tracer{}
	_ pgx.BatchTracer    = Tracer{}
	_ pgx.CopyFromTracer = Tracer{}
	_ pgx.ConnectTracer  = Tracer{}
)

// spanKey marks the span a Trace…Start started in the context it
// returns, for its Trace…End (which gets that context back).
type spanKey struct{}

// start starts name under ctx's span if that span is recording; else it
// returns ctx as it is.
func start(ctx context.Context, name string, cfg *pgconn.Config, attrs ...attribute.KeyValue) context.Context {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx
	}
	attrs = append(attrs, attribute.String("db.system.name", "postgresql"))
	if cfg != nil {
		attrs = append(attrs, attribute.String("db.namespace", cfg.Database), attribute.String("server.address", cfg.Host),
			attribute.Int("server.port", int(cfg.Port)))
	}
	ctx, span := parent.TracerProvider().Tracer(tracerName).Start(ctx, name,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, spanKey{}, span)
}

// end ends the span start put in ctx (nothing if it started none), with
// err's status.
func end(ctx context.Context, err error) {
	span, ok := ctx.Value(spanKey{}).(trace.Span)
	if !ok || span != trace.SpanFromContext(ctx) {
		return // started none: ctx's span is the caller's
	}
	if err != nil {
		span.SetAttributes(errorAttrs(err)...)
		span.SetStatus(codes.Error, errorType(err))
	}
	span.End()
}

// errorType is what failed, in a few words that hold no value from the
// statement: the SQLSTATE of a server's error ("23505"), else the
// error's message (a broken connection, a cancelled context).
func errorType(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return err.Error()
}

// errorAttrs are a failure's attributes.
func errorAttrs(err error) []attribute.KeyValue {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return []attribute.KeyValue{attribute.String("error.type", pe.Code), attribute.String("db.response.status_code", pe.Code)}
	}
	return []attribute.KeyValue{attribute.String("error.type", "client")}
}

// config is conn's configuration (nil for none).
func config(conn *pgx.Conn) *pgconn.Config {
	if conn == nil {
		return nil
	}
	return &conn.Config().Config
}

// TraceQueryStart starts a statement's span.
func (Tracer) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx
	}
	return start(ctx, SpanQuery, config(conn), attribute.String("db.operation.name", Operation(data.SQL)),
		attribute.String("db.query.text", QueryText(data.SQL)))
}

// TraceQueryEnd ends it.
func (Tracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	end(ctx, data.Err)
}

// TraceBatchStart starts a batch's span: its statements' texts joined
// by "; ", its operation "BATCH" (with the statements' operation when
// they all have the same), and db.operation.batch.size.
func (Tracer) TraceBatchStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	if !trace.SpanFromContext(ctx).IsRecording() || data.Batch == nil {
		return ctx
	}
	qs := data.Batch.QueuedQueries
	texts := make([]string, len(qs))
	op := ""
	for i, q := range qs {
		texts[i] = QueryText(q.SQL)
		switch o := Operation(q.SQL); {
		case i == 0:
			op = o
		case o != op:
			op = ""
		}
	}
	name := "BATCH"
	if op != "" {
		name += " " + op
	}
	return start(ctx, SpanBatch, config(conn), attribute.String("db.operation.name", name),
		attribute.String("db.query.text", strings.Join(texts, "; ")), attribute.Int("db.operation.batch.size", len(qs)))
}

// TraceBatchQuery notes each statement's result, as it is read, as an
// event on the batch's span: its operation and, if it failed, why.
func (Tracer) TraceBatchQuery(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchQueryData) {
	span, ok := ctx.Value(spanKey{}).(trace.Span)
	if !ok || span != trace.SpanFromContext(ctx) {
		return
	}
	attrs := []attribute.KeyValue{attribute.String("db.operation.name", Operation(data.SQL))}
	if data.Err != nil {
		attrs = append(attrs, errorAttrs(data.Err)...)
	}
	span.AddEvent("db.batch.statement", trace.WithAttributes(attrs...))
}

// TraceBatchEnd ends the batch's span.
func (Tracer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchEndData) {
	end(ctx, data.Err)
}

// TraceCopyFromStart starts a COPY FROM's span, naming the table and
// columns.
func (Tracer) TraceCopyFromStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceCopyFromStartData) context.Context {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx
	}
	table := data.TableName.Sanitize()
	return start(ctx, SpanCopyFrom, config(conn), attribute.String("db.operation.name", "COPY"),
		attribute.String("db.collection.name", table),
		attribute.String("db.query.text", "COPY "+table+" ("+strings.Join(data.ColumnNames, ", ")+") FROM STDIN"))
}

// TraceCopyFromEnd ends it.
func (Tracer) TraceCopyFromEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceCopyFromEndData) {
	end(ctx, data.Err)
}

// TraceConnectStart starts the span of a connection made while the
// caller waits.
func (Tracer) TraceConnectStart(ctx context.Context, data pgx.TraceConnectStartData) context.Context {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx
	}
	var cfg *pgconn.Config
	if data.ConnConfig != nil {
		cfg = &data.ConnConfig.Config
	}
	return start(ctx, SpanConnect, cfg)
}

// TraceConnectEnd ends it.
func (Tracer) TraceConnectEnd(ctx context.Context, data pgx.TraceConnectEndData) {
	end(ctx, data.Err)
}

// Operation is a statement's operation: its first word, upper-cased
// ("SELECT", "INSERT", "BEGIN"), or "" for none.
func Operation(sql string) string {
	sql = strings.TrimLeft(sql, " \t\r\n(")
	n := strings.IndexFunc(sql, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
	})
	if n < 0 {
		n = len(sql)
	}
	return strings.ToUpper(sql[:n])
}

// QueryText is sql as a span records it: as it is, but for the
// contents of quoted literals ('…', E'…', $tag$…$tag$), each recorded
// as '?'. Statements pass their values as parameters, which are never
// recorded; this keeps a value written into the text out of traces too.
func QueryText(sql string) string {
	if !strings.ContainsAny(sql, "'$") {
		return sql
	}
	var b strings.Builder
	b.Grow(len(sql))
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'':
			escapes := i > 0 && (sql[i-1] == 'E' || sql[i-1] == 'e') && (i == 1 || !identChar(sql[i-2]))
			i = skipQuoted(sql, i+1, escapes)
			b.WriteString("'?'")
		case c == '$' && dollarTag(sql, i) != "":
			tag := dollarTag(sql, i)
			rest := strings.Index(sql[i+len(tag):], tag)
			if rest < 0 {
				i = len(sql)
			} else {
				i += len(tag) + rest + len(tag)
			}
			b.WriteString("'?'")
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// skipQuoted is the index after the literal that starts at i (after
// its opening quote): a doubled quote is a quote, and, in an E'…'
// literal, so is a backslashed one.
func skipQuoted(sql string, i int, escapes bool) int {
	for i < len(sql) {
		switch {
		case escapes && sql[i] == '\\':
			i += 2
		case sql[i] == '\'' && i+1 < len(sql) && sql[i+1] == '\'':
			i += 2
		case sql[i] == '\'':
			return i + 1
		default:
			i++
		}
	}
	return len(sql)
}

// identChar reports whether c may be part of an identifier.
func identChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// dollarTag is the dollar-quote tag ("$$", "$body$") starting at i, or
// "" when the $ there is no such tag (a parameter, $1).
func dollarTag(sql string, i int) string {
	for j := i + 1; j < len(sql); j++ {
		c := sql[j]
		switch {
		case c == '$':
			return sql[i : j+1]
		case c >= '0' && c <= '9':
			if j == i+1 {
				return "" // $1: a parameter
			}
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
		default:
			return ""
		}
	}
	return ""
}
