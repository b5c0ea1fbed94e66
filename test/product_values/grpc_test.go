package product_values

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPCInputValues(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	c := env.ClientFor(t, tenant)
	p := mkProduct(t, c, "simple")
	it := mkInputType(t, c, mkGroup(t, c), "money")
	ctx := GRPCContext(t, tenant)
	vc := pb.NewProductInputValueServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	money, _ := structpb.NewValue(map[string]any{"amount": "10.00", "currency": "USD"})
	created, err := vc.CreateProductInputValue(ctx, &pb.CreateProductInputValueRequest{ProductUuid: p,
		ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: it, Value: money}})
	if err != nil {
		t.Fatal(err)
	}
	v := created.ProductInputValue
	if v.ProductUuid != p || v.InputTypeUuid != it || v.ChannelUuid != nil || v.LocaleUuid != nil || v.Inherited ||
		v.Value.GetStructValue().Fields["currency"].GetStringValue() != "USD" {
		t.Errorf("created %v", v)
	}
	log.Expect(t, "create", ev("created", p, v.Uuid))
	got, err := vc.GetProductInputValue(ctx, &pb.GetProductInputValueRequest{ProductUuid: p, InputValueUuid: v.Uuid})
	if err != nil || got.ProductInputValue.Value.GetStructValue().Fields["amount"].GetStringValue() != "10.00" {
		t.Errorf("get %v %v", got, err)
	}
	_, err = vc.UpdateProductInputValue(ctx, &pb.UpdateProductInputValueRequest{ProductUuid: p, InputValueUuid: v.Uuid,
		ProductInputValue: &pb.ProductInputValueUpdate{Value: structpb.NewStringValue("10")}})
	WantGRPC(t, "bad money", err, codes.InvalidArgument, "VALIDATION_FAILED", "value")
	_, err = vc.CreateProductInputValue(ctx, &pb.CreateProductInputValueRequest{ProductUuid: p,
		ProductInputValue: &pb.ProductInputValueCreate{InputTypeUuid: it, Value: money}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "inputTypeUuid")
	l, err := vc.ListProductInputValues(ctx, &pb.ListProductInputValuesRequest{ProductUuid: p, Include: &pb.ProductInputValueInclude{Inherited: true}})
	if err != nil || len(l.Items) != 1 || l.Items[0].Uuid != v.Uuid {
		t.Errorf("list %v %v", l, err)
	}
	if _, err := vc.DeleteProductInputValue(ctx, &pb.DeleteProductInputValueRequest{ProductUuid: p, InputValueUuid: v.Uuid}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "delete", ev("deleted", p, v.Uuid))
}
