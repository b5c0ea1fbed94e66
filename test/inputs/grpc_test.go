package inputs

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPCTypeGroups(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	tc := catalogv1.NewTypeGroupServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	cr, err := tc.CreateTypeGroup(ctx, &catalogv1.CreateTypeGroupRequest{TypeGroup: &catalogv1.TypeGroupCreate{Code: "seo", EntityType: catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_PRODUCT}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	g := cr.TypeGroup
	if g.Code != "seo" || g.DisplayName != "seo" || g.EntityType != catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_PRODUCT || !UUIDRe.MatchString(g.Uuid) || g.CreatedAt == nil {
		t.Errorf("created %v", g)
	}
	log.Expect(t, "create", Ev("type_group.created", "typeGroupUuid", g.Uuid))
	got, err := tc.GetTypeGroup(ctx, &catalogv1.GetTypeGroupRequest{TypeGroupUuid: g.Uuid})
	if err != nil || !proto.Equal(got.TypeGroup, g) {
		t.Errorf("get %v %v", got, err)
	}
	bc, err := tc.BulkCreateTypeGroups(ctx, &catalogv1.BulkCreateTypeGroupsRequest{Items: []*catalogv1.TypeGroupCreate{
		{Code: "story", DisplayName: proto.String("Story"), EntityType: catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_BRAND},
	}})
	if err != nil || len(bc.Items) != 1 || bc.Items[0].DisplayName != "Story" {
		t.Fatalf("bulk create %v %v", bc, err)
	}
	// A mask naming only display_name leaves entity_type alone though it is set.
	up, err := tc.UpdateTypeGroup(ctx, &catalogv1.UpdateTypeGroupRequest{TypeGroupUuid: g.Uuid, TypeGroup: &catalogv1.TypeGroupUpdate{
		DisplayName: proto.String("SEO"), EntityType: catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_ASSET.Enum(),
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"display_name"}},
	}})
	if err != nil || up.TypeGroup.DisplayName != "SEO" || up.TypeGroup.EntityType != catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_PRODUCT {
		t.Errorf("masked update %v %v", up, err)
	}
	bu, err := tc.BulkUpdateTypeGroups(ctx, &catalogv1.BulkUpdateTypeGroupsRequest{Items: []*catalogv1.TypeGroupUpdate{
		{Uuid: g.Uuid, EntityType: catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_CATEGORY.Enum()},
	}})
	if err != nil || len(bu.Items) != 1 || bu.Items[0].EntityType != catalogv1.TypeGroupEntityType_TYPE_GROUP_ENTITY_TYPE_CATEGORY || bu.Items[0].DisplayName != "SEO" {
		t.Errorf("bulk update %v %v", bu, err)
	}
	l, err := tc.ListTypeGroups(ctx, &catalogv1.ListTypeGroupsRequest{EntityTypes: &catalogv1.StringsFilter{Eq: []string{"brand", "category"}},
		OrderBy: []*catalogv1.OrderBy{{Field: "code", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || len(l.Items) != 2 || l.Items[0].Code != "story" || l.Items[1].Code != "seo" || l.Pagination.GetTotalItems() != 2 {
		t.Errorf("list %v %v", l, err)
	}
	log.Expect(t, "writes", Ev("type_group.created", "typeGroupUuid", bc.Items[0].Uuid), Ev("type_group.updated", "typeGroupUuid", g.Uuid), Ev("type_group.updated", "typeGroupUuid", g.Uuid))

	_, err = tc.CreateTypeGroup(ctx, &catalogv1.CreateTypeGroupRequest{TypeGroup: &catalogv1.TypeGroupCreate{Code: "x"}})
	WantGRPC(t, "no entity type", err, codes.InvalidArgument, "VALIDATION_FAILED", "entityType")
	_, err = tc.CreateTypeGroup(ctx, &catalogv1.CreateTypeGroupRequest{TypeGroup: &catalogv1.TypeGroupCreate{Code: "x", EntityType: 99}})
	WantGRPC(t, "unknown entity type number", err, codes.InvalidArgument, "VALIDATION_FAILED", "entityType")
	_, err = tc.UpdateTypeGroup(ctx, &catalogv1.UpdateTypeGroupRequest{TypeGroupUuid: g.Uuid, TypeGroup: &catalogv1.TypeGroupUpdate{EntityType: catalogv1.TypeGroupEntityType(0).Enum()}})
	WantGRPC(t, "unspecified entity type on update", err, codes.InvalidArgument, "VALIDATION_FAILED", "entityType")
	_, err = tc.CreateTypeGroup(ctx, &catalogv1.CreateTypeGroupRequest{TypeGroup: &catalogv1.TypeGroupCreate{Code: "seo", EntityType: 1}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "code")
	_, err = tc.GetTypeGroup(GRPCContext(t, "t-"+RandomHex(8)), &catalogv1.GetTypeGroupRequest{TypeGroupUuid: g.Uuid})
	WantGRPC(t, "other tenant", err, codes.NotFound, "NOT_FOUND")
	_, err = tc.DeleteTypeGroup(GRPCContext(t, tenant, "catalog:read"), &catalogv1.DeleteTypeGroupRequest{TypeGroupUuid: g.Uuid})
	WantGRPC(t, "read-only delete", err, codes.PermissionDenied, "FORBIDDEN")
	log.Expect(t, "refused")
	if _, err := tc.DeleteTypeGroup(ctx, &catalogv1.DeleteTypeGroupRequest{TypeGroupUuid: g.Uuid}); err != nil {
		t.Fatalf("delete %v", err)
	}
	log.Expect(t, "delete", Ev("type_group.deleted", "typeGroupUuid", g.Uuid))
}

func TestGRPCInputTypes(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	rc := env.ClientFor(t, tenant)
	g := mkTypeGroup(t, rc, "seo", "product")
	ic := catalogv1.NewInputTypeServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	cr, err := ic.CreateInputType(ctx, &catalogv1.CreateInputTypeRequest{InputType: &catalogv1.InputTypeCreate{
		TypeGroupUuid: g, Code: "title", DataType: catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_TEXT, IsLocalizable: proto.Bool(true),
		Constraints: &catalogv1.InputTypeConstraints{MinLength: proto.Int32(1), MaxLength: proto.Int32(60), Pattern: proto.String(`\S`),
			AllowedValues: &catalogv1.InputTypeAllowedValues{Values: []string{"Hello", "World"}}},
	}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	it := cr.InputType
	if it.TypeGroupUuid != g || it.Code != "title" || !it.IsLocalizable || it.Constraints.GetMaxLength() != 60 || len(it.Constraints.GetAllowedValues().GetValues()) != 2 || it.Constraints.Min != nil {
		t.Errorf("created %v", it)
	}
	log.Expect(t, "create", Ev("input_type.created", "inputTypeUuid", it.Uuid))
	got, err := ic.GetInputType(ctx, &catalogv1.GetInputTypeRequest{InputTypeUuid: it.Uuid})
	if err != nil || !proto.Equal(got.InputType, it) {
		t.Errorf("get %v %v", got, err)
	}

	update := func(what string, u *catalogv1.InputTypeUpdate) *catalogv1.InputType {
		t.Helper()
		r, err := ic.UpdateInputType(ctx, &catalogv1.UpdateInputTypeRequest{InputTypeUuid: it.Uuid, InputType: u})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return r.InputType
	}
	// Constraints by presence: only those set change.
	u := update("presence", &catalogv1.InputTypeUpdate{Constraints: &catalogv1.InputTypeConstraintsPatch{MaxLength: proto.Int32(80)}})
	if u.Constraints.GetMaxLength() != 80 || u.Constraints.GetMinLength() != 1 || u.Constraints.GetPattern() != `\S` || len(u.Constraints.GetAllowedValues().GetValues()) != 2 {
		t.Errorf("presence patch: %v", u.Constraints)
	}
	// The patch's mask names constraints to remove.
	u = update("mask removes", &catalogv1.InputTypeUpdate{Constraints: &catalogv1.InputTypeConstraintsPatch{
		MinLength: proto.Int32(2), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"pattern", "allowed_values"}}}})
	if u.Constraints.Pattern != nil || u.Constraints.AllowedValues != nil || u.Constraints.GetMinLength() != 1 || u.Constraints.GetMaxLength() != 80 {
		t.Errorf("mask patch: %v", u.Constraints)
	}
	// The update's mask naming constraints with no value removes them all.
	u = update("mask clears", &catalogv1.InputTypeUpdate{DisplayName: proto.String("Title"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"constraints", "display_name"}}})
	if u.Constraints == nil || u.Constraints.MinLength != nil || u.Constraints.MaxLength != nil || u.DisplayName != "Title" {
		t.Errorf("clear all: %v", u)
	}
	log.Expect(t, "updates", Ev("input_type.updated", "inputTypeUuid", it.Uuid), Ev("input_type.updated", "inputTypeUuid", it.Uuid), Ev("input_type.updated", "inputTypeUuid", it.Uuid))

	bc, err := ic.BulkCreateInputTypes(ctx, &catalogv1.BulkCreateInputTypesRequest{Items: []*catalogv1.InputTypeCreate{
		{TypeGroupUuid: g, Code: "price", DataType: catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_MONEY, Constraints: &catalogv1.InputTypeConstraints{Min: proto.String("0")}},
		{TypeGroupUuid: g, Code: "launch", DataType: catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_DATE_TIME},
	}})
	if err != nil || len(bc.Items) != 2 || bc.Items[0].Constraints.GetMin() != "0" || bc.Items[1].DataType != catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_DATE_TIME {
		t.Fatalf("bulk create %v %v", bc, err)
	}
	bu, err := ic.BulkUpdateInputTypes(ctx, &catalogv1.BulkUpdateInputTypesRequest{Items: []*catalogv1.InputTypeUpdate{
		{Uuid: bc.Items[1].Uuid, Constraints: &catalogv1.InputTypeConstraintsPatch{Max: proto.String("2030-01-01T00:00:00Z")}},
	}})
	if err != nil || bu.Items[0].Constraints.GetMax() != "2030-01-01T00:00:00Z" {
		t.Errorf("bulk update %v %v", bu, err)
	}
	l, err := ic.ListInputTypes(ctx, &catalogv1.ListInputTypesRequest{DataTypes: &catalogv1.StringsFilter{Eq: []string{"money", "date_time"}},
		IsLocalizable: &catalogv1.BoolFilter{Eq: proto.Bool(false)}, OrderBy: []*catalogv1.OrderBy{{Field: "code"}}})
	if err != nil || len(l.Items) != 2 || l.Items[0].Code != "launch" || l.Items[1].Code != "price" {
		t.Errorf("list %v %v", l, err)
	}
	log.Skip(t)

	_, err = ic.CreateInputType(ctx, &catalogv1.CreateInputTypeRequest{InputType: &catalogv1.InputTypeCreate{TypeGroupUuid: g, Code: "x",
		DataType: catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_BOOLEAN, Constraints: &catalogv1.InputTypeConstraints{Pattern: proto.String("x")}}})
	WantGRPC(t, "pattern on boolean", err, codes.InvalidArgument, "VALIDATION_FAILED", "constraints.pattern")
	_, err = ic.CreateInputType(ctx, &catalogv1.CreateInputTypeRequest{InputType: &catalogv1.InputTypeCreate{TypeGroupUuid: UnknownUUID, Code: "x",
		DataType: catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_BOOLEAN}})
	WantGRPC(t, "unknown group", err, codes.NotFound, "NOT_FOUND", "typeGroupUuid")
	_, err = ic.UpdateInputType(ctx, &catalogv1.UpdateInputTypeRequest{InputTypeUuid: it.Uuid, InputType: &catalogv1.InputTypeUpdate{DataType: catalogv1.InputTypeDataType_INPUT_TYPE_DATA_TYPE_JSON.Enum()}})
	WantGRPC(t, "dataType fixed", err, codes.InvalidArgument, "VALIDATION_FAILED", "dataType")
	_, err = ic.BulkUpdateInputTypes(ctx, &catalogv1.BulkUpdateInputTypesRequest{Items: []*catalogv1.InputTypeUpdate{
		{Uuid: it.Uuid, DisplayName: proto.String("x")},
		{Uuid: bc.Items[0].Uuid, Constraints: &catalogv1.InputTypeConstraintsPatch{Max: proto.String("-1")}},
	}})
	WantGRPC(t, "bulk min over max", err, codes.InvalidArgument, "VALIDATION_FAILED", "[1].constraints.min")
	_, err = ic.DeleteInputType(ctx, &catalogv1.DeleteInputTypeRequest{InputTypeUuid: "x"})
	WantGRPC(t, "bad uuid", err, codes.InvalidArgument, "VALIDATION_FAILED", "inputTypeUuid")
	log.Expect(t, "refused")
	if _, err := ic.DeleteInputType(ctx, &catalogv1.DeleteInputTypeRequest{InputTypeUuid: it.Uuid}); err != nil {
		t.Fatalf("delete %v", err)
	}
	log.Expect(t, "delete", Ev("input_type.deleted", "inputTypeUuid", it.Uuid))
}

func TestGRPCChannels(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	rc := env.ClientFor(t, tenant)
	en, de := CreateLocale(t, rc, "en-US"), CreateLocale(t, rc, "de-DE")
	cc := catalogv1.NewChannelServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	cr, err := cc.CreateChannel(ctx, &catalogv1.CreateChannelRequest{Channel: &catalogv1.ChannelCreate{Code: "web", LocaleUuids: []string{de, en}}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	ch := cr.Channel
	if ch.Code != "web" || len(ch.LocaleUuids) != 2 || ch.LocaleUuids[0] != de || ch.LocaleUuids[1] != en {
		t.Errorf("created %v", ch)
	}
	log.Expect(t, "create", Ev("channel.created", "channelUuid", ch.Uuid))
	got, err := cc.GetChannel(ctx, &catalogv1.GetChannelRequest{ChannelUuid: ch.Uuid})
	if err != nil || !proto.Equal(got.Channel, ch) {
		t.Errorf("get %v %v", got, err)
	}
	// Without locale_uuids the list stays; with an empty UuidList it empties.
	up, err := cc.UpdateChannel(ctx, &catalogv1.UpdateChannelRequest{ChannelUuid: ch.Uuid, Channel: &catalogv1.ChannelUpdate{DisplayName: proto.String("Web")}})
	if err != nil || up.Channel.DisplayName != "Web" || len(up.Channel.LocaleUuids) != 2 {
		t.Errorf("update %v %v", up, err)
	}
	up, err = cc.UpdateChannel(ctx, &catalogv1.UpdateChannelRequest{ChannelUuid: ch.Uuid, Channel: &catalogv1.ChannelUpdate{LocaleUuids: &catalogv1.UuidList{}}})
	if err != nil || len(up.Channel.LocaleUuids) != 0 {
		t.Errorf("empty locales %v %v", up, err)
	}
	bc, err := cc.BulkCreateChannels(ctx, &catalogv1.BulkCreateChannelsRequest{Items: []*catalogv1.ChannelCreate{{Code: "app", LocaleUuids: []string{en}}}})
	if err != nil || len(bc.Items) != 1 || len(bc.Items[0].LocaleUuids) != 1 {
		t.Fatalf("bulk create %v %v", bc, err)
	}
	bu, err := cc.BulkUpdateChannels(ctx, &catalogv1.BulkUpdateChannelsRequest{Items: []*catalogv1.ChannelUpdate{
		{Uuid: ch.Uuid, LocaleUuids: &catalogv1.UuidList{Values: []string{de}}},
	}})
	if err != nil || len(bu.Items) != 1 || len(bu.Items[0].LocaleUuids) != 1 || bu.Items[0].LocaleUuids[0] != de {
		t.Errorf("bulk update %v %v", bu, err)
	}
	l, err := cc.ListChannels(ctx, &catalogv1.ListChannelsRequest{LocaleUuids: &catalogv1.StringsFilter{Eq: []string{en}}})
	if err != nil || len(l.Items) != 1 || l.Items[0].Code != "app" || l.Pagination.GetTotalItems() != 1 {
		t.Errorf("list %v %v", l, err)
	}
	log.Expect(t, "writes", Ev("channel.updated", "channelUuid", ch.Uuid), Ev("channel.updated", "channelUuid", ch.Uuid),
		Ev("channel.created", "channelUuid", bc.Items[0].Uuid), Ev("channel.updated", "channelUuid", ch.Uuid))

	_, err = cc.CreateChannel(ctx, &catalogv1.CreateChannelRequest{Channel: &catalogv1.ChannelCreate{Code: "x", LocaleUuids: []string{en, UnknownUUID}}})
	WantGRPC(t, "unknown locale", err, codes.NotFound, "NOT_FOUND", "localeUuids[1]")
	_, err = cc.BulkUpdateChannels(ctx, &catalogv1.BulkUpdateChannelsRequest{Items: []*catalogv1.ChannelUpdate{
		{Uuid: ch.Uuid, Code: proto.String("web2")}, {Uuid: bc.Items[0].Uuid, LocaleUuids: &catalogv1.UuidList{Values: []string{en, en}}},
	}})
	WantGRPC(t, "bulk repeated locale", err, codes.InvalidArgument, "VALIDATION_FAILED", "[1].localeUuids[1]")
	_, err = cc.CreateChannel(ctx, &catalogv1.CreateChannelRequest{Channel: &catalogv1.ChannelCreate{Code: "app"}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "code")
	lc := catalogv1.NewLocaleServiceClient(env.GRPC)
	_, err = lc.DeleteLocale(ctx, &catalogv1.DeleteLocaleRequest{LocaleUuid: de})
	WantGRPC(t, "delete a needed locale", err, codes.FailedPrecondition, "IN_USE")
	log.Expect(t, "refused")
	if _, err := cc.DeleteChannel(ctx, &catalogv1.DeleteChannelRequest{ChannelUuid: ch.Uuid}); err != nil {
		t.Fatalf("delete %v", err)
	}
	log.Expect(t, "delete", Ev("channel.deleted", "channelUuid", ch.Uuid))
}

func TestGRPCChannelInputTypes(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	rc := env.ClientFor(t, tenant)
	its := inputTypes(t, rc, "title", "price")
	ch := Str(mkChannel(t, rc, "web"), "uuid")
	lc := catalogv1.NewChannelInputTypeServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)
	lev := func(verb, id string) Event {
		return Ev("channel.input_type."+verb, "channelUuid", ch, "channelInputTypeUuid", id)
	}

	cr, err := lc.CreateChannelInputType(ctx, &catalogv1.CreateChannelInputTypeRequest{ChannelUuid: ch, ChannelInputType: &catalogv1.ChannelInputTypeCreate{
		InputTypeUuid: its[0], RequirementLevel: catalogv1.ChannelInputTypeRequirementLevel_CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_REQUIRED}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	l := cr.ChannelInputType
	if l.ChannelUuid != ch || l.InputTypeUuid != its[0] || l.Scoping != catalogv1.ChannelInputTypeScoping_CHANNEL_INPUT_TYPE_SCOPING_GLOBAL {
		t.Errorf("created %v", l)
	}
	log.Expect(t, "link", lev("linked", l.Uuid))
	got, err := lc.GetChannelInputType(ctx, &catalogv1.GetChannelInputTypeRequest{ChannelUuid: ch, ChannelInputTypeUuid: l.Uuid})
	if err != nil || !proto.Equal(got.ChannelInputType, l) {
		t.Errorf("get %v %v", got, err)
	}
	up, err := lc.UpdateChannelInputType(ctx, &catalogv1.UpdateChannelInputTypeRequest{ChannelUuid: ch, ChannelInputTypeUuid: l.Uuid, ChannelInputType: &catalogv1.ChannelInputTypeUpdate{
		Scoping: catalogv1.ChannelInputTypeScoping_CHANNEL_INPUT_TYPE_SCOPING_CHANNEL.Enum()}})
	if err != nil || up.ChannelInputType.Scoping != catalogv1.ChannelInputTypeScoping_CHANNEL_INPUT_TYPE_SCOPING_CHANNEL ||
		up.ChannelInputType.RequirementLevel != catalogv1.ChannelInputTypeRequirementLevel_CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_REQUIRED {
		t.Errorf("update %v %v", up, err)
	}
	bc, err := lc.BulkCreateChannelInputTypes(ctx, &catalogv1.BulkCreateChannelInputTypesRequest{ChannelUuid: ch, Items: []*catalogv1.ChannelInputTypeCreate{
		{InputTypeUuid: its[1], RequirementLevel: catalogv1.ChannelInputTypeRequirementLevel_CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_OPTIONAL},
	}})
	if err != nil || len(bc.Items) != 1 {
		t.Fatalf("bulk create %v %v", bc, err)
	}
	bu, err := lc.BulkUpdateChannelInputTypes(ctx, &catalogv1.BulkUpdateChannelInputTypesRequest{ChannelUuid: ch, Items: []*catalogv1.ChannelInputTypeUpdate{
		{Uuid: bc.Items[0].Uuid, RequirementLevel: catalogv1.ChannelInputTypeRequirementLevel_CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_RECOMMENDED.Enum()},
	}})
	if err != nil || bu.Items[0].RequirementLevel != catalogv1.ChannelInputTypeRequirementLevel_CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_RECOMMENDED {
		t.Errorf("bulk update %v %v", bu, err)
	}
	list, err := lc.ListChannelInputTypes(ctx, &catalogv1.ListChannelInputTypesRequest{ChannelUuid: ch, Scopings: &catalogv1.StringsFilter{Eq: []string{"global"}}})
	if err != nil || len(list.Items) != 1 || list.Items[0].Uuid != bc.Items[0].Uuid {
		t.Errorf("list %v %v", list, err)
	}
	log.Expect(t, "writes", lev("updated", l.Uuid), lev("linked", bc.Items[0].Uuid), lev("updated", bc.Items[0].Uuid))

	_, err = lc.CreateChannelInputType(ctx, &catalogv1.CreateChannelInputTypeRequest{ChannelUuid: ch, ChannelInputType: &catalogv1.ChannelInputTypeCreate{
		InputTypeUuid: its[0], RequirementLevel: catalogv1.ChannelInputTypeRequirementLevel_CHANNEL_INPUT_TYPE_REQUIREMENT_LEVEL_OPTIONAL}})
	WantGRPC(t, "second link", err, codes.AlreadyExists, "ALREADY_EXISTS", "inputTypeUuid")
	_, err = lc.CreateChannelInputType(ctx, &catalogv1.CreateChannelInputTypeRequest{ChannelUuid: ch, ChannelInputType: &catalogv1.ChannelInputTypeCreate{InputTypeUuid: its[0]}})
	WantGRPC(t, "no level", err, codes.InvalidArgument, "VALIDATION_FAILED", "requirementLevel")
	_, err = lc.UpdateChannelInputType(ctx, &catalogv1.UpdateChannelInputTypeRequest{ChannelUuid: ch, ChannelInputTypeUuid: l.Uuid, ChannelInputType: &catalogv1.ChannelInputTypeUpdate{
		Scoping: catalogv1.ChannelInputTypeScoping(7).Enum()}})
	WantGRPC(t, "unknown scoping number", err, codes.InvalidArgument, "VALIDATION_FAILED", "scoping")
	_, err = lc.ListChannelInputTypes(ctx, &catalogv1.ListChannelInputTypesRequest{ChannelUuid: UnknownUUID})
	WantGRPC(t, "unknown channel", err, codes.NotFound, "NOT_FOUND")
	_, err = catalogv1.NewInputTypeServiceClient(env.GRPC).DeleteInputType(ctx, &catalogv1.DeleteInputTypeRequest{InputTypeUuid: its[0]})
	WantGRPC(t, "delete a linked input type", err, codes.FailedPrecondition, "IN_USE")
	log.Expect(t, "refused")
	if _, err := lc.DeleteChannelInputType(ctx, &catalogv1.DeleteChannelInputTypeRequest{ChannelUuid: ch, ChannelInputTypeUuid: l.Uuid}); err != nil {
		t.Fatalf("delete %v", err)
	}
	log.Expect(t, "unlink", lev("unlinked", l.Uuid))
}
