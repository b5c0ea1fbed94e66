package publications

import (
	"encoding/json"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	ch, ch2 := mkChannel(t, c), mkChannel(t, c)
	ctx := GRPCContext(t, tenant)
	sc := pb.NewProductPublicationServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	created, err := sc.CreateProductPublication(ctx, &pb.CreateProductPublicationRequest{ProductUuid: p,
		ProductPublication: &pb.ProductPublicationCreate{ChannelUuid: ch}})
	if err != nil {
		t.Fatal(err)
	}
	v := created.ProductPublication
	if v.ProductUuid != p || v.ChannelUuid != ch || v.Status != pb.ProductPublicationStatus_PRODUCT_PUBLICATION_STATUS_DRAFT || v.PublishedAt != nil {
		t.Errorf("created %v", v)
	}
	log.Expect(t, "create", ev("created", p, v.Uuid))
	_, err = sc.CreateProductPublication(ctx, &pb.CreateProductPublicationRequest{ProductUuid: p,
		ProductPublication: &pb.ProductPublicationCreate{ChannelUuid: ch}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "channelUuid")

	rd, err := sc.GetProductPublicationReadiness(ctx, &pb.GetProductPublicationReadinessRequest{ProductUuid: p, PublicationUuid: v.Uuid})
	if err != nil || rd.Ready || len(rd.Missing) != 1 || rd.Missing[0].Kind != "product" {
		t.Errorf("readiness %v %v", rd, err)
	}
	_, err = sc.TransitionProductPublication(ctx, &pb.TransitionProductPublicationRequest{ProductUuid: p, PublicationUuid: v.Uuid,
		Transition: pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_PUBLISH})
	// BadRequest names each missing requirement; ErrorInfo carries missing as JSON text, the Struct
	// detail as an array of the readiness entries.
	meta := WantGRPC(t, "not ready", err, codes.FailedPrecondition, "REQUIREMENTS_NOT_MET", "missing[0]")
	var fromText []map[string]any
	if meta["publicationUuid"] != v.Uuid || json.Unmarshal([]byte(meta["missing"]), &fromText) != nil || len(fromText) != 1 {
		t.Errorf("meta %v", meta)
	}
	typed, _ := GRPCMeta(err)["missing"].([]any)
	if len(typed) != 1 || typed[0].(map[string]any)["kind"] != "product" || typed[0].(map[string]any)["uuid"] != p {
		t.Errorf("typed meta %v", GRPCMeta(err))
	}
	activate(t, c, p)
	log.Skip(t)
	moved, err := sc.TransitionProductPublication(ctx, &pb.TransitionProductPublicationRequest{ProductUuid: p, PublicationUuid: v.Uuid,
		Transition: pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_PUBLISH})
	if err != nil || moved.ProductPublication.Status != pb.ProductPublicationStatus_PRODUCT_PUBLICATION_STATUS_PUBLISHED || moved.ProductPublication.PublishedAt == nil {
		t.Fatalf("publish %v %v", moved, err)
	}
	log.Expect(t, "publish", moveEv("published", p, v.Uuid))

	bulk, err := sc.BulkCreateProductPublications(ctx, &pb.BulkCreateProductPublicationsRequest{ProductUuid: p,
		Items: []*pb.ProductPublicationCreate{{ChannelUuid: ch2}}})
	if err != nil || len(bulk.Items) != 1 {
		t.Fatalf("bulk %v %v", bulk, err)
	}
	bt, err := sc.BulkTransitionProductPublications(ctx, &pb.BulkTransitionProductPublicationsRequest{ProductUuid: p,
		Transition: pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_PUBLISH, Uuids: []string{bulk.Items[0].Uuid, v.Uuid}})
	if err != nil || len(bt.Items) != 2 || bt.Items[0].Status != pb.ProductPublicationStatus_PRODUCT_PUBLICATION_STATUS_PUBLISHED {
		t.Fatalf("bulk transition %v %v", bt, err)
	}
	l, err := sc.ListProductPublications(ctx, &pb.ListProductPublicationsRequest{ProductUuid: p,
		Status: &pb.StringsFilter{Eq: []string{"published"}}, ChannelUuids: &pb.StringsFilter{Eq: []string{ch}}})
	if err != nil || len(l.Items) != 1 || l.Items[0].Uuid != v.Uuid {
		t.Errorf("list %v %v", l, err)
	}
	g, err := sc.GetProductPublication(ctx, &pb.GetProductPublicationRequest{ProductUuid: p, PublicationUuid: v.Uuid})
	if err != nil || g.ProductPublication.Uuid != v.Uuid {
		t.Errorf("get %v %v", g, err)
	}
	log.Skip(t)
	if _, err := sc.DeleteProductPublication(ctx, &pb.DeleteProductPublicationRequest{ProductUuid: p, PublicationUuid: v.Uuid}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "delete", ev("deleted", p, v.Uuid))
	_, err = sc.GetProductPublication(ctx, &pb.GetProductPublicationRequest{ProductUuid: p, PublicationUuid: v.Uuid})
	WantGRPC(t, "deleted", err, codes.NotFound, "NOT_FOUND")
}
