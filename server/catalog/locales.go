package catalog

import (
	"context"

	"github.com/google/uuid"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// LocaleServer implements catalog.v1.LocaleService.
type LocaleServer struct {
	pb.UnimplementedLocaleServiceServer
	*Service
}

// LocaleList is the list spec of GET /v1/locales.
var LocaleList = &list.Spec{
	Table:   "locales",
	Filters: list.CodeNameFilters(map[string]list.Field{"isDefault": {Column: "is_default", Type: list.Bool}}),
	Order:   list.CodeNameOrder(nil),
}

func localeToPB(l db.Locale) *pb.Locale {
	return &pb.Locale{Uuid: l.Uuid.String(), CreatedAt: timestamppb.New(l.CreatedAt), UpdatedAt: timestamppb.New(l.UpdatedAt),
		Code: l.Code, DisplayName: l.DisplayName, IsDefault: l.IsDefault}
}

// canonicalLocale is the canonical BCP 47 form of a tag (en-us → en-US), or "" when it is none.
func canonicalLocale(s string) string {
	t, err := language.Parse(s)
	if err != nil || t.String() == "und" {
		return ""
	}
	return t.String()
}

// checkLocaleCode checks that a code (1 to 100 characters: a request rule) is a BCP 47 tag.
func checkLocaleCode(v apierr.Validator, s string) {
	if s != "" && canonicalLocale(s) == "" {
		v.Add("code", "must be a BCP 47 language tag such as en-US")
	}
}

// locales is the locale family: BCP 47 codes stored canonical, and exactly one default per tenant
// once the tenant has a locale (the first one; then whichever is made default).
var locales = &crud.Family[db.Locale, *pb.Locale, *pb.LocaleCreate, *pb.LocaleUpdate]{
	Kind: "locale", Event: "locale", IDKey: "localeUuid", Unique: "code",
	ID:   func(l db.Locale) uuid.UUID { return l.Uuid },
	ToPB: localeToPB,
	CheckCreate: func(v apierr.Validator, c *pb.LocaleCreate) string {
		checkLocaleCode(v, c.GetCode())
		return canonicalLocale(c.GetCode())
	},
	Prepare: func(ctx context.Context, t *crud.Tx) error { return t.Q.LockTenantLocales(ctx, t.Tenant) },
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.LocaleCreate) ([]db.Locale, error) {
		codes := mapSlice(items, func(c *pb.LocaleCreate) string { return canonicalLocale(c.GetCode()) })
		names := make([]string, len(items))
		for i, c := range items {
			names[i] = codes[i]
			if d := optString(c, "display_name"); d != nil {
				names[i] = *d
			}
		}
		return t.Q.InsertLocales(ctx, db.InsertLocalesParams{TenantID: t.Tenant, Uuids: ids, Codes: codes, DisplayNames: names, Now: t.Now})
	},
	AfterCreate: func(ctx context.Context, t *crud.Tx, rows []db.Locale, items []*pb.LocaleCreate) ([]db.Locale, error) {
		def := -1
		for i, c := range items {
			if c.GetIsDefault() {
				def = i
			}
		}
		if def < 0 {
			if _, err := t.Q.DefaultLocale(ctx, t.Tenant); store.IsNoRows(err) {
				def = 0 // the tenant's first locale becomes its default
			} else if err != nil {
				return nil, err
			}
		}
		if def >= 0 {
			if err := makeDefaultLocale(ctx, t, rows[def].Uuid); err != nil {
				return nil, err
			}
		}
		return rows, nil
	},
	UpdateID: (*pb.LocaleUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.LocaleUpdate) {
		if c := optString(u, "code"); c != nil {
			checkLocaleCode(v, *c)
		}
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.LocaleUpdate) (db.Locale, error) {
		var code *string
		if c := optString(u, "code"); c != nil {
			canon := canonicalLocale(*c)
			code = &canon
		}
		return t.Q.UpdateLocale(ctx, db.UpdateLocaleParams{TenantID: t.Tenant, Uuid: id, Code: code, DisplayName: optString(u, "display_name"), Now: t.Now})
	},
	AfterUpdate: func(ctx context.Context, t *crud.Tx, l db.Locale, u *pb.LocaleUpdate, field func(string) string) (db.Locale, error) {
		switch {
		case u.IsDefault == nil || *u.IsDefault == l.IsDefault:
			return l, nil
		case !*u.IsDefault:
			return l, apierr.Field(field("isDefault"), "the default locale stays default until another locale is made default")
		}
		return l, makeDefaultLocale(ctx, t, l.Uuid)
	},
	Refresh: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID) ([]db.Locale, error) {
		return t.Q.LockLocales(ctx, db.LockLocalesParams{TenantID: t.Tenant, Uuids: ids})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (db.Locale, error) {
		return q.GetLocale(ctx, db.GetLocaleParams{TenantID: tenant, Uuid: id})
	},
	CheckDelete: func(l db.Locale) error {
		if l.IsDefault {
			return apierr.New(apierr.InUse, "locale %s is the default locale; make another locale the default before deleting it", l.Uuid)
		}
		return nil
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteLocale(ctx, db.DeleteLocaleParams{TenantID: t.Tenant, Uuid: id})
	},
}

