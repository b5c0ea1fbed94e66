package hierarchy

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPCCategories(t *testing.T) {
	t.Parallel()
	tenant := "g-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	cc := catalogv1.NewCategoryServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant)

	root, err := cc.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{Category: &catalogv1.CategoryCreate{Code: "shoes", Position: proto.Int32(2)}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	r := root.Category
	if r.Code != "shoes" || r.DisplayName != "shoes" || r.Status != catalogv1.CategoryStatus_CATEGORY_STATUS_DRAFT || r.ParentUuid != nil || r.Position != 2 || r.RemovedAt != nil || !UUIDRe.MatchString(r.Uuid) {
		t.Errorf("created %v", r)
	}
	bulk, err := cc.BulkCreateCategories(ctx, &catalogv1.BulkCreateCategoriesRequest{Items: []*catalogv1.CategoryCreate{
		{Code: "boots", ParentUuid: proto.String(r.Uuid), DisplayName: proto.String("Boots")},
		{Code: "hats"},
	}})
	if err != nil || len(bulk.Items) != 2 || bulk.Items[0].GetParentUuid() != r.Uuid || bulk.Items[1].ParentUuid != nil {
		t.Fatalf("bulk create: %v %v", bulk, err)
	}
	boots, hats := bulk.Items[0], bulk.Items[1]
	log.Expect(t, "creates", categoriesF.ev("created", r.Uuid), categoriesF.ev("created", boots.Uuid), categoriesF.ev("created", hats.Uuid))

	// The same category over REST.
	rest := Want(t, env.ClientFor(t, tenant).Get("/v1/categories/"+boots.Uuid), 200).Obj()
	if rest["parentUuid"] != r.Uuid || rest["createdAt"] != boots.CreatedAt.AsTime().Format("2006-01-02T15:04:05.000000Z") {
		t.Errorf("REST view %v of gRPC-created %v", rest, boots)
	}

	// update_mask naming parent_uuid with no value makes a root; fields outside the mask stay.
	up, err := cc.UpdateCategory(ctx, &catalogv1.UpdateCategoryRequest{CategoryUuid: boots.Uuid, Category: &catalogv1.CategoryUpdate{
		DisplayName: proto.String("ignored"), Position: proto.Int32(9), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"parent_uuid", "position"}}}})
	if err != nil || up.Category.ParentUuid != nil || up.Category.Position != 9 || up.Category.DisplayName != "Boots" {
		t.Errorf("update with mask: %v %v", up, err)
	}
	// Without a mask, field presence decides: parent set, the rest unchanged.
	up, err = cc.UpdateCategory(ctx, &catalogv1.UpdateCategoryRequest{CategoryUuid: boots.Uuid, Category: &catalogv1.CategoryUpdate{ParentUuid: proto.String(hats.Uuid)}})
	if err != nil || up.Category.GetParentUuid() != hats.Uuid || up.Category.Position != 9 {
		t.Errorf("update by presence: %v %v", up, err)
	}
	bu, err := cc.BulkUpdateCategories(ctx, &catalogv1.BulkUpdateCategoriesRequest{Items: []*catalogv1.CategoryUpdate{{Uuid: hats.Uuid, ParentUuid: proto.String(r.Uuid)}}})
	if err != nil || bu.Items[0].GetParentUuid() != r.Uuid {
		t.Errorf("bulk update: %v %v", bu, err)
	}
	log.Expect(t, "updates", categoriesF.ev("updated", boots.Uuid), categoriesF.ev("updated", boots.Uuid), categoriesF.ev("updated", hats.Uuid))

	// Errors: a cycle, a missing parent, a parent in use, a bad transition, a bad uuid.
	_, err = cc.UpdateCategory(ctx, &catalogv1.UpdateCategoryRequest{CategoryUuid: r.Uuid, Category: &catalogv1.CategoryUpdate{ParentUuid: proto.String(boots.Uuid)}})
	meta := WantGRPC(t, "cycle", err, codes.FailedPrecondition, "REQUIREMENTS_NOT_MET", "parentUuid")
	if meta["rule"] != "no_cycle" {
		t.Errorf("cycle metadata %v", meta)
	}
	if missing, ok := GRPCMeta(err)["missing"].([]any); !ok || len(missing) != 1 || missing[0].(map[string]any)["uuid"] != boots.Uuid {
		t.Errorf("cycle typed meta %v", GRPCMeta(err))
	}
	_, err = cc.BulkUpdateCategories(ctx, &catalogv1.BulkUpdateCategoriesRequest{Items: []*catalogv1.CategoryUpdate{{Uuid: hats.Uuid, Code: proto.String("h")}, {Uuid: hats.Uuid, ParentUuid: proto.String(hats.Uuid)}}})
	WantGRPC(t, "bulk self parent", err, codes.FailedPrecondition, "REQUIREMENTS_NOT_MET", "[1].parentUuid")
	_, err = cc.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{Category: &catalogv1.CategoryCreate{Code: "x", ParentUuid: proto.String(UnknownUUID)}})
	WantGRPC(t, "missing parent", err, codes.NotFound, "NOT_FOUND", "parentUuid")
	_, err = cc.DeleteCategory(ctx, &catalogv1.DeleteCategoryRequest{CategoryUuid: r.Uuid})
	// ErrorInfo metadata is strings (an array as its JSON text); the Struct detail has it typed.
	if m := WantGRPC(t, "delete a parent", err, codes.FailedPrecondition, "IN_USE"); m["referencedBy"] != `["child category"]` {
		t.Errorf("IN_USE metadata %v", m)
	}
	if by, ok := Strings(GRPCMeta(err)["referencedBy"]); !ok || len(by) != 1 || by[0] != "child category" {
		t.Errorf("IN_USE typed meta %v", GRPCMeta(err))
	}
	_, err = cc.TransitionCategory(ctx, &catalogv1.TransitionCategoryRequest{CategoryUuid: r.Uuid, Transition: catalogv1.CategoryTransition_CATEGORY_TRANSITION_DEACTIVATE})
	if m := WantGRPC(t, "deactivate a draft", err, codes.FailedPrecondition, "INVALID_TRANSITION"); m["currentStatus"] != "draft" ||
		m["allowedTransitions"] != `["activate","remove"]` {
		t.Errorf("transition metadata %v", m)
	}
	WantTransitionMeta(t, "deactivate a draft", GRPCMeta(err), "draft", "activate", "remove")
	_, err = cc.TransitionCategory(ctx, &catalogv1.TransitionCategoryRequest{CategoryUuid: r.Uuid})
	WantGRPC(t, "no transition", err, codes.InvalidArgument, "VALIDATION_FAILED", "transition")
	_, err = cc.GetCategory(ctx, &catalogv1.GetCategoryRequest{CategoryUuid: "nope"})
	WantGRPC(t, "bad uuid", err, codes.InvalidArgument, "VALIDATION_FAILED", "categoryUuid")
	_, err = cc.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{Category: &catalogv1.CategoryCreate{Code: "shoes"}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "code")
	log.Expect(t, "refused")

	// Lifecycle.
	tr, err := cc.TransitionCategory(ctx, &catalogv1.TransitionCategoryRequest{CategoryUuid: r.Uuid, Transition: catalogv1.CategoryTransition_CATEGORY_TRANSITION_ACTIVATE})
	if err != nil || tr.Category.Status != catalogv1.CategoryStatus_CATEGORY_STATUS_ACTIVE {
		t.Errorf("activate: %v %v", tr, err)
	}
	bt, err := cc.BulkTransitionCategories(ctx, &catalogv1.BulkTransitionCategoriesRequest{Transition: catalogv1.CategoryTransition_CATEGORY_TRANSITION_REMOVE, Uuids: []string{boots.Uuid, hats.Uuid}})
	if err != nil || len(bt.Items) != 2 || bt.Items[0].RemovedAt == nil || bt.Items[1].Status != catalogv1.CategoryStatus_CATEGORY_STATUS_REMOVED {
		t.Errorf("bulk remove: %v %v", bt, err)
	}
	log.Expect(t, "lifecycle", categoriesF.ev("activated", r.Uuid), categoriesF.ev("removed", boots.Uuid), categoriesF.ev("removed", hats.Uuid))

	// Lists with the hierarchy filters.
	l, err := cc.ListCategories(ctx, &catalogv1.ListCategoriesRequest{ParentUuids: &catalogv1.StringsFilter{Eq: []string{r.Uuid}}, IsRemoved: &catalogv1.BoolFilter{Eq: proto.Bool(true)}})
	if err != nil || len(l.Items) != 1 || l.Items[0].Uuid != hats.Uuid || l.Pagination.GetTotalItems() != 1 {
		t.Errorf("list children of root: %v %v", l, err)
	}
	l, err = cc.ListCategories(ctx, &catalogv1.ListCategoriesRequest{IsRoot: &catalogv1.BoolFilter{Eq: proto.Bool(false)}, Statuses: &catalogv1.StringsFilter{Eq: []string{"removed"}},
		Position: &catalogv1.IntFilter{Min: proto.Int32(5)}, OrderBy: []*catalogv1.OrderBy{{Field: "position", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || len(l.Items) != 1 || l.Items[0].Uuid != boots.Uuid {
		t.Errorf("list non-roots removed position>=5: %v %v", l, err)
	}
	_, err = cc.ListCategories(ctx, &catalogv1.ListCategoriesRequest{ParentUuids: &catalogv1.StringsFilter{Eq: []string{"x"}}})
	WantGRPC(t, "bad filter", err, codes.InvalidArgument, "VALIDATION_FAILED", "parentUuids[eq]")

	// Contents, include and expand.
	lc := catalogv1.NewLocaleServiceClient(env.GRPC)
	loc, err := lc.CreateLocale(ctx, &catalogv1.CreateLocaleRequest{Locale: &catalogv1.LocaleCreate{Code: "en-US"}})
	if err != nil {
		t.Fatal(err)
	}
	ccc := catalogv1.NewCategoryContentServiceClient(env.GRPC)
	content, err := ccc.CreateCategoryContent(ctx, &catalogv1.CreateCategoryContentRequest{CategoryUuid: r.Uuid, CategoryContent: &catalogv1.CategoryContentCreate{
		LocaleUuid: loc.Locale.Uuid, DisplayName: "Shoes", Description: proto.String("d")}})
	if err != nil || content.CategoryContent.CategoryUuid != r.Uuid || content.CategoryContent.GetDescription() != "d" {
		t.Fatalf("create content: %v %v", content, err)
	}
	cu, err := ccc.UpdateCategoryContent(ctx, &catalogv1.UpdateCategoryContentRequest{CategoryUuid: r.Uuid, CategoryContentUuid: content.CategoryContent.Uuid,
		CategoryContent: &catalogv1.CategoryContentUpdate{UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}}}})
	if err != nil || cu.CategoryContent.Description != nil {
		t.Errorf("clear description: %v %v", cu, err)
	}
	g, err := cc.GetCategory(ctx, &catalogv1.GetCategoryRequest{CategoryUuid: r.Uuid, Include: &catalogv1.CategoryInclude{Contents: true}, Expand: &catalogv1.CategoryInclude{Contents: true}})
	if err != nil || len(g.Category.ContentUuids.GetValues()) != 1 || len(g.Category.Contents.GetItems()) != 1 || g.Category.Contents.Items[0].DisplayName != "Shoes" {
		t.Errorf("get with include/expand: %v %v", g, err)
	}
	cl, err := ccc.ListCategoryContents(ctx, &catalogv1.ListCategoryContentsRequest{CategoryUuid: r.Uuid})
	if err != nil || len(cl.Items) != 1 {
		t.Errorf("list contents: %v %v", cl, err)
	}
	_, err = ccc.ListCategoryContents(ctx, &catalogv1.ListCategoryContentsRequest{CategoryUuid: UnknownUUID})
	WantGRPC(t, "contents of a missing category", err, codes.NotFound, "NOT_FOUND")
	if _, err := ccc.DeleteCategoryContent(ctx, &catalogv1.DeleteCategoryContentRequest{CategoryUuid: r.Uuid, CategoryContentUuid: content.CategoryContent.Uuid}); err != nil {
		t.Errorf("delete content: %v", err)
	}
	log.Expect(t, "contents", Ev("locale.created", "localeUuid", loc.Locale.Uuid),
		contentEv("created", r.Uuid, content.CategoryContent.Uuid), contentEv("updated", r.Uuid, content.CategoryContent.Uuid), contentEv("deleted", r.Uuid, content.CategoryContent.Uuid))

	// Delete the leaves, then the root.
	for _, id := range []string{boots.Uuid, hats.Uuid, r.Uuid} {
		if _, err := cc.DeleteCategory(ctx, &catalogv1.DeleteCategoryRequest{CategoryUuid: id}); err != nil {
			t.Errorf("delete %s: %v", id, err)
		}
	}
	log.Expect(t, "deletes", categoriesF.ev("deleted", boots.Uuid), categoriesF.ev("deleted", hats.Uuid), categoriesF.ev("deleted", r.Uuid))

	// Another tenant sees nothing; a read-only token cannot write.
	_, err = cc.GetCategory(GRPCContext(t, "g-"+RandomHex(8)), &catalogv1.GetCategoryRequest{CategoryUuid: hats.Uuid})
	WantGRPC(t, "other tenant", err, codes.NotFound, "NOT_FOUND")
	ro := GRPCContext(t, tenant, "catalog:read")
	if _, err := cc.ListCategories(ro, &catalogv1.ListCategoriesRequest{}); err != nil {
		t.Errorf("list with catalog:read: %v", err)
	}
	_, err = cc.CreateCategory(ro, &catalogv1.CreateCategoryRequest{Category: &catalogv1.CategoryCreate{Code: "ro"}})
	WantGRPC(t, "write with catalog:read", err, codes.PermissionDenied, "FORBIDDEN")
}

func TestGRPCCollections(t *testing.T) {
	t.Parallel()
	tenant := "g-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	cs := catalogv1.NewCollectionServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant)

	a, err := cs.CreateCollection(ctx, &catalogv1.CreateCollectionRequest{Collection: &catalogv1.CollectionCreate{Code: "summer", DisplayName: proto.String("Summer")}})
	if err != nil || a.Collection.DisplayName != "Summer" || a.Collection.Status != catalogv1.CollectionStatus_COLLECTION_STATUS_DRAFT {
		t.Fatalf("create: %v %v", a, err)
	}
	b, err := cs.BulkCreateCollections(ctx, &catalogv1.BulkCreateCollectionsRequest{Items: []*catalogv1.CollectionCreate{{Code: "beach", ParentUuid: proto.String(a.Collection.Uuid), Position: proto.Int32(1)}}})
	if err != nil || b.Items[0].GetParentUuid() != a.Collection.Uuid || b.Items[0].Position != 1 {
		t.Fatalf("bulk create: %v %v", b, err)
	}
	beach := b.Items[0]
	g, err := cs.GetCollection(ctx, &catalogv1.GetCollectionRequest{CollectionUuid: beach.Uuid})
	if err != nil || !proto.Equal(g.Collection, beach) {
		t.Errorf("get: %v %v, want %v", g, err, beach)
	}
	_, err = cs.UpdateCollection(ctx, &catalogv1.UpdateCollectionRequest{CollectionUuid: a.Collection.Uuid, Collection: &catalogv1.CollectionUpdate{ParentUuid: proto.String(beach.Uuid)}})
	WantGRPC(t, "cycle", err, codes.FailedPrecondition, "REQUIREMENTS_NOT_MET", "parentUuid")
	_, err = cs.UpdateCollection(ctx, &catalogv1.UpdateCollectionRequest{CollectionUuid: a.Collection.Uuid, Collection: &catalogv1.CollectionUpdate{Code: proto.String("x"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"colour"}}}})
	WantGRPC(t, "bad mask", err, codes.InvalidArgument, "VALIDATION_FAILED", "updateMask")
	u, err := cs.BulkUpdateCollections(ctx, &catalogv1.BulkUpdateCollectionsRequest{Items: []*catalogv1.CollectionUpdate{
		{Uuid: beach.Uuid, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"parentUuid"}}}}})
	if err != nil || u.Items[0].ParentUuid != nil || u.Items[0].Position != 1 {
		t.Errorf("bulk update clearing parent by JSON name in the mask: %v %v", u, err)
	}
	_, err = cs.DeleteCollection(ctx, &catalogv1.DeleteCollectionRequest{CollectionUuid: UnknownUUID})
	WantGRPC(t, "delete missing", err, codes.NotFound, "NOT_FOUND")
	tr, err := cs.BulkTransitionCollections(ctx, &catalogv1.BulkTransitionCollectionsRequest{Transition: catalogv1.CollectionTransition_COLLECTION_TRANSITION_ACTIVATE, Uuids: []string{a.Collection.Uuid, beach.Uuid}})
	if err != nil || tr.Items[0].Status != catalogv1.CollectionStatus_COLLECTION_STATUS_ACTIVE || tr.Items[1].Status != catalogv1.CollectionStatus_COLLECTION_STATUS_ACTIVE {
		t.Errorf("bulk activate: %v %v", tr, err)
	}
	t1, err := cs.TransitionCollection(ctx, &catalogv1.TransitionCollectionRequest{CollectionUuid: beach.Uuid, Transition: catalogv1.CollectionTransition_COLLECTION_TRANSITION_DEACTIVATE})
	if err != nil || t1.Collection.Status != catalogv1.CollectionStatus_COLLECTION_STATUS_INACTIVE {
		t.Errorf("deactivate: %v %v", t1, err)
	}
	l, err := cs.ListCollections(ctx, &catalogv1.ListCollectionsRequest{IsRoot: &catalogv1.BoolFilter{Eq: proto.Bool(true)}, OrderBy: []*catalogv1.OrderBy{{Field: "code"}}})
	if err != nil || len(l.Items) != 2 || l.Items[0].Code != "beach" || l.Items[1].Code != "summer" {
		t.Errorf("list roots by code: %v %v", l, err)
	}
	if _, err := cs.DeleteCollection(ctx, &catalogv1.DeleteCollectionRequest{CollectionUuid: beach.Uuid}); err != nil {
		t.Errorf("delete: %v", err)
	}
	log.Expect(t, "collection events", collectionsF.ev("created", a.Collection.Uuid), collectionsF.ev("created", beach.Uuid), collectionsF.ev("updated", beach.Uuid),
		collectionsF.ev("activated", a.Collection.Uuid), collectionsF.ev("activated", beach.Uuid), collectionsF.ev("deactivated", beach.Uuid), collectionsF.ev("deleted", beach.Uuid))
}

