package etag

import (
	"context"
	"testing"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

func TestOfIgnoresViewsAndTag(t *testing.T) {
	a := &pb.Attribute{Uuid: "u", Code: "c", UpdatedAt: timestamppb.Now()}
	base := Of(a)
	if len(base) != 24 || base[0] != '"' || base[23] != '"' {
		t.Fatalf("tag %q: want a quoted 22-character tag", base)
	}
	a.ContentUuids = &pb.UuidList{Values: []string{"x"}}
	a.Etag = `"whatever"`
	if Of(a) != base {
		t.Error("include views or the etag field changed the tag")
	}
	a.Code = "d"
	if Of(a) == base {
		t.Error("a changed field kept the tag")
	}
}

func TestFill(t *testing.T) {
	resp := &pb.ListAttributesResponse{Items: []*pb.Attribute{{Uuid: "a"}, {Uuid: "b"}}}
	Fill(resp)
	for _, it := range resp.Items {
		if it.Etag == "" || it.Etag != Of(it) {
			t.Errorf("item %s: etag %q", it.Uuid, it.Etag)
		}
	}
	if resp.Items[0].Etag == resp.Items[1].Etag {
		t.Error("two resources share a tag")
	}
	// Update bodies carry an optional etag (a condition): never filled.
	u := &pb.AttributeUpdate{Uuid: "a"}
	Fill(u)
	if u.Etag != nil {
		t.Error("an update body's etag was filled")
	}
}

// FillTop tags the answer's own resource, the same tag Fill gives it, and nothing below it.
func TestFillTop(t *testing.T) {
	get := func() *pb.GetProductResponse {
		return &pb.GetProductResponse{Product: &pb.Product{Uuid: "p", Code: "P",
			ProductTags: &pb.ProductTagList{Items: []*pb.ProductTag{{Uuid: "t"}}}, Variants: &pb.ProductList{Items: []*pb.Product{{Uuid: "v"}}}}}
	}
	top, all := get(), get()
	FillTop(top)
	Fill(all)
	if top.Product.Etag == "" || top.Product.Etag != all.Product.Etag {
		t.Fatalf("FillTop tagged the product %q, Fill %q", top.Product.Etag, all.Product.Etag)
	}
	if top.Product.ProductTags.Items[0].Etag != "" || top.Product.Variants.Items[0].Etag != "" {
		t.Error("FillTop tagged the resources below the answer's own")
	}
	if all.Product.ProductTags.Items[0].Etag == "" || all.Product.Variants.Items[0].Etag == "" {
		t.Error("Fill left the resources below the answer's own untagged")
	}
	list := &pb.ListAttributesResponse{Items: []*pb.Attribute{{Uuid: "a"}}}
	FillTop(list)
	if list.Items[0].Etag != "" {
		t.Error("FillTop tagged a list's items")
	}
	FillTop(nil)
}

func TestConditions(t *testing.T) {
	for _, c := range []struct {
		h     string
		ok    bool
		tag   string
		match bool
	}{
		{`"a"`, true, `"a"`, true},
		{`"a"`, true, `"b"`, false},
		{`"x", "a"`, true, `"a"`, true},
		{`W/"a"`, true, `"a"`, false}, // strong comparison
		{`*`, true, `"a"`, true},
		{`a`, false, "", false},
		{`"a`, false, "", false},
		{`"a" "b"`, false, "", false},
		{`"a",`, false, "", false},
		{`"a b"`, false, "", false},
		{``, false, "", false},
	} {
		cond, ok := ParseList(c.h)
		if ok != c.ok || (ok && cond.Match(c.tag) != c.match) {
			t.Errorf("If-Match %q: ok %v match %v, want %v %v", c.h, ok, cond.Match(c.tag), c.ok, c.match)
		}
	}
	for h, want := range map[string]bool{`"a"`: true, `W/"a"`: true, `*`: true, `"b", W/"a"`: true, `"b"`: false, `nope`: false} {
		if got := NoneMatch(h, `"a"`); got != want {
			t.Errorf("If-None-Match %q: %v, want %v", h, got, want)
		}
	}
	if c, ok := ParseField("abc"); !ok || !c.Match(`"abc"`) {
		t.Error("an unquoted etag field is its opaque tag")
	}
	if _, ok := ParseField(`"a", "b"`); ok {
		t.Error("an etag field holds one tag")
	}
}

func TestCheck(t *testing.T) {
	a := &pb.Attribute{Uuid: "u"}
	if err := Check(context.Background(), "attribute", "u", a); err != nil {
		t.Errorf("no condition: %v", err)
	}
	ctx := WithCondition(context.Background(), Condition{Tags: []string{`"stale"`}})
	err := Check(ctx, "attribute", "u", a)
	e, ok := err.(*apierr.Error)
	if !ok || e.Code != apierr.PreconditionFailed || e.Meta["etag"] != Of(a) {
		t.Fatalf("stale: %v", err)
	}
	if e.Code.HTTPStatus() != 412 {
		t.Errorf("status %d", e.Code.HTTPStatus())
	}
	if err := Check(WithCondition(context.Background(), Condition{Tags: []string{Of(a)}}), "attribute", "u", a); err != nil {
		t.Errorf("current tag: %v", err)
	}
}
