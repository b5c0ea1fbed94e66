package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// Localized contents of every family share one table and one family definition (contentFamily);
// a family's content service only resolves its parent and converts rows to its own message.

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

// contentCreate and contentUpdate are what every family's generated content bodies offer.
type contentCreate interface {
	proto.Message
	GetLocaleUuid() string
	GetDisplayName() string
}

type contentUpdate interface {
	proto.Message
	GetUuid() string
}

// contentFamily is the family of the contents of one parent kind: one entry per parent and
// locale; localeUuid must name a locale of the tenant; description is up to 10 000 characters and
// `null` clears it.
func contentFamily[M any, C contentCreate, U contentUpdate](kind, event, idKey string, toPB func(db.Content) M) *crud.Family[db.Content, M, C, U] {
	return &crud.Family[db.Content, M, C, U]{
		Kind: "content", Event: event, IDKey: idKey, Unique: "localeUuid",
		References: map[string]string{"contents_tenant_id_locale_uuid_fkey": "localeUuid"},
		ID:         func(c db.Content) uuid.UUID { return c.Uuid },
		ToPB:       toPB,
		CheckCreate: func(_ apierr.Validator, c C) string {
			return c.GetLocaleUuid()
		},
		Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []C) ([]db.Content, error) {
			n := len(items)
			p := db.InsertContentsParams{TenantID: t.Tenant, ParentKind: kind, ParentUuid: t.Scope.Parent, Uuids: ids, Now: t.Now,
				LocaleUuids: make([]uuid.UUID, n), DisplayNames: make([]string, n), Descriptions: make([]string, n), HasDescriptions: make([]bool, n)}
			for i, c := range items {
				p.LocaleUuids[i] = uuid.MustParse(c.GetLocaleUuid())
				p.DisplayNames[i] = c.GetDisplayName()
				if d := optString(c, "description"); d != nil {
					p.Descriptions[i], p.HasDescriptions[i] = *d, true
				}
			}
			if err := checkLocales(ctx, t, p.LocaleUuids, t.Single); err != nil {
				return nil, err
			}
			return t.Q.InsertContents(ctx, p)
		},
		UpdateID: func(u U) string { return u.GetUuid() },
		UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u U) (db.Content, error) {
			var locale *uuid.UUID
			if l := optString(u, "locale_uuid"); l != nil {
				x := uuid.MustParse(*l)
				locale = &x
			}
			desc := optString(u, "description")
			return t.Q.UpdateContent(ctx, db.UpdateContentParams{TenantID: t.Tenant, ParentKind: kind, ParentUuid: t.Scope.Parent, Uuid: id,
				LocaleUuid: locale, DisplayName: optString(u, "display_name"), Description: desc,
				SetDescription: desc != nil || fields.NewMask(updateMask(u)).Clears("description", false), Now: t.Now})
		},
		GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.Content, error) {
			return q.GetContent(ctx, db.GetContentParams{TenantID: tenant, ParentKind: kind, ParentUuid: s.Parent, Uuid: id})
		},
		DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
			return t.Q.DeleteContent(ctx, db.DeleteContentParams{TenantID: t.Tenant, ParentKind: kind, ParentUuid: t.Scope.Parent, Uuid: id})
		},
	}
}

// checkLocales is a 404 naming the first item whose locale does not exist in the tenant.
func checkLocales(ctx context.Context, t *crud.Tx, ids []uuid.UUID, single bool) error {
	found, err := t.Q.LocalesExist(ctx, db.LocalesExistParams{TenantID: t.Tenant, Uuids: ids})
	if err != nil {
		return err
	}
	have := make(map[uuid.UUID]bool, len(found))
	for _, f := range found {
		have[f] = true
	}
	for i, id := range ids {
		if !have[id] {
			name := crud.FieldName("localeUuid", i, single)
			return apierr.NotFoundf("locale", id.String()).WithField(name, "not found")
		}
	}
	return nil
}

// listContentsAs lists the contents of one parent as a family's messages.
func listContentsAs[M any](ctx context.Context, s *Service, kind string, sc crud.Scope, req proto.Message, conv func(db.Content) M) ([]M, *pb.Pagination, error) {
	if sc.Err != nil {
		return nil, nil, sc.Err
	}
	rows, page, err := list.Run[db.Content](ctx, s.DB, ContentList, reqctx.Tenant(ctx), req,
		list.Eq("parent_kind", kind), list.Eq("parent_uuid", sc.Parent))
	return mapSlice(rows, conv), page, err
}

// hydrateContents fills the include[contents] / expand[contents] fields of a family's messages:
// out are the messages of the rows ids; setUUIDs and setContents store an item's content uuids
// ([] when it has none) and its content rows. Nothing is read unless one of them is asked for.
func hydrateContents[M any](ctx context.Context, q *db.Queries, tenant, kind string, out []M, ids []uuid.UUID, inc, exp bool,
	setUUIDs func(M, *pb.UuidList), setContents func(M, []db.Content)) error {
	return attach(out, ids, inc, exp,
		func() ([]db.Content, error) {
			return q.ListContentsOfParents(ctx, db.ListContentsOfParentsParams{TenantID: tenant, ParentKind: kind, ParentUuids: ids})
		},
		func(c db.Content) uuid.UUID { return c.ParentUuid }, func(c db.Content) uuid.UUID { return c.Uuid }, setUUIDs, setContents)
}
