package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Localized contents of every family share one table and this one implementation; a family's
// content service only resolves its parent and converts rows to its own message.

// Parent kinds of the contents table.
const (
	kindAttribute = "attribute"
	kindTerm      = "attribute_term"
)

// ContentList is the list spec of every contents collection.
var ContentList = &list.Spec{
	Table: "contents",
	Filters: map[string]list.Field{
		"uuids":        {Column: "uuid", Type: list.UUID},
		"localeUuids":  {Column: "locale_uuid", Type: list.UUID},
		"displayNames": {Column: "display_name", Type: list.Text},
		"displayName":  {Column: "display_name", Type: list.Text},
		"createdAt":    {Column: "created_at", Type: list.Time},
		"updatedAt":    {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"displayName": "display_name", "createdAt": "created_at", "updatedAt": "updated_at"},
}

// contentParent is the resolved owner of a contents collection.
type contentParent struct {
	kind string
	uuid uuid.UUID
	// event prefix, e.g. "attribute.content"
	event string
	// idKey is the path parameter naming a content entry, e.g. "attributeContentUuid".
	idKey string
	// keys are the payload keys and values that locate the parent, e.g. "attributeUuid", "…".
	keys []string
}

func (p contentParent) ev(verb string, id uuid.UUID) events.Event {
	return events.New(p.event+"."+verb, append(append([]string{}, p.keys...), p.idKey, id.String())...)
}

// contentInput is a create body of any family's content.
type contentInput struct {
	LocaleUuid  string
	DisplayName string
	Description *string
}

// contentPatch is an update body of any family's content.
type contentPatch struct {
	Uuid        string
	LocaleUuid  *string
	DisplayName *string
	Description *string
	Mask        *fieldmaskpb.FieldMask
}

func checkDescription(v apierr.Validator, d *string) {
	fields.OptText(v, "description", d, 0, 10000)
}

func (s *Service) listContents(ctx context.Context, p contentParent, req proto.Message) ([]db.Content, *pb.Pagination, error) {
	return list.Run[db.Content](ctx, s.DB.Pool, ContentList, reqctx.Tenant(ctx), req,
		list.Eq("parent_kind", p.kind), list.Eq("parent_uuid", p.uuid))
}

func (s *Service) getContent(ctx context.Context, p contentParent, raw string) (db.Content, error) {
	id, err := fields.UUID(p.idKey, raw)
	if err != nil {
		return db.Content{}, err
	}
	c, err := s.DB.Q.GetContent(ctx, db.GetContentParams{TenantID: reqctx.Tenant(ctx), ParentKind: p.kind, ParentUuid: p.uuid, Uuid: id})
	if store.IsNoRows(err) {
		return c, apierr.NotFoundf("content", raw)
	}
	return c, err
}

func (s *Service) createContents(ctx context.Context, p contentParent, items []contentInput, single bool) ([]db.Content, error) {
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	n := len(items)
	prm := db.InsertContentsParams{TenantID: tenant, ParentKind: p.kind, ParentUuid: p.uuid,
		Uuids: make([]uuid.UUID, n), LocaleUuids: make([]uuid.UUID, n), DisplayNames: make([]string, n),
		Descriptions: make([]string, n), HasDescriptions: make([]bool, n)}
	for i, it := range items {
		iv := v.Item(item(i, single))
		prm.Uuids[i] = uuid.Must(uuid.NewV7())
		prm.LocaleUuids[i] = fields.CheckUUID(iv, "localeUuid", it.LocaleUuid)
		fields.Text(iv, "displayName", it.DisplayName, 1, 100)
		checkDescription(iv, it.Description)
		prm.DisplayNames[i] = it.DisplayName
		if it.Description != nil {
			prm.Descriptions[i], prm.HasDescriptions[i] = *it.Description, true
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	prm.Now = store.Now()
	var rows []db.Content
	err := s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := checkLocales(ctx, q, tenant, prm.LocaleUuids, single); err != nil {
			return err
		}
		var err error
		if rows, err = q.InsertContents(ctx, prm); err != nil {
			return err
		}
		locs := mapSlice(prm.LocaleUuids, uuid.UUID.String)
		if err := conflicts(prm.Uuids, idSet(rows, contentID), single, "localeUuid", locs, "content for locale"); err != nil {
			return err
		}
		evs := mapSlice(prm.Uuids, func(id uuid.UUID) events.Event { return p.ev("created", id) })
		return events.Record(ctx, q, tenant, prm.Now, evs)
	})
	if err != nil {
		return nil, err
	}
	return inOrder(prm.Uuids, rows, contentID, func(c db.Content) db.Content { return c }), nil
}

func contentID(c db.Content) uuid.UUID { return c.Uuid }

// checkLocales is a 404 naming the first item whose locale does not exist in the tenant.
func checkLocales(ctx context.Context, q *db.Queries, tenant string, ids []uuid.UUID, single bool) error {
	found, err := q.LocalesExist(ctx, db.LocalesExistParams{TenantID: tenant, Uuids: ids})
	if err != nil {
		return err
	}
	have := map[uuid.UUID]bool{}
	for _, f := range found {
		have[f] = true
	}
	for i, id := range ids {
		if !have[id] {
			return notFoundField(fieldName("localeUuid", i, single), "locale", id.String())
		}
	}
	return nil
}

func (s *Service) updateContents(ctx context.Context, p contentParent, items []contentPatch, single bool) ([]db.Content, error) {
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	ids := make([]uuid.UUID, len(items))
	locales := make([]*uuid.UUID, len(items))
	for i, it := range items {
		iv := v.Item(item(i, single))
		ids[i] = fields.CheckUUID(iv, "uuid", it.Uuid)
		if it.LocaleUuid != nil {
			l := fields.CheckUUID(iv, "localeUuid", *it.LocaleUuid)
			locales[i] = &l
		}
		fields.OptText(iv, "displayName", it.DisplayName, 1, 100)
		checkDescription(iv, it.Description)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := store.Now()
	out := make([]db.Content, len(items))
	err := s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		for i, it := range items {
			if locales[i] != nil {
				if err := checkLocales(ctx, q, tenant, []uuid.UUID{*locales[i]}, true); err != nil {
					return notFoundField(fieldName("localeUuid", i, single), "locale", locales[i].String())
				}
			}
			mask := fields.NewMask(it.Mask)
			c, err := q.UpdateContent(ctx, db.UpdateContentParams{TenantID: tenant, ParentKind: p.kind, ParentUuid: p.uuid,
				Uuid: ids[i], LocaleUuid: locales[i], DisplayName: it.DisplayName, Description: it.Description,
				SetDescription: it.Description != nil || mask.Clears("description", false), Now: now})
			if store.IsNoRows(err) {
				return notFoundField(fieldName("uuid", i, single), "content", it.Uuid)
			} else if err != nil {
				return mapWriteErr(err, "localeUuid", i, single)
			}
			out[i] = c
		}
		return events.Record(ctx, q, tenant, now, mapSlice(out, func(c db.Content) events.Event { return p.ev("updated", c.Uuid) }))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) deleteContent(ctx context.Context, p contentParent, raw string) error {
	tenant := reqctx.Tenant(ctx)
	id, err := fields.UUID(p.idKey, raw)
	if err != nil {
		return err
	}
	return s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		n, err := q.DeleteContent(ctx, db.DeleteContentParams{TenantID: tenant, ParentKind: p.kind, ParentUuid: p.uuid, Uuid: id})
		if err != nil {
			return err
		}
		if n == 0 {
			return apierr.NotFoundf("content", raw)
		}
		return events.Record(ctx, q, tenant, store.Now(), []events.Event{p.ev("deleted", id)})
	})
}

