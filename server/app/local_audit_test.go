package app

// Findings of an outside audit of the in-process REST connection (localConn, commit 8e822a3). Each
// test fails on that commit and states the behaviour the gRPC hop it replaced had.

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/queryparam"
)

// auditGateway is Start's REST facade (request log, gateway, front door, localConn through the
// chain) over the real services' descriptions, with GetLocale answered by get.
func auditGateway(t *testing.T, log slog.Handler, get func(context.Context, *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error)) http.Handler {
	t.Helper()
	r := newChainRig(t)
	r.ic.log = slog.New(log)
	for i := range r.services {
		if r.services[i].Desc == &pb.LocaleService_ServiceDesc {
			r.services[i].Impl = &localeFunc{get: get}
		}
	}
	gw, err := newRESTGateway(context.Background(), r.services, newLocalConn(r.services, r.ic.chain), r.ic)
	if err != nil {
		t.Fatal(err)
	}
	return requestLog(slog.New(log), queryparam.PreserveOrder(gw))
}

// When the shutdown grace runs out, Stop cancels the REST calls still in flight, as it does direct
// gRPC calls (grpcSrv.Stop). Before 8e822a3 the REST handlers ran on the hop server, which Stop
// stopped (their contexts cancelled, their database connections freed before the pools close);
// in process they run on the HTTP server's goroutines, which Shutdown does not cancel when its
// context ends: the handler runs on to its own deadline (up to 30 s) and DB.Close waits for it.
func TestAuditStopCancelsInFlightRESTCalls(t *testing.T) {
	entered := make(chan struct{})
	ended := make(chan error, 1)
	h := auditGateway(t, slog.DiscardHandler, func(ctx context.Context, _ *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
		close(entered)
		<-ctx.Done() // a query waiting on a lock
		ended <- ctx.Err()
		return nil, ctx.Err()
	})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{httpSrv: &http.Server{Handler: h}}
	go func() { _ = s.httpSrv.Serve(lis) }()

	req, err := http.NewRequest(http.MethodGet, "http://"+lis.Addr().String()+"/v1/locales/l-1", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", token(t, "tenant-a"))
	req.Header.Set("Grpc-Timeout", "10S") // bounds the failing case: the call's own deadline
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	}()
	<-entered

	grace, cancel := context.WithCancel(context.Background())
	cancel() // the grace is over
	s.Stop(grace)
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the in-flight REST handler ended with %v, not cancelled by Stop", err)
	}
	<-answered
}

// An INTERNAL failure of a REST call is logged at error level with its tenant, as the same call
// over gRPC is (and as REST calls were before 8e822a3). The chain now leaves the tenant out of
// every REST "rpc" line, on the grounds that the REST request has its own log line, but that line
// ("http") names no tenant either: no log line of a failed REST call says whose it was.
func TestAuditRESTErrorLogNamesTenant(t *testing.T) {
	log := &attrLog{}
	h := auditGateway(t, log, func(context.Context, *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
		return nil, errors.New("relation does not exist")
	})
	req := httptest.NewRequest(http.MethodGet, "/v1/locales/l-1", nil)
	req.Header.Set("Authorization", token(t, "tenant-a"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	named := false
	for _, r := range log.records {
		if r.level >= slog.LevelError && r.attrs["tenant"] == "tenant-a" {
			named = true
		}
	}
	if !named {
		t.Errorf("no error line names the tenant: %+v", log.records)
	}
}

// attrLog keeps every record with its attributes.
type attrLog struct {
	mu      sync.Mutex
	records []attrRecord
}

type attrRecord struct {
	level slog.Level
	msg   string
	attrs map[string]string
}

func (l *attrLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *attrLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *attrLog) WithGroup(string) slog.Handler            { return l }
func (l *attrLog) Handle(_ context.Context, r slog.Record) error {
	rec := attrRecord{level: r.Level, msg: r.Message, attrs: map[string]string{}}
	r.Attrs(func(a slog.Attr) bool { rec.attrs[a.Key] = a.Value.String(); return true })
	l.mu.Lock()
	l.records = append(l.records, rec)
	l.mu.Unlock()
	return nil
}
