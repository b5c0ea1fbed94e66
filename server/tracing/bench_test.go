package tracing

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// cpuTime is the CPU time this process has used (user and system): the benchmarks report CPU per
// request, which the machine's load does not inflate as it does the elapsed time.
func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

const benchSQL = `-- name: GetAttribute :one
SELECT tenant_id, uuid, code, display_name, status, created_at, updated_at, removed_at FROM attributes WHERE tenant_id = $1 AND uuid = $2
`

// BenchmarkGET is the tracing work of one REST GET by uuid (the HTTP server span, which the chain
// takes, and one SQL statement), without the work of the GET itself: off (nothing installed), then on with every
// request sampled and exported by OTLP/HTTP to a receiver that discards.
func BenchmarkGET(b *testing.B) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span, own := StartRPC(r.Context(), "/catalog.v1.AttributeService/GetAttribute")
		if t := Pgx(); t != nil {
			qctx := t.TraceQueryStart(ctx, nil, pgx.TraceQueryStartData{SQL: benchSQL})
			t.TraceQueryEnd(qctx, nil, pgx.TraceQueryEndData{CommandTag: pgconn.NewCommandTag("SELECT 1")})
		}
		if span.IsRecording() {
			span.SetAttributes(attribute.String("rpc.grpc.status_code", "OK"), attribute.String("catalogd.request_id", "0af7651916cd43dd8448eb211c80319c"),
				attribute.String("catalogd.tenant", "bench"))
			if own {
				span.End()
			}
		}
		w.WriteHeader(http.StatusOK)
	})
	run := func(b *testing.B, h http.Handler) {
		b.ReportAllocs()
		cpu := cpuTime()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				r := httptest.NewRequest("GET", "/v1/attributes/0af76519-16cd-43dd-8448-eb211c80319c", nil)
				r.Header.Set("Authorization", "Bearer x")
				h.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	}
	// The door, as app's access log opens and closes it.
	door := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := StartHTTP(r)
		handler.ServeHTTP(w, r.WithContext(ctx))
		EndHTTP(span, http.StatusOK)
	})
	b.Run("off", func(b *testing.B) { run(b, door) })
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer sink.Close()
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(sink.URL+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	// Blocking: every span is exported (the processor's queue would drop those made faster than the
	// exporter sends them, and their export would not be counted).
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp, sdktrace.WithBlocking()))
	defer tp.Shutdown(context.Background()) //nolint:errcheck
	Install(tp)
	b.Run("sampled", func(b *testing.B) { run(b, door) })
}
