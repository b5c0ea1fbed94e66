package jsonpb

import (
	"fmt"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

// attributePage is a list response of n attributes, every other one with contents expanded.
func attributePage(n int) *catalogv1.ListAttributesResponse {
	base := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	resp := &catalogv1.ListAttributesResponse{Pagination: &catalogv1.Pagination{Page: 1, Size: int32(n), TotalItems: 1000, TotalPages: 10}}
	for i := range n {
		a := &catalogv1.Attribute{
			Uuid:        fmt.Sprintf("0190a4e2-7b1c-7c3d-8e4f-%012d", i),
			CreatedAt:   timestamppb.New(base.Add(time.Duration(i) * time.Minute)),
			UpdatedAt:   timestamppb.New(base.Add(time.Duration(i) * time.Hour)),
			Status:      catalogv1.AttributeStatus(1 + i%4),
			Code:        fmt.Sprintf("attribute-%d", i),
			DisplayName: fmt.Sprintf("Attribute «%d»", i),
		}
		if i%4 == 3 {
			a.RemovedAt = timestamppb.New(base)
		}
		if i%2 == 0 {
			a.ContentUuids = &catalogv1.UuidList{Values: []string{"c-" + a.Uuid, "d-" + a.Uuid}}
			a.Contents = &catalogv1.AttributeContentList{Items: []*catalogv1.AttributeContent{
				{Uuid: "c-" + a.Uuid, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, AttributeUuid: a.Uuid, LocaleUuid: "en", DisplayName: "Colour", Description: proto.String("The colour")},
				{Uuid: "d-" + a.Uuid, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, AttributeUuid: a.Uuid, LocaleUuid: "de", DisplayName: "Farbe"},
			}}
		}
		resp.Items = append(resp.Items, a)
	}
	return resp
}

// BenchmarkMarshalAttributeList marshals a page of 100 attributes with this codec and, for
// comparison, with protojson (EmitUnpopulated, the closest it gets to "every field present") and
// with the gateway's default JSONPb marshaler.
func BenchmarkMarshalAttributeList(b *testing.B) {
	resp := attributePage(100)
	b.Run("jsonpb", func(b *testing.B) {
		m := Marshaler{}
		out, _ := m.Marshal(resp)
		b.SetBytes(int64(len(out)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.Marshal(resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protojson", func(b *testing.B) {
		opts := protojson.MarshalOptions{EmitUnpopulated: true}
		out, _ := opts.Marshal(resp)
		b.SetBytes(int64(len(out)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := opts.Marshal(resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gateway-JSONPb", func(b *testing.B) {
		m := &runtime.JSONPb{MarshalOptions: protojson.MarshalOptions{EmitUnpopulated: true}}
		out, _ := m.Marshal(resp)
		b.SetBytes(int64(len(out)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.Marshal(resp); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkUnmarshalBulkUpdate decodes a bulk body of 100 items into *[]*T, against protojson
// decoding the same items one by one.
func BenchmarkUnmarshalBulkUpdate(b *testing.B) {
	body := []byte("[")
	for i := range 100 {
		if i > 0 {
			body = append(body, ',')
		}
		body = fmt.Appendf(body, `{"uuid":"0190a4e2-7b1c-7c3d-8e4f-%012d","code":"attribute-%d","displayName":null}`, i, i)
	}
	body = append(body, ']')
	b.Run("jsonpb", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var items []*catalogv1.AttributeUpdate
			if err := (Marshaler{}).Unmarshal(body, &items); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protojson", func(b *testing.B) {
		// protojson cannot decode a bare array: wrap it as the request message.
		wrapped := append(append([]byte(`{"items":`), body...), '}')
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var req catalogv1.BulkUpdateAttributesRequest
			if err := protojson.Unmarshal(wrapped, &req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestBenchmarkFixtureRoundTrips(t *testing.T) {
	// The benchmark fixture survives a round trip through this codec (checked by
	// decoding ours back and comparing with the original).
	resp := attributePage(100)
	out, err := Marshaler{}.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var back catalogv1.ListAttributesResponse
	if err := (Marshaler{}).Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	// Timestamps are written to the microsecond.
	for _, a := range resp.Items {
		for _, ts := range []**timestamppb.Timestamp{&a.CreatedAt, &a.UpdatedAt, &a.RemovedAt} {
			if *ts != nil {
				*ts = timestamppb.New((*ts).AsTime().Truncate(time.Microsecond))
			}
		}
		for _, c := range a.GetContents().GetItems() {
			c.CreatedAt, c.UpdatedAt = a.CreatedAt, a.UpdatedAt
		}
	}
	if !proto.Equal(resp, &back) {
		t.Error("benchmark fixture does not round-trip")
	}
}

func TestConcurrentUse(t *testing.T) {
	// The descriptor caches are shared: run with -race.
	resp := attributePage(10)
	want, err := Marshaler{}.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for range 8 {
		go func() {
			for range 50 {
				got, err := Marshaler{}.Marshal(resp)
				if err == nil && string(got) != string(want) {
					err = fmt.Errorf("different output")
				}
				if err == nil {
					var back catalogv1.ListAttributesResponse
					err = Marshaler{}.Unmarshal(got, &back)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalInputBodies decodes bulk bodies of 100 input types (string constraint bounds)
// and of 100 input values (strings, numbers and money objects in google.protobuf.Value): the
// bodies whose fields accept decimals.
func BenchmarkUnmarshalInputBodies(b *testing.B) {
	types := []byte("[")
	values := []byte("[")
	for i := range 100 {
		if i > 0 {
			types = append(types, ',')
			values = append(values, ',')
		}
		types = fmt.Appendf(types, `{"typeGroupUuid":"0190a4e2-7b1c-7c3d-8e4f-%012d","code":"weight-%d","dataType":"decimal",`+
			`"constraints":{"min":"0.%d","max":"100%d.5","allowedValues":["1","2.5","%d"]}}`, i, i, i, i, i)
		var v string
		switch i % 4 {
		case 0:
			v = fmt.Sprintf(`"%d.99"`, i)
		case 1:
			v = fmt.Sprintf(`%d`, i)
		case 2:
			v = fmt.Sprintf(`%d.25`, i)
		default:
			v = fmt.Sprintf(`{"amount":"%d.10","currency":"EUR"}`, i)
		}
		values = fmt.Appendf(values, `{"inputTypeUuid":"0190a4e2-7b1c-7c3d-8e4f-%012d","value":%s}`, i, v)
	}
	types = append(types, ']')
	values = append(values, ']')
	b.Run("input-types", func(b *testing.B) {
		b.SetBytes(int64(len(types)))
		b.ReportAllocs()
		for b.Loop() {
			var items []*catalogv1.InputTypeCreate
			if err := (Marshaler{}).Unmarshal(types, &items); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("input-values", func(b *testing.B) {
		b.SetBytes(int64(len(values)))
		b.ReportAllocs()
		for b.Loop() {
			var items []*catalogv1.ProductInputValueCreate
			if err := (Marshaler{}).Unmarshal(values, &items); err != nil {
				b.Fatal(err)
			}
		}
	})
}
