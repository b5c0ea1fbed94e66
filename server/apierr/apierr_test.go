package apierr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	spb "google.golang.org/genproto/googleapis/rpc/status"
)

// overTheWire is what a gRPC client (the REST gateway included) receives for err: the status
// serialized and parsed again.
func overTheWire(t *testing.T, err error) error {
	t.Helper()
	b, merr := proto.Marshal(status.Convert(err).Proto())
	if merr != nil {
		t.Fatal(merr)
	}
	var p spb.Status
	if uerr := proto.Unmarshal(b, &p); uerr != nil {
		t.Fatal(uerr)
	}
	return status.ErrorProto(&p)
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type requirement struct {
	Kind       string  `json:"kind"`
	UUID       string  `json:"uuid"`
	LocaleUUID *string `json:"localeUuid"`
	Detail     string  `json:"detail"`
}

// Meta values keep their JSON types through the gRPC status the gateway receives: arrays stay
// arrays, objects objects, numbers numbers; the field violations and the code survive too.
func TestMetaRoundTripsTyped(t *testing.T) {
	e := New(RequirementsNotMet, "not ready").
		WithMeta("publicationUuid", "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13").
		WithMeta("missing", []requirement{{Kind: "attribute", UUID: "a", Detail: "attribute color is required"}}).
		WithMeta("allowedTransitions", []string{}).
		WithMeta("items", 101).
		WithMeta("flag", true).
		WithField("missing[0]", "attribute color is required")
	got := From(overTheWire(t, e))
	if got.Code != RequirementsNotMet || got.Detail != "not ready" {
		t.Errorf("code/detail %s %q", got.Code, got.Detail)
	}
	if len(got.Fields) != 1 || got.Fields[0] != (FieldViolation{"missing[0]", "attribute color is required"}) {
		t.Errorf("fields %+v", got.Fields)
	}
	want := `{"allowedTransitions":[],"flag":true,"items":101,"missing":[{"kind":"attribute","uuid":"a","localeUuid":null,"detail":"attribute color is required"}],"publicationUuid":"0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"}`
	// Objects come back with sorted keys; compare as JSON values.
	var a, b any
	_ = json.Unmarshal([]byte(jsonOf(t, got.Meta)), &a)
	_ = json.Unmarshal([]byte(want), &b)
	if jsonOf(t, a) != jsonOf(t, b) {
		t.Errorf("meta %s, want %s", jsonOf(t, got.Meta), want)
	}
	if _, ok := got.Meta["missing"].([]any); !ok {
		t.Errorf("meta.missing is %T, want an array", got.Meta["missing"])
	}
}

// gRPC clients read ErrorInfo: strings as they are, any other value as its JSON text (AIP-193);
// the typed form is a google.protobuf.Struct detail; BadRequest carries the field violations.
func TestGRPCDetails(t *testing.T) {
	e := New(InvalidTransition, "no").WithMeta("currentStatus", "removed").
		WithMeta("allowedTransitions", []string{"restore"}).WithField("uuids[1]", "no")
	st := status.Convert(overTheWire(t, e))
	if st.Code() != codes.FailedPrecondition {
		t.Errorf("code %s", st.Code())
	}
	var info *errdetails.ErrorInfo
	var br *errdetails.BadRequest
	var typed *structpb.Struct
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			info = d
		case *errdetails.BadRequest:
			br = d
		case *structpb.Struct:
			typed = d
		default:
			t.Errorf("unexpected detail %T", d)
		}
	}
	if info == nil || info.Reason != "INVALID_TRANSITION" || info.Domain != Domain ||
		info.Metadata["currentStatus"] != "removed" || info.Metadata["allowedTransitions"] != `["restore"]` {
		t.Errorf("ErrorInfo %v", info)
	}
	if br == nil || len(br.FieldViolations) != 1 || br.FieldViolations[0].Field != "uuids[1]" {
		t.Errorf("BadRequest %v", br)
	}
	if typed == nil || typed.Fields["allowedTransitions"].GetListValue().GetValues()[0].GetStringValue() != "restore" {
		t.Errorf("Struct %v", typed)
	}
	// Without meta there is no Struct, and ErrorInfo has no metadata.
	st = status.Convert(overTheWire(t, New(NotFound, "gone")))
	for _, d := range st.Details() {
		if _, ok := d.(*structpb.Struct); ok {
			t.Error("a Struct detail without meta")
		}
	}
	if got := From(st.Err()); got.Code != NotFound || got.Meta != nil || got.Detail != "gone" {
		t.Errorf("no meta: %+v", got)
	}
}

