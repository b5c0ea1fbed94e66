package tracing

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Pgx is the database pools' tracer (pgx.ConnConfig.Tracer): a client span per SQL statement, batch
// and COPY, named by the sqlc query ("-- name: GetProduct :one") or else the statement's first word,
// with the statement's text (its $n placeholders, never the values) as db.query.text. Only a
// statement that runs inside a span gets one: the background loops' idle polls (a claim every
// second that finds nothing) make no root spans of their own. nil when tracing is off, so that the
// pools run without a tracer.
func Pgx() pgx.QueryTracer {
	if !Enabled() {
		return nil
	}
	return pgxTracer{}
}

type pgxTracer struct{}

var (
	_ pgx.QueryTracer    = pgxTracer{}
	_ pgx.BatchTracer    = pgxTracer{}
	_ pgx.CopyFromTracer = pgxTracer{}
)

var dbSystem = attribute.String("db.system.name", "postgresql")

func (pgxTracer) start(ctx context.Context, name string, attrs ...attribute.KeyValue) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	ctx, _ = tracer().Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(append(attrs, dbSystem)...))
	return ctx
}

// end ends the span start made (none when ctx's span is not ours: start made none).
func (pgxTracer) end(ctx context.Context, err error, attrs ...attribute.KeyValue) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	if _, ok := ctx.Value(pgxSpanKey{}).(bool); !ok {
		return
	}
	span.SetAttributes(attrs...)
	End(span, err)
}

type pgxSpanKey struct{}

func (t pgxTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	next := t.start(ctx, StatementName(d.SQL), attribute.String("db.query.text", d.SQL))
	if next == ctx {
		return ctx
	}
	return context.WithValue(next, pgxSpanKey{}, true)
}

func (t pgxTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	t.end(ctx, d.Err, attribute.Int64("db.response.returned_rows", d.CommandTag.RowsAffected()))
}

func (t pgxTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	next := t.start(ctx, "batch", attribute.Int("db.operation.batch.size", d.Batch.Len()))
	if next == ctx {
		return ctx
	}
	return context.WithValue(next, pgxSpanKey{}, true)
}

func (pgxTracer) TraceBatchQuery(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	if _, ok := ctx.Value(pgxSpanKey{}).(bool); !ok {
		return
	}
	span := trace.SpanFromContext(ctx)
	attrs := []attribute.KeyValue{attribute.String("db.query.text", d.SQL)}
	if d.Err != nil {
		attrs = append(attrs, attribute.String("error", d.Err.Error()))
	}
	span.AddEvent(StatementName(d.SQL), trace.WithAttributes(attrs...))
}

func (t pgxTracer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchEndData) {
	t.end(ctx, d.Err)
}

func (t pgxTracer) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	next := t.start(ctx, "COPY "+d.TableName.Sanitize(), attribute.String("db.collection.name", d.TableName.Sanitize()))
	if next == ctx {
		return ctx
	}
	return context.WithValue(next, pgxSpanKey{}, true)
}

func (t pgxTracer) TraceCopyFromEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromEndData) {
	t.end(ctx, d.Err, attribute.Int64("db.response.returned_rows", d.CommandTag.RowsAffected()))
}

// StatementName names a statement's span: the sqlc query name of its leading "-- name: X :kind"
// comment, else its first SQL word in upper case (SELECT, INSERT, BEGIN…).
func StatementName(sql string) string {
	s := strings.TrimSpace(sql)
	if rest, ok := strings.CutPrefix(s, "-- name: "); ok {
		if name, _, ok := strings.Cut(rest, " "); ok && name != "" {
			return name
		}
	}
	for strings.HasPrefix(s, "--") { // other comments before the statement
		_, s, _ = strings.Cut(s, "\n")
		s = strings.TrimSpace(s)
	}
	word, _, _ := strings.Cut(s, " ")
	if i := strings.IndexAny(word, "\n\t("); i >= 0 {
		word = word[:i]
	}
	if word == "" {
		return "SQL"
	}
	return strings.ToUpper(word)
}
