package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/webhooks"
)

const testSecret = "rules-test-secret-0123456789abcdef0123"

// ruleInterceptors is the interceptor chain of Start with the rules of every registered service
// and a verifier of testSecret tokens.
func ruleInterceptors(t *testing.T) (*interceptors, context.Context) {
	t.Helper()
	services := Services(Deps{})
	scopes, err := MethodScopes(services)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := MethodRules(services, OwnChecks(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != len(scopes) {
		t.Fatalf("%d methods with rules, %d with scopes", len(rules), len(scopes))
	}
	v, err := auth.New(context.Background(), auth.Config{HS256Secret: testSecret, Issuer: "iss", Audience: "aud"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := auth.MintHS256(testSecret, "iss", "aud", "tenant", "subject", DevScopes, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ic := &interceptors{log: slog.New(slog.NewTextHandler(io.Discard, nil)), verifier: v, scopes: scopes, rules: rules,
		metrics: newMetrics(prometheus.NewRegistry())}
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("authorization", "Bearer "+tok))
	return ic, ctx
}

// breakRule returns a request of method that breaks one of its rules: the zero request when that
// already does (a required path parameter, the items of a bulk, a transition), else page 0.
func breakRule(t *testing.T, full string, rq *fields.Request, md protoreflect.MethodDescriptor) proto.Message {
	t.Helper()
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
	if err != nil {
		t.Fatal(err)
	}
	req := mt.New()
	if rq.Check(req.Interface()) != nil {
		return req.Interface()
	}
	page := req.Descriptor().Fields().ByName("page")
	if page == nil {
		t.Fatalf("%s: its empty request breaks no rule and it has no page", full)
	}
	req.Set(page, protoreflect.ValueOfInt32(0))
	return req.Interface()
}

// Every RPC of the API passes the request rules before its handler: a request breaking one is
// VALIDATION_FAILED and the handler never runs.
func TestEveryRPCChecksItsRequestRules(t *testing.T) {
	ic, ctx := ruleInterceptors(t)
	n := 0
	for _, svc := range Services(Deps{}) {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc.Desc.ServiceName))
		if err != nil {
			t.Fatal(err)
		}
		methods := d.(protoreflect.ServiceDescriptor).Methods()
		for i := 0; i < methods.Len(); i++ {
			md := methods.Get(i)
			full := "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
			req := breakRule(t, full, ic.rules[full], md)
			called := false
			handler := func(context.Context, any) (any, error) { called = true; return nil, nil }
			_, err := ic.chain(ctx, req, &grpc.UnaryServerInfo{FullMethod: full}, handler)
			var e *apierr.Error
			switch {
			case called:
				t.Errorf("%s: the handler ran for a request breaking its rules", full)
			case !errors.As(err, &e) || e.Code != apierr.ValidationFailed || len(e.Fields) == 0:
				t.Errorf("%s: err = %v, want VALIDATION_FAILED naming a field", full, err)
			}
			n++
		}
	}
	if n < 200 {
		t.Fatalf("only %d RPCs checked", n)
	}
	// A request within its rules reaches the handler.
	called := false
	_, err := ic.chain(ctx, &pb.CreateAttributeRequest{Attribute: &pb.AttributeCreate{Code: strings.Repeat("é", 100)}},
		&grpc.UnaryServerInfo{FullMethod: "/catalog.v1.AttributeService/CreateAttribute"},
		func(context.Context, any) (any, error) { called = true; return nil, nil })
	if err != nil || !called {
		t.Errorf("a valid create: err %v, handler ran %v", err, called)
	}
	// Authentication comes first: a request without a token is 401 whatever its body.
	_, err = ic.chain(context.Background(), &pb.CreateAttributeRequest{},
		&grpc.UnaryServerInfo{FullMethod: "/catalog.v1.AttributeService/CreateAttribute"},
		func(context.Context, any) (any, error) { t.Error("handler ran"); return nil, nil })
	if e := apierr.From(err); e.Code != apierr.Unauthenticated {
		t.Errorf("no token: %v, want UNAUTHENTICATED", err)
	}
}

// The bounds the Go code still names (list page size, webhook timeout) are the annotated ones.
func TestRuleBoundsMatchTheirConstants(t *testing.T) {
	for req := range ListSpecs() {
		fd := req.ProtoReflect().Descriptor().Fields().ByName("size")
		if r := fields.RulesOf(fd); r.GetMaximum() != list.MaxSize || r.GetMinimum() != 1 {
			t.Errorf("%s.size: rules %v, want 1 to %d", req.ProtoReflect().Descriptor().FullName(), r, list.MaxSize)
		}
	}
	for _, m := range []proto.Message{&pb.WebhookSubscriptionCreate{}, &pb.WebhookSubscriptionUpdate{}} {
		fd := m.ProtoReflect().Descriptor().Fields().ByName("request_timeout_ms")
		if r := fields.RulesOf(fd); r.GetMinimum() != webhooks.MinTimeoutMs || r.GetMaximum() != webhooks.MaxTimeoutMs {
			t.Errorf("%s: rules %v, want %d to %d", fd.FullName(), r, webhooks.MinTimeoutMs, webhooks.MaxTimeoutMs)
		}
	}
}

// Every create body of the catalog families has its family's own checks registered (so that a
// request breaking a rule still reports them), and so does every list request (its filters).
func TestEveryBodyHasItsOwnChecks(t *testing.T) {
	checks := OwnChecks(Deps{})
	n := 0
	for _, svc := range Services(Deps{}) {
		if !strings.HasPrefix(fmt.Sprintf("%T", svc.Impl), "*catalog.") {
			continue // the crud families
		}
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc.Desc.ServiceName))
		if err != nil {
			t.Fatal(err)
		}
		methods := d.(protoreflect.ServiceDescriptor).Methods()
		for i := 0; i < methods.Len(); i++ {
			md := methods.Get(i)
			rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
			body := md.Input().Fields().ByName(protoreflect.Name(rule.GetBody()))
			if body != nil && body.Message() != nil && strings.HasSuffix(string(body.Message().Name()), "Create") {
				n++
				if checks[body.Message().FullName()] == nil {
					t.Errorf("%s: no own checks registered for %s", md.FullName(), body.Message().FullName())
				}
			}
		}
	}
	for req := range ListSpecs() {
		if checks[req.ProtoReflect().Descriptor().FullName()] == nil {
			t.Errorf("list %s: no own checks registered", req.ProtoReflect().Descriptor().FullName())
		}
	}
	if n < 30 {
		t.Fatalf("only %d create bodies found", n)
	}
}
