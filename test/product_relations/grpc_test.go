package product_relations

import (
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b, cc := mkProduct(t, c), mkProduct(t, c), mkProduct(t, c)
	one, two := mkType(t, c, "one_way"), mkType(t, c, "two_way")
	ctx := GRPCContext(t, tenant)
	rc := pb.NewProductRelationServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	created, err := rc.CreateProductRelation(ctx, &pb.CreateProductRelationRequest{ProductUuid: a,
		ProductRelation: &pb.ProductRelationCreate{ProductRelationTypeUuid: two, TargetProductUuid: b}})
	if err != nil {
		t.Fatal(err)
	}
	r := created.ProductRelation
	if r.ProductUuid != a || r.TargetProductUuid != b || r.ProductRelationTypeUuid != two || r.InverseRelationUuid == nil {
		t.Fatalf("created %v", r)
	}
	log.Expect(t, "create", ev("linked", a, r.Uuid), ev("linked", b, r.GetInverseRelationUuid()))
	inv, err := rc.GetProductRelation(ctx, &pb.GetProductRelationRequest{ProductUuid: b, ProductRelationUuid: r.GetInverseRelationUuid()})
	if err != nil || inv.ProductRelation.GetInverseRelationUuid() != r.Uuid || inv.ProductRelation.TargetProductUuid != a {
		t.Errorf("inverse: %v %v", inv, err)
	}
	bulk, err := rc.BulkCreateProductRelations(ctx, &pb.BulkCreateProductRelationsRequest{ProductUuid: a, Items: []*pb.ProductRelationCreate{
		{ProductRelationTypeUuid: one, TargetProductUuid: cc}, {ProductRelationTypeUuid: one, TargetProductUuid: b}}})
	if err != nil || len(bulk.Items) != 2 || bulk.Items[0].TargetProductUuid != cc || bulk.Items[1].InverseRelationUuid != nil {
		t.Fatalf("bulk: %v %v", bulk, err)
	}
	listed, err := rc.ListProductRelations(ctx, &pb.ListProductRelationsRequest{ProductUuid: a,
		ProductRelationTypeUuids: &pb.StringsFilter{Eq: []string{one}}})
	if err != nil || len(listed.Items) != 2 || listed.Items[0].Uuid != bulk.Items[0].Uuid || listed.Pagination.TotalItems != 2 {
		t.Errorf("list: %v %v", listed, err)
	}

	_, err = rc.CreateProductRelation(ctx, &pb.CreateProductRelationRequest{ProductUuid: b,
		ProductRelation: &pb.ProductRelationCreate{ProductRelationTypeUuid: two, TargetProductUuid: a}})
	WantGRPC(t, "reversed two-way", err, codes.AlreadyExists, "ALREADY_EXISTS", "targetProductUuid")
	_, err = rc.CreateProductRelation(ctx, &pb.CreateProductRelationRequest{ProductUuid: a,
		ProductRelation: &pb.ProductRelationCreate{ProductRelationTypeUuid: two, TargetProductUuid: a}})
	WantGRPC(t, "self", err, codes.InvalidArgument, "VALIDATION_FAILED", "targetProductUuid")
	_, err = rc.BulkCreateProductRelations(ctx, &pb.BulkCreateProductRelationsRequest{ProductUuid: a, Items: []*pb.ProductRelationCreate{
		{ProductRelationTypeUuid: two, TargetProductUuid: cc}, {ProductRelationTypeUuid: UnknownUUID, TargetProductUuid: cc}}})
	WantGRPC(t, "unknown type", err, codes.NotFound, "NOT_FOUND", "[1].productRelationTypeUuid")
	log.Expect(t, "bulk and failures", ev("linked", a, bulk.Items[0].Uuid), ev("linked", a, bulk.Items[1].Uuid))

	if _, err := rc.DeleteProductRelation(ctx, &pb.DeleteProductRelationRequest{ProductUuid: b, ProductRelationUuid: r.GetInverseRelationUuid()}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "delete", ev("unlinked", b, r.GetInverseRelationUuid()), ev("unlinked", a, r.Uuid))
	_, err = rc.GetProductRelation(ctx, &pb.GetProductRelationRequest{ProductUuid: a, ProductRelationUuid: r.Uuid})
	WantGRPC(t, "get the deleted pair", err, codes.NotFound, "NOT_FOUND")
}
