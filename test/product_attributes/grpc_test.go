package product_attributes

import (
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := GRPCContext(t, tenant)
	p := mkProduct(t, c, "simple")
	a := mkAttr(t, c)
	term := mkTerm(t, c, a)
	log := NewEventLog(pool, tenant).Skip(t)

	pac := pb.NewProductAttributeServiceClient(env.GRPC)
	created, err := pac.CreateProductAttribute(ctx, &pb.CreateProductAttributeRequest{ProductUuid: p, ProductAttribute: &pb.ProductAttributeCreate{AttributeUuid: a}})
	if err != nil || created.ProductAttribute.AttributeUuid != a || created.ProductAttribute.IsVariantAxis {
		t.Fatalf("create: %v %v", created, err)
	}
	pa := created.ProductAttribute.Uuid
	log.Expect(t, "create", paEv("linked", p, pa))
	axis := true
	_, err = pac.UpdateProductAttribute(ctx, &pb.UpdateProductAttributeRequest{ProductUuid: p, ProductAttributeUuid: pa, ProductAttribute: &pb.ProductAttributeUpdate{IsVariantAxis: &axis}})
	WantGRPC(t, "axis on simple", err, codes.InvalidArgument, "VALIDATION_FAILED", "isVariantAxis")
	_, err = pac.CreateProductAttribute(ctx, &pb.CreateProductAttributeRequest{ProductUuid: p, ProductAttribute: &pb.ProductAttributeCreate{AttributeUuid: a}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "attributeUuid")
	list, err := pac.ListProductAttributes(ctx, &pb.ListProductAttributesRequest{ProductUuid: p})
	if err != nil || len(list.Items) != 1 || list.Items[0].Uuid != pa {
		t.Errorf("list: %v %v", list, err)
	}

	ptc := pb.NewProductTermServiceClient(env.GRPC)
	pt, err := ptc.CreateProductTerm(ctx, &pb.CreateProductTermRequest{ProductUuid: p, ProductAttributeUuid: pa, ProductTerm: &pb.ProductTermCreate{TermUuid: term}})
	if err != nil || pt.ProductTerm.TermUuid != term || pt.ProductTerm.ProductAttributeUuid != pa || pt.ProductTerm.ProductUuid != p {
		t.Fatalf("create term: %v %v", pt, err)
	}
	log.Expect(t, "create term", ptEv("linked", p, pa, pt.ProductTerm.Uuid))
	_, err = ptc.CreateProductTerm(ctx, &pb.CreateProductTermRequest{ProductUuid: p, ProductAttributeUuid: pa, ProductTerm: &pb.ProductTermCreate{TermUuid: UnknownUUID}})
	WantGRPC(t, "unknown term", err, codes.NotFound, "NOT_FOUND", "termUuid")
	got, err := ptc.GetProductTerm(ctx, &pb.GetProductTermRequest{ProductUuid: p, ProductAttributeUuid: pa, ProductTermUuid: pt.ProductTerm.Uuid})
	if err != nil || got.ProductTerm.TermUuid != term {
		t.Errorf("get term: %v %v", got, err)
	}
	if _, err := ptc.DeleteProductTerm(ctx, &pb.DeleteProductTermRequest{ProductUuid: p, ProductAttributeUuid: pa, ProductTermUuid: pt.ProductTerm.Uuid}); err != nil {
		t.Fatal(err)
	}
	if _, err := pac.DeleteProductAttribute(ctx, &pb.DeleteProductAttributeRequest{ProductUuid: p, ProductAttributeUuid: pa}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "deletes", ptEv("unlinked", p, pa, pt.ProductTerm.Uuid), paEv("unlinked", p, pa))
}
