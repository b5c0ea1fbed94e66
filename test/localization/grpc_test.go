package localization

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPCLocales(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	lc := catalogv1.NewLocaleServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant)

	cr, err := lc.CreateLocale(ctx, &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "en-us"}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	en := cr.Locale
	if en.Code != "en-US" || en.DisplayName != "en-US" || !en.IsDefault || !UUIDRe.MatchString(en.Uuid) || en.CreatedAt == nil || !en.CreatedAt.AsTime().Equal(en.UpdatedAt.AsTime()) {
		t.Errorf("created %v", en)
	}
	log.Expect(t, "grpc create", localeEv("created", en.Uuid))
	g, err := lc.GetLocale(ctx, &catalogv1.GetLocaleRequest{LocaleUuid: en.Uuid})
	if err != nil || !proto.Equal(g.Locale, en) {
		t.Errorf("get: %v %v, want %v", g, err, en)
	}
	// The same locale over REST.
	rest := Want(t, env.ClientFor(t, tenant).Get("/v1/locales/"+en.Uuid), 200).Obj()
	if rest["code"] != "en-US" || rest["createdAt"] != en.CreatedAt.AsTime().Format("2006-01-02T15:04:05.000000Z") {
		t.Errorf("REST view %v of gRPC-created %v", rest, en)
	}

	de, err := lc.CreateLocale(ctx, &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "de-DE", DisplayName: proto.String("Deutsch")}})
	if err != nil || de.Locale.IsDefault || de.Locale.DisplayName != "Deutsch" {
		t.Fatalf("create second: %v %v", de, err)
	}
	fr, err := lc.CreateLocale(ctx, &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "fr-FR", IsDefault: proto.Bool(true)}})
	if err != nil || !fr.Locale.IsDefault {
		t.Fatalf("create default: %v %v", fr, err)
	}
	log.Expect(t, "grpc creates", localeEv("created", de.Locale.Uuid), localeEv("created", fr.Locale.Uuid), localeEv("updated", en.Uuid))

	list, err := lc.ListLocales(ctx, &catalogv1.ListLocalesRequest{IsDefault: &catalogv1.BoolFilter{Eq: proto.Bool(true)}})
	if err != nil || len(list.Items) != 1 || list.Items[0].Uuid != fr.Locale.Uuid || list.Pagination.GetTotalItems() != 1 {
		t.Errorf("list defaults: %v %v", list, err)
	}
	list, err = lc.ListLocales(ctx, &catalogv1.ListLocalesRequest{
		Code:    &catalogv1.StringFilter{Contains: proto.String("E")},
		OrderBy: []*catalogv1.OrderBy{{Field: "code", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}},
		Size:    proto.Int32(1),
	})
	if err != nil || len(list.Items) != 1 || list.Items[0].Code != "en-US" || list.Pagination.GetTotalItems() != 2 || list.Pagination.GetTotalPages() != 2 {
		t.Errorf("list code[contains]=E ordered desc, size 1: %v %v", list, err)
	}
	_, err = lc.ListLocales(ctx, &catalogv1.ListLocalesRequest{Size: proto.Int32(101)})
	WantGRPC(t, "list size 101", err, codes.InvalidArgument, "VALIDATION_FAILED", "size")

	// Update: move the default back, rename.
	up, err := lc.UpdateLocale(ctx, &catalogv1.UpdateLocaleRequest{LocaleUuid: de.Locale.Uuid, Locale: &catalogv1.LocaleUpdate{IsDefault: proto.Bool(true), DisplayName: proto.String("German")}})
	if err != nil || !up.Locale.IsDefault || up.Locale.DisplayName != "German" || up.Locale.Code != "de-DE" {
		t.Fatalf("update: %v %v", up, err)
	}
	log.Expect(t, "grpc update", localeEv("updated", de.Locale.Uuid), localeEv("updated", fr.Locale.Uuid))
	if g, _ := lc.GetLocale(ctx, &catalogv1.GetLocaleRequest{LocaleUuid: fr.Locale.Uuid}); g.GetLocale().GetIsDefault() {
		t.Errorf("old default still default: %v", g)
	}
	_, err = lc.UpdateLocale(ctx, &catalogv1.UpdateLocaleRequest{LocaleUuid: de.Locale.Uuid, Locale: &catalogv1.LocaleUpdate{IsDefault: proto.Bool(false)}})
	WantGRPC(t, "unset default", err, codes.InvalidArgument, "VALIDATION_FAILED", "isDefault")
	_, err = lc.UpdateLocale(ctx, &catalogv1.UpdateLocaleRequest{LocaleUuid: fr.Locale.Uuid, Locale: &catalogv1.LocaleUpdate{Code: proto.String("de-de")}})
	WantGRPC(t, "update to a taken code", err, codes.AlreadyExists, "ALREADY_EXISTS", "code")
	bu, err := lc.BulkUpdateLocales(ctx, &catalogv1.BulkUpdateLocalesRequest{Items: []*catalogv1.LocaleUpdate{
		{Uuid: en.Uuid, DisplayName: proto.String("English")},
		{Uuid: fr.Locale.Uuid, Code: proto.String("fr-ca")},
	}})
	if err != nil || len(bu.Items) != 2 || bu.Items[0].DisplayName != "English" || bu.Items[1].Code != "fr-CA" {
		t.Errorf("bulk update: %v %v", bu, err)
	}
	log.Expect(t, "grpc bulk update", localeEv("updated", en.Uuid), localeEv("updated", fr.Locale.Uuid))

	// Errors.
	_, err = lc.CreateLocale(ctx, &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "not a tag"}})
	WantGRPC(t, "bad code", err, codes.InvalidArgument, "VALIDATION_FAILED", "code")
	_, err = lc.CreateLocale(ctx, &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "EN-us"}})
	WantGRPC(t, "duplicate code", err, codes.AlreadyExists, "ALREADY_EXISTS", "code")
	_, err = lc.BulkCreateLocales(ctx, &catalogv1.BulkCreateLocalesRequest{Items: []*catalogv1.LocaleCreate{
		{Code: "it-IT", IsDefault: proto.Bool(true)}, {Code: "es-ES", IsDefault: proto.Bool(true)},
	}})
	WantGRPC(t, "two defaults", err, codes.InvalidArgument, "VALIDATION_FAILED", "[1].isDefault")
	_, err = lc.BulkCreateLocales(ctx, &catalogv1.BulkCreateLocalesRequest{})
	WantGRPC(t, "empty bulk", err, codes.InvalidArgument, "VALIDATION_FAILED")
	_, err = lc.DeleteLocale(ctx, &catalogv1.DeleteLocaleRequest{LocaleUuid: de.Locale.Uuid})
	WantGRPC(t, "delete the default", err, codes.FailedPrecondition, "IN_USE")
	_, err = lc.GetLocale(ctx, &catalogv1.GetLocaleRequest{LocaleUuid: "nope"})
	WantGRPC(t, "bad uuid", err, codes.InvalidArgument, "VALIDATION_FAILED", "localeUuid")
	log.Expect(t, "grpc refused writes")

	// Delete.
	if _, err := lc.DeleteLocale(ctx, &catalogv1.DeleteLocaleRequest{LocaleUuid: en.Uuid}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	log.Expect(t, "grpc delete", localeEv("deleted", en.Uuid))
	_, err = lc.GetLocale(ctx, &catalogv1.GetLocaleRequest{LocaleUuid: en.Uuid})
	WantGRPC(t, "get deleted", err, codes.NotFound, "NOT_FOUND")
	_, err = lc.DeleteLocale(ctx, &catalogv1.DeleteLocaleRequest{LocaleUuid: en.Uuid})
	WantGRPC(t, "delete deleted", err, codes.NotFound, "NOT_FOUND")

	// Authorization and tenancy.
	_, err = lc.ListLocales(context.Background(), &catalogv1.ListLocalesRequest{})
	WantGRPC(t, "no token", err, codes.Unauthenticated, "UNAUTHENTICATED")
	_, err = lc.CreateLocale(GRPCContext(t, tenant, "catalog:read"), &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "nl-NL"}})
	WantGRPC(t, "read-only token", err, codes.PermissionDenied, "FORBIDDEN")
	other := GRPCContext(t, "t-"+RandomHex(8))
	_, err = lc.GetLocale(other, &catalogv1.GetLocaleRequest{LocaleUuid: de.Locale.Uuid})
	WantGRPC(t, "other tenant get", err, codes.NotFound, "NOT_FOUND")
	_, err = lc.UpdateLocale(other, &catalogv1.UpdateLocaleRequest{LocaleUuid: de.Locale.Uuid, Locale: &catalogv1.LocaleUpdate{DisplayName: proto.String("x")}})
	WantGRPC(t, "other tenant update", err, codes.NotFound, "NOT_FOUND")
	_, err = lc.DeleteLocale(other, &catalogv1.DeleteLocaleRequest{LocaleUuid: fr.Locale.Uuid})
	WantGRPC(t, "other tenant delete", err, codes.NotFound, "NOT_FOUND")
	if l, err := lc.ListLocales(other, &catalogv1.ListLocalesRequest{}); err != nil || len(l.Items) != 0 {
		t.Errorf("other tenant list: %v %v", l, err)
	}
	log.Expect(t, "other tenant's attempts")
}