// loadContents returns the contents of several parents, grouped by parent.
func loadContents(ctx context.Context, q *db.Queries, tenant, kind string, parents []uuid.UUID) (map[uuid.UUID][]db.Content, error) {
	rows, err := q.ListContentsOfParents(ctx, db.ListContentsOfParentsParams{TenantID: tenant, ParentKind: kind, ParentUuids: parents})
	if err != nil {
		return nil, err
	}
	by := make(map[uuid.UUID][]db.Content, len(parents))
	for _, r := range rows {
		by[r.ParentUuid] = append(by[r.ParentUuid], r)
	}
	return by, nil
}

// uuidList is the include[contents] list of content rows (an empty list, not null, when asked for).
func uuidList(cs []db.Content) *pb.UuidList {
	out := &pb.UuidList{Values: make([]string, len(cs))}
	for i, c := range cs {
		out.Values[i] = c.Uuid.String()
	}
	return out
}

// contentCreateBody and contentUpdateBody are what every family's generated content bodies offer.
type contentCreateBody interface {
	GetLocaleUuid() string
	GetDisplayName() string
	proto.Message
}

type contentUpdateBody interface {
	GetUuid() string
	proto.Message
}

// createContentsAs creates contents from any family's create bodies and converts the rows back.
func createContentsAs[C contentCreateBody, P any](ctx context.Context, s *Service, p contentParent, items []C, single bool, conv func(db.Content) P) ([]P, error) {
	in := make([]contentInput, len(items))
	for i, c := range items {
		in[i] = contentInput{LocaleUuid: c.GetLocaleUuid(), DisplayName: c.GetDisplayName(), Description: optString(c, "description")}
	}
	rows, err := s.createContents(ctx, p, in, single)
	if err != nil {
		return nil, err
	}
	return mapSlice(rows, conv), nil
}

// updateContentsAs updates contents from any family's update bodies and converts the rows back.
func updateContentsAs[U contentUpdateBody, P any](ctx context.Context, s *Service, p contentParent, items []U, single bool, conv func(db.Content) P) ([]P, error) {
	in := make([]contentPatch, len(items))
	v := apierr.NewValidator()
	for i, c := range items {
		fields.ApplyMask(v.Item(item(i, single)), c)
		in[i] = contentPatch{Uuid: c.GetUuid(), LocaleUuid: optString(c, "locale_uuid"), DisplayName: optString(c, "display_name"),
			Description: optString(c, "description"), Mask: updateMask(c)}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	rows, err := s.updateContents(ctx, p, in, single)
	if err != nil {
		return nil, err
	}
	return mapSlice(rows, conv), nil
}