// REST scopes: reads need catalog:read, writes catalog:write.
func TestScopes(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		tenant := "t-" + RandomHex(8)
		rw := env.ClientFor(t, tenant)
		id := f.createID(t, rw, "n")
		ro := env.ClientFor(t, tenant, "catalog:read")
		Want(t, ro.Get(f.base), 200)
		Want(t, ro.Get(f.path(id)), 200)
		WantProblem(t, ro.Post(f.base, map[string]any{"code": "x"}), 403, "FORBIDDEN")
		WantProblem(t, ro.Patch(f.path(id), map[string]any{"code": "x"}), 403, "FORBIDDEN")
		WantProblem(t, f.transition(ro, id, "activate"), 403, "FORBIDDEN")
		WantProblem(t, ro.Delete(f.path(id)), 403, "FORBIDDEN")
		wo := env.ClientFor(t, tenant, "catalog:write")
		WantProblem(t, wo.Get(f.path(id)), 403, "FORBIDDEN")
		anon := env.ClientFor(t, tenant)
		anon.Token = ""
		WantProblem(t, anon.Get(f.base), 401, "UNAUTHENTICATED")
		if f.hasContents {
			WantProblem(t, ro.Post(contentsOf(id), map[string]any{"localeUuid": UnknownUUID, "displayName": "x"}), 403, "FORBIDDEN")
			Want(t, ro.Get(contentsOf(id)), 200)
		}
	})
}
