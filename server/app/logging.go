package app

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/tracing"
)

// ctxHandler adds the request id of the context to every log line, and its trace_id and span_id
// when tracing is on and the context has a span.
type ctxHandler struct{ slog.Handler }

func (h ctxHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := reqctx.RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	if traceID, spanID, ok := tracing.IDs(ctx); ok {
		r.AddAttrs(slog.String("trace_id", traceID), slog.String("span_id", spanID))
	}
	return h.Handler.Handle(ctx, r)
}

func (h ctxHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return ctxHandler{h.Handler.WithAttrs(as)}
}
func (h ctxHandler) WithGroup(n string) slog.Handler { return ctxHandler{h.Handler.WithGroup(n)} }

// NewLogger is the service's JSON logger.
func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(ctxHandler{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})})
}

// BufferedWriter batches log lines: one write system call per flush instead of one per line. It
// flushes every interval, when the buffer passes 64 KiB, and on Close; Warn and Error lines go out
// with the next flush like the others, at most interval later.
type BufferedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	stop chan struct{}
	done chan struct{}
}

// NewBufferedWriter starts the periodic flush.
func NewBufferedWriter(w io.Writer, interval time.Duration) *BufferedWriter {
	b := &BufferedWriter{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.Flush()
			case <-b.stop:
				b.Flush()
				return
			}
		}
	}()
	return b
}

func (b *BufferedWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.buf = append(b.buf, p...)
	full := len(b.buf) >= 64<<10
	b.mu.Unlock()
	if full {
		b.Flush()
	}
	return len(p), nil
}

// Flush writes what is buffered.
func (b *BufferedWriter) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
}

// Close flushes and stops the periodic flush.
func (b *BufferedWriter) Close() {
	select {
	case <-b.stop:
	default:
		close(b.stop)
	}
	<-b.done
}
