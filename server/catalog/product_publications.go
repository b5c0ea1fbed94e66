package catalog

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Product channel publications: one per product and channel, draft → published ⇄ unpublished.
// Publish is gated by readiness (the product active, the channel's and the family's required
// inputs present): otherwise 409 REQUIREMENTS_NOT_MET with the missing list, and nothing changes.

var publicationStatuses = []string{"draft", "published", "unpublished"}

// ProductPublicationList is the list spec of GET /v1/products/{productUuid}/publications.
var ProductPublicationList = &list.Spec{
	Table: "product_publications",
	Filters: map[string]list.Field{
		"uuids":        {Column: "uuid", Type: list.UUID},
		"channelUuids": {Column: "channel_uuid", Type: list.UUID},
		"status":       {Column: "status", Type: list.Enum, Values: publicationStatuses, Single: true},
		"createdAt":    {Column: "created_at", Type: list.Time},
		"updatedAt":    {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"status": "status", "createdAt": "created_at", "updatedAt": "updated_at"},
}

func productPublicationToPB(p db.ProductPublication) *pb.ProductPublication {
	return &pb.ProductPublication{
		Uuid:        p.Uuid.String(),
		CreatedAt:   timestamppb.New(p.CreatedAt),
		UpdatedAt:   timestamppb.New(p.UpdatedAt),
		ProductUuid: p.ProductUuid.String(),
		ChannelUuid: p.ChannelUuid.String(),
		Status:      pb.ProductPublicationStatus(enumValue(pb.ProductPublicationStatus_value, "PRODUCT_PUBLICATION_STATUS_", p.Status)),
		PublishedAt: tsp(p.PublishedAt),
	}
}

// publicationMachine: publish: draft, unpublished → published; unpublish: published → unpublished.
var publicationMachine = lifecycle.Machine{Kind: "product publication", Moves: map[string]lifecycle.Move{
	"publish":   {From: []string{"draft", "unpublished"}, To: "published", Event: "published"},
	"unpublish": {From: []string{"published"}, To: "unpublished", Event: "unpublished"},
}}

// productPublications is the publication family (events product.publication.created/deleted).
var productPublications = &crud.Family[db.ProductPublication, *pb.ProductPublication, *pb.ProductPublicationCreate, *pb.ProductPublicationCreate]{
	Kind: "product publication", Event: "product.publication", IDKey: "publicationUuid", Unique: "channelUuid",
	References: map[string]string{"product_publications_channel_fkey": "channelUuid"},
	ID:         func(p db.ProductPublication) uuid.UUID { return p.Uuid },
	ToPB:       productPublicationToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.ProductPublicationCreate) string {
		return c.GetChannelUuid()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductPublicationCreate) ([]db.ProductPublication, error) {
		p := db.InsertProductPublicationsParams{TenantID: t.Tenant, Uuids: ids, ProductUuid: t.Scope.Parent, Now: t.Now}
		var err error
		if p.ChannelUuids, err = crud.RequireRefs(ctx, t, "channels", "channelUuid", items, (*pb.ProductPublicationCreate).GetChannelUuid); err != nil {
			return nil, err
		}
		return t.Q.InsertProductPublications(ctx, p)
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductPublication, error) {
		return q.GetProductPublication(ctx, db.GetProductPublicationParams{TenantID: tenant, ProductUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteProductPublication(ctx, db.DeleteProductPublicationParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id})
	},
}

// publicationMoves is the same resource seen by its lifecycle: its moves emit product.published /
// product.unpublished (payload productUuid, publicationUuid), so its event prefix is "product".
var publicationMoves = &crud.Family[db.ProductPublication, *pb.ProductPublication, *pb.ProductPublicationCreate, *pb.ProductPublicationCreate]{
	Kind: "product publication", Event: "product", IDKey: "publicationUuid",
	ID:   func(p db.ProductPublication) uuid.UUID { return p.Uuid },
	ToPB: productPublicationToPB,
	Lifecycle: &crud.Lifecycle[db.ProductPublication]{
		Machine: publicationMachine,
		Status:  func(p db.ProductPublication) string { return p.Status },
		Lock: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID) ([]db.ProductPublication, error) {
			return t.Q.LockProductPublications(ctx, db.LockProductPublicationsParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuids: ids})
		},
		Set: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, status string) ([]db.ProductPublication, error) {
			if status == "published" {
				if err := checkPublishable(ctx, t, ids); err != nil {
					return nil, err
				}
			}
			return t.Q.SetProductPublicationStatus(ctx, db.SetProductPublicationStatusParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent,
				Uuids: ids, Status: status, Now: t.Now})
		},
	},
}