func TestGRPCAttributeContents(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	rc := env.ClientFor(t, tenant)
	en := Str(mkLocale(t, rc, "en-US"), "uuid")
	de := Str(mkLocale(t, rc, "de-DE"), "uuid")
	fr := Str(mkLocale(t, rc, "fr-FR"), "uuid")
	ac := catalogv1.NewAttributeContentServiceClient(env.GRPC)
	attrs := catalogv1.NewAttributeServiceClient(env.GRPC)
	ar, err := attrs.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "color"}})
	if err != nil {
		t.Fatalf("create attribute: %v", err)
	}
	a := ar.Attribute.Uuid
	log := NewEventLog(pool, tenant)
	log.Skip(t)
	cev := func(verb, id string) Event {
		return Ev("attribute.content."+verb, "attributeUuid", a, "attributeContentUuid", id)
	}

	cr, err := ac.CreateAttributeContent(ctx, &catalogv1.CreateAttributeContentRequest{AttributeUuid: a,
		AttributeContent: &catalogv1.AttributeContentCreate{LocaleUuid: en, DisplayName: "Colour", Description: proto.String("D")}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	c1 := cr.AttributeContent
	if c1.AttributeUuid != a || c1.LocaleUuid != en || c1.DisplayName != "Colour" || c1.GetDescription() != "D" || c1.Description == nil || !UUIDRe.MatchString(c1.Uuid) {
		t.Errorf("created %v", c1)
	}
	log.Expect(t, "grpc create", cev("created", c1.Uuid))
	cr2, err := ac.CreateAttributeContent(ctx, &catalogv1.CreateAttributeContentRequest{AttributeUuid: a,
		AttributeContent: &catalogv1.AttributeContentCreate{LocaleUuid: de, DisplayName: "Farbe", Description: proto.String("F")}})
	if err != nil {
		t.Fatalf("create second: %v", err)
	}
	c2 := cr2.AttributeContent
	log.Expect(t, "grpc create second", cev("created", c2.Uuid))

	g, err := ac.GetAttributeContent(ctx, &catalogv1.GetAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid})
	if err != nil || !proto.Equal(g.AttributeContent, c1) {
		t.Errorf("get: %v %v", g, err)
	}
	l, err := ac.ListAttributeContents(ctx, &catalogv1.ListAttributeContentsRequest{AttributeUuid: a,
		LocaleUuids: &catalogv1.StringsFilter{Eq: []string{de, fr}}})
	if err != nil || len(l.Items) != 1 || !proto.Equal(l.Items[0], c2) || l.Pagination.GetTotalItems() != 1 {
		t.Errorf("list localeUuids: %v %v", l, err)
	}
	l, err = ac.ListAttributeContents(ctx, &catalogv1.ListAttributeContentsRequest{AttributeUuid: a,
		OrderBy: []*catalogv1.OrderBy{{Field: "displayName", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || len(l.Items) != 2 || l.Items[0].Uuid != c2.Uuid || l.Items[1].Uuid != c1.Uuid {
		t.Errorf("list ordered: %v %v", l, err)
	}
	// Hydrated attribute over gRPC.
	ga, err := attrs.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: a,
		Include: &catalogv1.AttributeInclude{Contents: true}, Expand: &catalogv1.AttributeInclude{Contents: true}})
	if err != nil || !SameSet(ga.GetAttribute().GetContentUuids().GetValues(), []string{c1.Uuid, c2.Uuid}) || len(ga.GetAttribute().GetContents().GetItems()) != 2 {
		t.Errorf("hydrated attribute: %v %v", ga, err)
	}

	update := func(what string, u *catalogv1.AttributeContentUpdate) *catalogv1.AttributeContent {
		t.Helper()
		r, err := ac.UpdateAttributeContent(ctx, &catalogv1.UpdateAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid, AttributeContent: u})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		g, err := ac.GetAttributeContent(ctx, &catalogv1.GetAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid})
		if err != nil || !proto.Equal(g.AttributeContent, r.AttributeContent) {
			t.Errorf("%s: answered %v, get %v %v", what, r.AttributeContent, g, err)
		}
		return r.AttributeContent
	}
	// Field presence without a mask: only the fields set change.
	u := update("display name only", &catalogv1.AttributeContentUpdate{DisplayName: proto.String("Color")})
	if u.DisplayName != "Color" || u.GetDescription() != "D" || u.LocaleUuid != en {
		t.Errorf("display name only: %v", u)
	}
	// update_mask naming description with no value clears it.
	u = update("mask clears description", &catalogv1.AttributeContentUpdate{UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}}})
	if u.Description != nil || u.DisplayName != "Color" {
		t.Errorf("mask [description] without a value must clear it: %v", u)
	}
	if r := Want(t, rc.Get(attrContents(a)+"/"+c1.Uuid), 200).Obj(); r["description"] != nil {
		t.Errorf("REST still sees description %v", r["description"])
	}
	u = update("mask sets description", &catalogv1.AttributeContentUpdate{Description: proto.String("E"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}}})
	if u.GetDescription() != "E" || u.DisplayName != "Color" {
		t.Errorf("mask [description] with a value: %v", u)
	}
	u = update("mask names display_name only", &catalogv1.AttributeContentUpdate{DisplayName: proto.String("Colour"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"display_name"}}})
	if u.DisplayName != "Colour" || u.GetDescription() != "E" {
		t.Errorf("mask [display_name]: %v", u)
	}
	log.Expect(t, "grpc updates", cev("updated", c1.Uuid), cev("updated", c1.Uuid), cev("updated", c1.Uuid), cev("updated", c1.Uuid))

	// Bulk update: one item clears its description by mask, the other leaves its own alone.
	bu, err := ac.BulkUpdateAttributeContents(ctx, &catalogv1.BulkUpdateAttributeContentsRequest{AttributeUuid: a, Items: []*catalogv1.AttributeContentUpdate{
		{Uuid: c1.Uuid, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}}},
		{Uuid: c2.Uuid, DisplayName: proto.String("Farbe 2")},
	}})
	if err != nil || len(bu.Items) != 2 || bu.Items[0].Description != nil || bu.Items[0].DisplayName != "Colour" || bu.Items[1].GetDescription() != "F" || bu.Items[1].DisplayName != "Farbe 2" {
		t.Errorf("bulk update: %v %v", bu, err)
	}
	log.Expect(t, "grpc bulk update", cev("updated", c1.Uuid), cev("updated", c2.Uuid))

	// Errors with details.
	_, err = ac.CreateAttributeContent(ctx, &catalogv1.CreateAttributeContentRequest{AttributeUuid: a,
		AttributeContent: &catalogv1.AttributeContentCreate{LocaleUuid: en, DisplayName: "again"}})
	WantGRPC(t, "second content for a locale", err, codes.AlreadyExists, "ALREADY_EXISTS", "localeUuid")
	_, err = ac.CreateAttributeContent(ctx, &catalogv1.CreateAttributeContentRequest{AttributeUuid: a,
		AttributeContent: &catalogv1.AttributeContentCreate{LocaleUuid: "0190aaaa-0000-7000-8000-000000000000", DisplayName: "x"}})
	WantGRPC(t, "unknown locale", err, codes.NotFound, "NOT_FOUND", "localeUuid")
	_, err = ac.CreateAttributeContent(ctx, &catalogv1.CreateAttributeContentRequest{AttributeUuid: a,
		AttributeContent: &catalogv1.AttributeContentCreate{LocaleUuid: fr, DisplayName: "x", Description: proto.String(strings.Repeat("d", 10001))}})
	WantGRPC(t, "long description", err, codes.InvalidArgument, "VALIDATION_FAILED", "description")
	_, err = ac.BulkCreateAttributeContents(ctx, &catalogv1.BulkCreateAttributeContentsRequest{AttributeUuid: a, Items: []*catalogv1.AttributeContentCreate{
		{LocaleUuid: fr, DisplayName: "ok"}, {LocaleUuid: fr, DisplayName: ""},
	}})
	WantGRPC(t, "bulk item without displayName", err, codes.InvalidArgument, "VALIDATION_FAILED", "[1].displayName")
	_, err = ac.BulkUpdateAttributeContents(ctx, &catalogv1.BulkUpdateAttributeContentsRequest{AttributeUuid: a, Items: []*catalogv1.AttributeContentUpdate{
		{Uuid: c1.Uuid, DisplayName: proto.String("changed")}, {Uuid: c2.Uuid, LocaleUuid: proto.String(en)},
	}})
	WantGRPC(t, "bulk update onto a taken locale", err, codes.AlreadyExists, "ALREADY_EXISTS", "[1].localeUuid")
	_, err = ac.ListAttributeContents(ctx, &catalogv1.ListAttributeContentsRequest{AttributeUuid: "0190aaaa-0000-7000-8000-000000000000"})
	WantGRPC(t, "unknown attribute", err, codes.NotFound, "NOT_FOUND")
	_, err = ac.GetAttributeContent(GRPCContext(t, "t-"+RandomHex(8)), &catalogv1.GetAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid})
	WantGRPC(t, "other tenant", err, codes.NotFound, "NOT_FOUND")
	log.Expect(t, "grpc refused writes")
	if g, _ := ac.GetAttributeContent(ctx, &catalogv1.GetAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid}); g.GetAttributeContent().GetDisplayName() != "Colour" {
		t.Errorf("a refused bulk update changed item [0]: %v", g)
	}

	// Delete.
	if _, err := ac.DeleteAttributeContent(ctx, &catalogv1.DeleteAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	log.Expect(t, "grpc delete", cev("deleted", c1.Uuid))
	_, err = ac.GetAttributeContent(ctx, &catalogv1.GetAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid})
	WantGRPC(t, "get deleted", err, codes.NotFound, "NOT_FOUND")
	_, err = ac.DeleteAttributeContent(ctx, &catalogv1.DeleteAttributeContentRequest{AttributeUuid: a, AttributeContentUuid: c1.Uuid})
	WantGRPC(t, "delete deleted", err, codes.NotFound, "NOT_FOUND")
	if l, err := ac.ListAttributeContents(ctx, &catalogv1.ListAttributeContentsRequest{AttributeUuid: a}); err != nil || len(l.Items) != 1 || l.Items[0].Uuid != c2.Uuid {
		t.Errorf("list after delete: %v %v", l, err)
	}
}