// A status carrying only ErrorInfo (an older server) still gives its meta, as strings.
func TestMetaFromErrorInfoAlone(t *testing.T) {
	st, err := status.New(codes.FailedPrecondition, "in use").WithDetails(
		&errdetails.ErrorInfo{Reason: "IN_USE", Domain: Domain, Metadata: map[string]string{"k": "v"}})
	if err != nil {
		t.Fatal(err)
	}
	got := From(st.Err())
	if got.Code != InUse || got.Meta["k"] != "v" {
		t.Errorf("got %+v", got)
	}
}

// No text of grpc, of the gateway or of an internal failure reaches a client: statuses that are
// not ours get a fixed detail for their code; INTERNAL is always "internal error".
func TestFromNeverCopiesForeignText(t *testing.T) {
	secret := "grpc: received message larger than max (5242880 vs. 4194304) pq: relation users_pkey"
	cases := []struct {
		err  error
		code Code
	}{
		{status.Error(codes.ResourceExhausted, secret), PayloadTooLarge},
		{status.Error(codes.Internal, secret), Internal},
		{status.Error(codes.Unknown, secret), Internal},
		{status.Error(codes.DataLoss, secret), Internal},
		{status.Error(codes.Unavailable, secret), Unavailable},
		{status.Error(codes.DeadlineExceeded, secret), Unavailable},
		{status.Error(codes.InvalidArgument, "type mismatch, parameter: uuid, "+secret), MalformedRequest},
		{status.Error(codes.Unimplemented, "unknown method Foo for service "+secret), NotFound},
		{status.Error(codes.NotFound, secret), NotFound},
		{status.Error(codes.PermissionDenied, secret), Forbidden},
		{status.Error(codes.Unauthenticated, secret), Unauthenticated},
		{status.Error(codes.AlreadyExists, secret), AlreadyExists},
		{errors.New(secret), Internal},
		// Our own INTERNAL, whatever detail a caller gave it, directly or over the wire.
		{New(Internal, "insert failed: %s", secret), Internal},
		{overTheWire(t, New(Internal, "insert failed: %s", secret).WithMeta("query", secret)), Internal},
	}
	for _, c := range cases {
		got := From(c.err)
		if got.Code != c.code {
			t.Errorf("%v: code %s, want %s", c.err, got.Code, c.code)
		}
		body := jsonOf(t, got)
		if strings.Contains(body, "grpc") || strings.Contains(body, "pq:") || strings.Contains(body, "4194304") ||
			strings.Contains(body, "mismatch") || strings.Contains(body, "Foo") {
			t.Errorf("%v: leaks %s", c.err, body)
		}
		if got.Detail == "" {
			t.Errorf("%v: empty detail", c.err)
		}
		if c.code == Internal && (got.Detail != "internal error" || got.Meta != nil || got.Fields != nil) {
			t.Errorf("%v: INTERNAL %+v", c.err, got)
		}
	}
}

// The gateway's request decoding errors keep their field (our own decoder's text).
func TestFromRecoversDecodeErrors(t *testing.T) {
	de := &DecodeError{Field: "[1].foo", Message: "unknown field"}
	got := From(status.Errorf(codes.InvalidArgument, "%v", de))
	if got.Code != MalformedRequest || len(got.Fields) != 1 || got.Fields[0] != (FieldViolation{"[1].foo", "unknown field"}) ||
		got.Detail != "[1].foo: unknown field" {
		t.Errorf("got %+v", got)
	}
}

// Our statuses keep their detail, code and meta, also for codes whose foreign statuses lose them.
func TestFromKeepsOwnStatuses(t *testing.T) {
	for _, e := range []*Error{
		New(Unavailable, "token signing keys are unavailable, try again later"),
		New(PayloadTooLarge, "request body exceeds 1048576 bytes"),
		New(Forbidden, "this operation needs the scope catalog:write").WithMeta("requiredScope", "catalog:write"),
	} {
		got := From(overTheWire(t, e))
		if got.Code != e.Code || got.Detail != e.Detail || jsonOf(t, got.Meta) != jsonOf(t, e.Meta) {
			t.Errorf("got %+v, want %+v", got, e)
		}
	}
}