// missingItem is one unmet requirement: the entries of readiness's missing list and of the
// REQUIREMENTS_NOT_MET meta "missing" (also the hierarchy's no-cycle refusal).
type missingItem struct {
	Kind       string  `json:"kind"`
	UUID       string  `json:"uuid"`
	Code       string  `json:"code"`
	LocaleUUID *string `json:"localeUuid"`
	Detail     string  `json:"detail"`
}

// readiness lists, for each of channels, what product lacks to be published there (an empty list
// means ready), as stored on its publications (migration 0020: every write that can change it
// recomputes it in its own transaction, or queues it until the transaction's refresh_flush, which
// runs first then: migration 0029); one query for all of them.
func readiness(ctx context.Context, q *db.Queries, tenant string, product uuid.UUID, channels []uuid.UUID) (map[uuid.UUID][]missingItem, error) {
	out := make(map[uuid.UUID][]missingItem, len(channels))
	for _, ch := range channels {
		out[ch] = []missingItem{}
	}
	if store.RefreshDeferred(ctx) {
		// An import batch's readiness waits in its queue: brought up to date first.
		if err := q.RefreshFlush(ctx); err != nil {
			return nil, err
		}
	}
	rows, err := q.ListPublicationReadiness(ctx, db.ListPublicationReadinessParams{TenantID: tenant, ProductUuid: product, ChannelUuids: channels})
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ChannelUuid] = append(out[r.ChannelUuid], missingOf(r))
	}
	return out, nil
}

// missingOf describes one unmet requirement of ListPublicationMissing.
func missingOf(r db.ListPublicationReadinessRow) missingItem {
	m := missingItem{Kind: r.Kind, UUID: r.Uuid.String(), Code: r.Code}
	if r.LocaleUuid != uuid.Nil {
		s := r.LocaleUuid.String()
		m.LocaleUUID = &s
	}
	by := "the channel"
	if r.Source == 2 {
		by = "the product's family"
	}
	switch r.Kind {
	case "product":
		m.Detail = fmt.Sprintf("the product is %s; it must be active to be published", r.ProductStatus)
	case "attribute":
		m.Detail = fmt.Sprintf("attribute %s is required by %s and the product does not have it", r.Code, by)
	case "input_type":
		m.Detail = fmt.Sprintf("input type %s is required by %s and has no value", r.Code, by)
		if m.LocaleUUID != nil {
			m.Detail += " for locale " + *m.LocaleUUID
		}
		if r.Scoping == "channel" {
			m.Detail += " of this channel"
		} else {
			m.Detail += " for this channel or all channels"
		}
	default: // asset_type, relation_type: counts
		noun := map[string]string{"asset_type": "asset type", "relation_type": "relation type"}[r.Kind]
		items := map[string]string{"asset_type": "assets", "relation_type": "relations"}[r.Kind]
		if r.Have < r.Need {
			m.Detail = fmt.Sprintf("%s %s is required by %s: at least %d of its %s, the product has %d", noun, r.Code, by, r.Need, items, r.Have)
		} else {
			m.Detail = fmt.Sprintf("%s %s allows at most %d of its %s (%s), the product has %d", noun, r.Code, r.MaxCount, items, by, r.Have)
		}
	}
	return m
}

// checkPublishable refuses, inside the moving transaction, a publish of any publication of ids
// whose product is not ready for its channel: 409 REQUIREMENTS_NOT_MET about the first one not
// ready (in request order), with meta publicationUuid and missing (its readiness array), and one
// error per missing requirement: field missing[j] (uuids[i].missing[j] in a bulk move: the item,
// then the index in meta.missing), message the requirement's detail.
func checkPublishable(ctx context.Context, t *crud.Tx, ids []uuid.UUID) error {
	ps, err := t.Q.ShareProducts(ctx, db.ShareProductsParams{TenantID: t.Tenant, Uuids: []uuid.UUID{t.Scope.Parent}})
	if err != nil {
		return err
	}
	if len(ps) != 1 {
		return apierr.NotFoundf("product", t.Scope.Parent.String())
	}
	pubs, err := t.Q.LockProductPublications(ctx, db.LockProductPublicationsParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuids: ids})
	if err != nil {
		return err
	}
	by := make(map[uuid.UUID]db.ProductPublication, len(pubs))
	channels := make([]uuid.UUID, 0, len(pubs))
	for _, p := range pubs {
		by[p.Uuid] = p
		channels = append(channels, p.ChannelUuid)
	}
	missing, err := readiness(ctx, t.Q, t.Tenant, ps[0].Uuid, channels)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if m := missing[by[id].ChannelUuid]; len(m) > 0 {
			e := apierr.New(apierr.RequirementsNotMet, "product publication %s cannot be published: %d requirement(s) not met; first: %s",
				id, len(m), m[0].Detail).WithMeta("publicationUuid", id.String()).WithMeta("missing", m)
			for j, item := range m {
				e.WithField(t.MoveField(id, fmt.Sprintf("missing[%d]", j)), item.Detail)
			}
			return e
		}
	}
	return nil
}