// makeDefaultLocale makes id the tenant's default; the locale that stops being default gets a
// locale.updated event.
func makeDefaultLocale(ctx context.Context, t *crud.Tx, id uuid.UUID) error {
	cleared, err := t.Q.ClearDefaultLocale(ctx, db.ClearDefaultLocaleParams{TenantID: t.Tenant, Uuid: id, Now: t.Now})
	if err != nil {
		return err
	}
	for _, c := range cleared {
		was := c // the statement changes the default flag and updatedAt only
		was.IsDefault = true
		e := events.New("locale.updated", "localeUuid", c.Uuid.String())
		e.Before, e.After = localeToPB(was), localeToPB(c)
		t.Emit(e)
	}
	_, err = t.Q.MakeDefaultLocale(ctx, db.MakeDefaultLocaleParams{TenantID: t.Tenant, Uuid: id, Now: t.Now})
	return err
}

// oneDefault refuses a bulk that sets isDefault on more than one item.
func oneDefault[T interface{ GetIsDefault() bool }](items []T) error {
	v := apierr.NewValidator()
	n := 0
	for i, it := range items {
		if it.GetIsDefault() {
			if n++; n > 1 {
				v.Item(i).Add("isDefault", "only one item may set isDefault")
			}
		}
	}
	return v.Err()
}

func (s *LocaleServer) ListLocales(ctx context.Context, req *pb.ListLocalesRequest) (*pb.ListLocalesResponse, error) {
	rows, page, err := list.Run[db.Locale](ctx, s.DB, LocaleList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	return &pb.ListLocalesResponse{Items: mapSlice(rows, localeToPB), Pagination: page}, nil
}

func (s *LocaleServer) GetLocale(ctx context.Context, req *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
	l, err := locales.Get(ctx, s.DB, crud.Scope{}, req.LocaleUuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetLocaleResponse{Locale: localeToPB(l)}, nil
}

func (s *LocaleServer) CreateLocale(ctx context.Context, req *pb.CreateLocaleRequest) (*pb.CreateLocaleResponse, error) {
	m, err := locales.CreateOne(ctx, s.DB, crud.Scope{}, req.Locale)
	return &pb.CreateLocaleResponse{Locale: m}, err
}

func (s *LocaleServer) BulkCreateLocales(ctx context.Context, req *pb.BulkCreateLocalesRequest) (*pb.BulkCreateLocalesResponse, error) {
	if err := oneDefault(req.Items); err != nil {
		return nil, err
	}
	out, err := locales.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateLocalesResponse{Items: out}, err
}

func (s *LocaleServer) UpdateLocale(ctx context.Context, req *pb.UpdateLocaleRequest) (*pb.UpdateLocaleResponse, error) {
	m, err := locales.UpdateAt(ctx, s.DB, crud.Scope{}, req.LocaleUuid, req.Locale)
	return &pb.UpdateLocaleResponse{Locale: m}, err
}

func (s *LocaleServer) BulkUpdateLocales(ctx context.Context, req *pb.BulkUpdateLocalesRequest) (*pb.BulkUpdateLocalesResponse, error) {
	if err := oneDefault(req.Items); err != nil {
		return nil, err
	}
	out, err := locales.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateLocalesResponse{Items: out}, err
}

func (s *LocaleServer) DeleteLocale(ctx context.Context, req *pb.DeleteLocaleRequest) (*pb.DeleteLocaleResponse, error) {
	return &pb.DeleteLocaleResponse{}, locales.Delete(ctx, s.DB, crud.Scope{}, req.LocaleUuid)
}
