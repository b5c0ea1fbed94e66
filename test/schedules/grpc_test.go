package schedules

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	pub := mkPub(t, c, p)
	ctx := GRPCContext(t, tenant)
	sc := pb.NewPublicationScheduleServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)
	publish := pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_PUBLISH
	unpublish := pb.ProductPublicationTransition_PRODUCT_PUBLICATION_TRANSITION_UNPUBLISH
	at := far(1)

	created, err := sc.CreatePublicationSchedule(ctx, &pb.CreatePublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub,
		PublicationSchedule: &pb.PublicationScheduleCreate{Transition: publish, ScheduledAt: timestamppb.New(at)}})
	if err != nil {
		t.Fatal(err)
	}
	v := created.PublicationSchedule
	if v.ProductUuid != p || v.PublicationUuid != pub || v.Transition != publish || !v.ScheduledAt.AsTime().Equal(at) ||
		v.Status != pb.PublicationScheduleStatus_PUBLICATION_SCHEDULE_STATUS_PENDING || v.ExecutedAt != nil || v.FailureCode != nil {
		t.Errorf("created %v", v)
	}
	log.Expect(t, "create", ev("created", p, pub, v.Uuid))
	_, err = sc.CreatePublicationSchedule(ctx, &pb.CreatePublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub,
		PublicationSchedule: &pb.PublicationScheduleCreate{Transition: publish, ScheduledAt: timestamppb.New(time.Now().Add(-time.Hour))}})
	WantGRPC(t, "past", err, codes.InvalidArgument, "VALIDATION_FAILED", "scheduledAt")
	_, err = sc.CreatePublicationSchedule(ctx, &pb.CreatePublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub,
		PublicationSchedule: &pb.PublicationScheduleCreate{ScheduledAt: timestamppb.New(at)}})
	WantGRPC(t, "no transition", err, codes.InvalidArgument, "VALIDATION_FAILED", "transition")

	// Over gRPC the update mask names the fields that change.
	up, err := sc.UpdatePublicationSchedule(ctx, &pb.UpdatePublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub, ScheduleUuid: v.Uuid,
		PublicationSchedule: &pb.PublicationScheduleUpdate{Transition: &unpublish, ScheduledAt: timestamppb.New(far(9)),
			UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"transition"}}}})
	if err != nil || up.PublicationSchedule.Transition != unpublish || !up.PublicationSchedule.ScheduledAt.AsTime().Equal(at) {
		t.Fatalf("update %v %v", up, err)
	}
	bulk, err := sc.BulkCreatePublicationSchedules(ctx, &pb.BulkCreatePublicationSchedulesRequest{ProductUuid: p, PublicationUuid: pub,
		Items: []*pb.PublicationScheduleCreate{{Transition: publish, ScheduledAt: timestamppb.New(far(2))}}})
	if err != nil || len(bulk.Items) != 1 {
		t.Fatalf("bulk %v %v", bulk, err)
	}
	bu, err := sc.BulkUpdatePublicationSchedules(ctx, &pb.BulkUpdatePublicationSchedulesRequest{ProductUuid: p, PublicationUuid: pub,
		Items: []*pb.PublicationScheduleUpdate{{Uuid: bulk.Items[0].Uuid, Transition: &unpublish}}})
	if err != nil || len(bu.Items) != 1 || bu.Items[0].Transition != unpublish {
		t.Fatalf("bulk update %v %v", bu, err)
	}
	l, err := sc.ListPublicationSchedules(ctx, &pb.ListPublicationSchedulesRequest{ProductUuid: p, PublicationUuid: pub,
		Transitions: &pb.StringsFilter{Eq: []string{"unpublish"}}, OrderBy: []*pb.OrderBy{{Field: "scheduledAt", Direction: pb.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || len(l.Items) != 2 || l.Items[0].Uuid != bulk.Items[0].Uuid || l.Pagination.TotalItems != 2 {
		t.Errorf("list %v %v", l, err)
	}
	cancelTr := pb.PublicationScheduleTransition_PUBLICATION_SCHEDULE_TRANSITION_CANCEL
	log.Skip(t)
	tr, err := sc.TransitionPublicationSchedule(ctx, &pb.TransitionPublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub,
		ScheduleUuid: v.Uuid, Transition: cancelTr})
	if err != nil || tr.PublicationSchedule.Status != pb.PublicationScheduleStatus_PUBLICATION_SCHEDULE_STATUS_CANCELLED {
		t.Fatalf("cancel %v %v", tr, err)
	}
	log.Expect(t, "cancel", ev("cancelled", p, pub, v.Uuid))
	_, err = sc.UpdatePublicationSchedule(ctx, &pb.UpdatePublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub, ScheduleUuid: v.Uuid,
		PublicationSchedule: &pb.PublicationScheduleUpdate{Transition: &publish}})
	if meta := WantGRPC(t, "update cancelled", err, codes.FailedPrecondition, "INVALID_TRANSITION"); meta["currentStatus"] != "cancelled" ||
		meta["allowedTransitions"] != "[]" {
		t.Errorf("meta %v", meta)
	}
	WantTransitionMeta(t, "update cancelled", GRPCMeta(err), "cancelled")
	bt, err := sc.BulkTransitionPublicationSchedules(ctx, &pb.BulkTransitionPublicationSchedulesRequest{ProductUuid: p, PublicationUuid: pub,
		Transition: cancelTr, Uuids: []string{bulk.Items[0].Uuid}})
	if err != nil || len(bt.Items) != 1 || bt.Items[0].Status != pb.PublicationScheduleStatus_PUBLICATION_SCHEDULE_STATUS_CANCELLED {
		t.Fatalf("bulk cancel %v %v", bt, err)
	}
	g, err := sc.GetPublicationSchedule(ctx, &pb.GetPublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub, ScheduleUuid: v.Uuid})
	if err != nil || g.PublicationSchedule.Uuid != v.Uuid {
		t.Errorf("get %v %v", g, err)
	}
	log.Skip(t)
	if _, err := sc.DeletePublicationSchedule(ctx, &pb.DeletePublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub, ScheduleUuid: v.Uuid}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "delete", ev("deleted", p, pub, v.Uuid))
	_, err = sc.GetPublicationSchedule(ctx, &pb.GetPublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub, ScheduleUuid: v.Uuid})
	WantGRPC(t, "deleted", err, codes.NotFound, "NOT_FOUND")
	_, err = pb.NewPublicationScheduleServiceClient(env.GRPC).GetPublicationSchedule(GRPCContext(t, "t-"+RandomHex(6)),
		&pb.GetPublicationScheduleRequest{ProductUuid: p, PublicationUuid: pub, ScheduleUuid: bulk.Items[0].Uuid})
	WantGRPC(t, "other tenant", err, codes.NotFound, "NOT_FOUND")
}