// ProductPublicationServer implements catalog.v1.ProductPublicationService.
type ProductPublicationServer struct {
	pb.UnimplementedProductPublicationServiceServer
	*Service
}

// ListProductPublications lists the product's publications; status[eq] takes one value.
func (s *ProductPublicationServer) ListProductPublications(ctx context.Context, req *pb.ListProductPublicationsRequest) (*pb.ListProductPublicationsResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductPublicationList, req, productPublicationToPB, list.Eq("product_uuid", sc.Parent))
	return &pb.ListProductPublicationsResponse{Items: out, Pagination: page}, err
}

// CreateProductPublication creates a draft publication of the product on a channel.
func (s *ProductPublicationServer) CreateProductPublication(ctx context.Context, req *pb.CreateProductPublicationRequest) (*pb.CreateProductPublicationResponse, error) {
	m, err := productPublications.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductPublication))
	return &pb.CreateProductPublicationResponse{ProductPublication: m}, err
}

// BulkCreateProductPublications creates 1 to 100 draft publications atomically.
func (s *ProductPublicationServer) BulkCreateProductPublications(ctx context.Context, req *pb.BulkCreateProductPublicationsRequest) (*pb.BulkCreateProductPublicationsResponse, error) {
	out, err := productPublications.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductPublicationsResponse{Items: out}, err
}

// GetProductPublication returns one publication.
func (s *ProductPublicationServer) GetProductPublication(ctx context.Context, req *pb.GetProductPublicationRequest) (*pb.GetProductPublicationResponse, error) {
	m, err := productPublications.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.PublicationUuid)
	return &pb.GetProductPublicationResponse{ProductPublication: m}, err
}

// GetProductPublicationReadiness tells what the product lacks to be published on the channel.
func (s *ProductPublicationServer) GetProductPublicationReadiness(ctx context.Context, req *pb.GetProductPublicationReadinessRequest) (*pb.GetProductPublicationReadinessResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	pub, err := productPublications.Get(ctx, s.DB, sc, req.PublicationUuid)
	if err != nil {
		return nil, err
	}
	all, err := readiness(ctx, s.DB.Q, reqctx.Tenant(ctx), sc.Parent, []uuid.UUID{pub.ChannelUuid})
	if err != nil {
		return nil, err
	}
	missing := all[pub.ChannelUuid]
	out := &pb.GetProductPublicationReadinessResponse{Ready: len(missing) == 0, Missing: make([]*pb.ReadinessMissing, len(missing))}
	for i, m := range missing {
		out.Missing[i] = &pb.ReadinessMissing{Kind: m.Kind, Uuid: m.UUID, Code: m.Code, LocaleUuid: m.LocaleUUID, Detail: m.Detail}
	}
	return out, nil
}

// DeleteProductPublication deletes a publication permanently.
func (s *ProductPublicationServer) DeleteProductPublication(ctx context.Context, req *pb.DeleteProductPublicationRequest) (*pb.DeleteProductPublicationResponse, error) {
	return &pb.DeleteProductPublicationResponse{}, productPublications.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.PublicationUuid)
}

// TransitionProductPublication publishes or unpublishes one publication.
func (s *ProductPublicationServer) TransitionProductPublication(ctx context.Context, req *pb.TransitionProductPublicationRequest) (*pb.TransitionProductPublicationResponse, error) {
	m, err := publicationMoves.TransitionAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.PublicationUuid, req.Transition)
	return &pb.TransitionProductPublicationResponse{ProductPublication: m}, err
}

// BulkTransitionProductPublications moves 1 to 100 publications of the product atomically.
func (s *ProductPublicationServer) BulkTransitionProductPublications(ctx context.Context, req *pb.BulkTransitionProductPublicationsRequest) (*pb.BulkTransitionProductPublicationsResponse, error) {
	out, err := publicationMoves.TransitionMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Transition, req.Uuids)
	return &pb.BulkTransitionProductPublicationsResponse{Items: out}, err
}
