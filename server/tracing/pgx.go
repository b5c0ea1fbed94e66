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

func (pgxTracer) start(ctx context.Context, name string, attr attribute.KeyValue) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	ctx, _ = tracer().Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attr, dbSystem))
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
	name, text := Statement(d.SQL)
	next := t.start(ctx, name, attribute.String("db.query.text", text))
	if next == ctx {
		return ctx
	}
	return context.WithValue(next, pgxSpanKey{}, true)
}

func (t pgxTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	t.end(ctx, d.Err, attribute.Int64("db.response.returned_rows", d.CommandTag.RowsAffected()))
}

// TraceBatchStart opens a batch's span, with an event per statement (TraceBatchQuery). A batch of
// one statement and transaction control (a transaction's BEGIN, COMMIT and savepoints, which
// store.Pipe sends with the next statement) is that statement's span, named and with its text as
// if it had been sent alone; any other is "batch".
func (t pgxTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	name, text := "", ""
	for _, q := range d.Batch.QueuedQueries {
		n, txt := Statement(q.SQL)
		switch n {
		case "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK":
			continue
		}
		if name != "" {
			name = ""
			break
		}
		name, text = n, txt
	}
	var next context.Context
	if name == "" {
		next = t.start(ctx, "batch", attribute.Int("db.operation.batch.size", d.Batch.Len()))
	} else {
		next = t.start(ctx, name, attribute.String("db.query.text", text))
	}
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
	name, text := Statement(d.SQL)
	attrs := []attribute.KeyValue{attribute.String("db.query.text", text)}
	if d.Err != nil {
		attrs = append(attrs, attribute.String("error", d.Err.Error()))
	}
	span.AddEvent(name, trace.WithAttributes(attrs...))
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

// Statement is a statement's span name and the text recorded for it, the statement without its
// leading comments: the name is the sqlc query name of its "-- name: X :kind" line, else the
// statement's first word in upper case (SELECT, INSERT, BEGIN…). Neither copies the statement (the
// text is part of the string pgx was given): a span per statement costs no string work to speak of.
func Statement(sql string) (name, text string) {
	text = strings.TrimSpace(sql)
	for strings.HasPrefix(text, "--") {
		var comment string
		comment, text, _ = strings.Cut(text, "\n")
		if rest, ok := strings.CutPrefix(comment, "-- name: "); ok && name == "" {
			name, _, _ = strings.Cut(rest, " ")
		}
		text = strings.TrimSpace(text)
	}
	if name != "" {
		return name, text
	}
	word, _, _ := strings.Cut(text, " ")
	if i := strings.IndexAny(word, "\n\t("); i >= 0 {
		word = word[:i]
	}
	if word == "" {
		return "SQL", text
	}
	return strings.ToUpper(word), text
}
