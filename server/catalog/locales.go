package catalog

import (
	"context"

	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"golang.org/x/text/language"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
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
	Table: "locales",
	Filters: map[string]list.Field{
		"uuids":        {Column: "uuid", Type: list.UUID},
		"codes":        {Column: "code", Type: list.Text},
		"code":         {Column: "code", Type: list.Text},
		"displayNames": {Column: "display_name", Type: list.Text},
		"displayName":  {Column: "display_name", Type: list.Text},
		"isDefault":    {Column: "is_default", Type: list.Bool},
		"createdAt":    {Column: "created_at", Type: list.Time},
		"updatedAt":    {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"code": "code", "displayName": "display_name", "createdAt": "created_at", "updatedAt": "updated_at"},
}

func localeToPB(l db.Locale) *pb.Locale {
	return &pb.Locale{Uuid: l.Uuid.String(), CreatedAt: timestamppb.New(l.CreatedAt), UpdatedAt: timestamppb.New(l.UpdatedAt),
		Code: l.Code, DisplayName: l.DisplayName, IsDefault: l.IsDefault}
}

func localeID(l db.Locale) uuid.UUID { return l.Uuid }

func localeEvent(verb string, id uuid.UUID) events.Event {
	return events.New("locale."+verb, "localeUuid", id.String())
}

// localeCode checks a BCP 47 tag and returns its canonical form (en-us → en-US).
func localeCode(v apierr.Validator, s string) string {
	fields.Text(v, "code", s, 1, 100)
	if s == "" {
		return s
	}
	t, err := language.Parse(s)
	if err != nil || t.String() == "und" {
		v.Add("code", "must be a BCP 47 language tag such as en-US")
		return s
	}
	return t.String()
}

func (s *LocaleServer) ListLocales(ctx context.Context, req *pb.ListLocalesRequest) (*pb.ListLocalesResponse, error) {
	rows, page, err := list.Run[db.Locale](ctx, s.DB.Pool, LocaleList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	return &pb.ListLocalesResponse{Items: mapSlice(rows, localeToPB), Pagination: page}, nil
}

func (s *LocaleServer) GetLocale(ctx context.Context, req *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
	id, err := fields.UUID("localeUuid", req.LocaleUuid)
	if err != nil {
		return nil, err
	}
	l, err := s.DB.Q.GetLocale(ctx, db.GetLocaleParams{TenantID: reqctx.Tenant(ctx), Uuid: id})
	if store.IsNoRows(err) {
		return nil, apierr.NotFoundf("locale", req.LocaleUuid)
	} else if err != nil {
		return nil, err
	}
	return &pb.GetLocaleResponse{Locale: localeToPB(l)}, nil
}

func (s *LocaleServer) CreateLocale(ctx context.Context, req *pb.CreateLocaleRequest) (*pb.CreateLocaleResponse, error) {
	out, err := s.createLocales(ctx, []*pb.LocaleCreate{req.Locale}, true)
	if err != nil {
		return nil, err
	}
	return &pb.CreateLocaleResponse{Locale: out[0]}, nil
}

func (s *LocaleServer) BulkCreateLocales(ctx context.Context, req *pb.BulkCreateLocalesRequest) (*pb.BulkCreateLocalesResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	out, err := s.createLocales(ctx, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateLocalesResponse{Items: out}, nil
}

func (s *LocaleServer) createLocales(ctx context.Context, items []*pb.LocaleCreate, single bool) ([]*pb.Locale, error) {
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	n := len(items)
	p := db.InsertLocalesParams{TenantID: tenant, Uuids: make([]uuid.UUID, n), Codes: make([]string, n), DisplayNames: make([]string, n)}
	makeDefault := -1
	for i, it := range items {
		iv := v.Item(item(i, single))
		p.Uuids[i] = uuid.Must(uuid.NewV7())
		p.Codes[i] = localeCode(iv, it.GetCode())
		p.DisplayNames[i] = p.Codes[i]
		if d := optString(it, "display_name"); d != nil {
			fields.Text(iv, "displayName", *d, 1, 100)
			p.DisplayNames[i] = *d
		}
		if it.GetIsDefault() {
			if makeDefault >= 0 {
				iv.Add("isDefault", "only one item may set isDefault")
			}
			makeDefault = i
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p.Now = store.Now()
	var rows []db.Locale
	err := s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := q.LockTenantLocales(ctx, tenant); err != nil {
			return err
		}
		var err error
		if rows, err = q.InsertLocales(ctx, p); err != nil {
			return err
		}
		if err := conflicts(p.Uuids, idSet(rows, localeID), single, "code", p.Codes, "locale code"); err != nil {
			return err
		}
		evs := mapSlice(p.Uuids, func(id uuid.UUID) events.Event { return localeEvent("created", id) })
		if makeDefault < 0 {
			if _, err := q.DefaultLocale(ctx, tenant); store.IsNoRows(err) {
				makeDefault = 0 // the tenant's first locale becomes its default
			} else if err != nil {
				return err
			}
		}
		if makeDefault >= 0 {
			def, cleared, err := setDefaultLocale(ctx, q, tenant, p.Uuids[makeDefault], p.Now)
			if err != nil {
				return err
			}
			rows = append([]db.Locale{def}, rows...)
			evs = append(evs, cleared...)
		}
		return events.Record(ctx, q, tenant, p.Now, evs)
	})
	if err != nil {
		return nil, err
	}
	return inOrder(p.Uuids, rows, localeID, localeToPB), nil
}

// setDefaultLocale makes id the tenant's default and clears the flag on the old default, returning
// the updated events of the locales it cleared.
func setDefaultLocale(ctx context.Context, q *db.Queries, tenant string, id uuid.UUID, now time.Time) (db.Locale, []events.Event, error) {
	cleared, err := q.ClearDefaultLocale(ctx, db.ClearDefaultLocaleParams{TenantID: tenant, Uuid: id, Now: now})
	if err != nil {
		return db.Locale{}, nil, err
	}
	l, err := q.MakeDefaultLocale(ctx, db.MakeDefaultLocaleParams{TenantID: tenant, Uuid: id, Now: now})
	return l, mapSlice(cleared, func(c uuid.UUID) events.Event { return localeEvent("updated", c) }), err
}

func (s *LocaleServer) UpdateLocale(ctx context.Context, req *pb.UpdateLocaleRequest) (*pb.UpdateLocaleResponse, error) {
	if _, err := fields.UUID("localeUuid", req.LocaleUuid); err != nil {
		return nil, err
	}
	u := req.Locale
	if u == nil {
		u = &pb.LocaleUpdate{}
	}
	u.Uuid = req.LocaleUuid
	out, err := s.updateLocales(ctx, []*pb.LocaleUpdate{u}, true)
	if err != nil {
		return nil, err
	}
	return &pb.UpdateLocaleResponse{Locale: out[0]}, nil
}

func (s *LocaleServer) BulkUpdateLocales(ctx context.Context, req *pb.BulkUpdateLocalesRequest) (*pb.BulkUpdateLocalesResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	out, err := s.updateLocales(ctx, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkUpdateLocalesResponse{Items: out}, nil
}

func (s *LocaleServer) updateLocales(ctx context.Context, items []*pb.LocaleUpdate, single bool) ([]*pb.Locale, error) {
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	ids := make([]uuid.UUID, len(items))
	codes := make([]*string, len(items))
	for i, it := range items {
		iv := v.Item(item(i, single))
		fields.ApplyMask(iv, it)
		ids[i] = fields.CheckUUID(iv, "uuid", it.GetUuid())
		if c := optString(it, "code"); c != nil {
			canon := localeCode(iv, *c)
			codes[i] = &canon
		}
		fields.OptText(iv, "displayName", optString(it, "display_name"), 1, 100)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := store.Now()
	out := make([]*pb.Locale, len(items))
	err := s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := q.LockTenantLocales(ctx, tenant); err != nil {
			return err
		}
		var evs []events.Event
		for i, it := range items {
			l, err := q.UpdateLocale(ctx, db.UpdateLocaleParams{TenantID: tenant, Uuid: ids[i], Code: codes[i], DisplayName: optString(it, "display_name"), Now: now})
			if store.IsNoRows(err) {
				return notFoundField(fieldName("uuid", i, single), "locale", it.GetUuid())
			} else if err != nil {
				return mapWriteErr(err, "code", i, single)
			}
			if it.IsDefault != nil {
				switch {
				case *it.IsDefault && !l.IsDefault:
					var cleared []events.Event
					if l, cleared, err = setDefaultLocale(ctx, q, tenant, l.Uuid, now); err != nil {
						return err
					}
					evs = append(evs, cleared...)
				case !*it.IsDefault && l.IsDefault:
					f := fieldName("isDefault", i, single)
					return apierr.Field(f, "the default locale stays default until another locale is made default")
				}
			}
			out[i] = localeToPB(l)
			evs = append(evs, localeEvent("updated", l.Uuid))
		}
		return events.Record(ctx, q, tenant, now, evs)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *LocaleServer) DeleteLocale(ctx context.Context, req *pb.DeleteLocaleRequest) (*pb.DeleteLocaleResponse, error) {
	tenant := reqctx.Tenant(ctx)
	id, err := fields.UUID("localeUuid", req.LocaleUuid)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := q.LockTenantLocales(ctx, tenant); err != nil {
			return err
		}
		l, err := q.GetLocale(ctx, db.GetLocaleParams{TenantID: tenant, Uuid: id})
		if store.IsNoRows(err) {
			return apierr.NotFoundf("locale", req.LocaleUuid)
		} else if err != nil {
			return err
		}
		if l.IsDefault {
			return apierr.New(apierr.InUse, "locale %s is the default locale; make another locale the default before deleting it", req.LocaleUuid)
		}
		if _, err := q.DeleteLocale(ctx, db.DeleteLocaleParams{TenantID: tenant, Uuid: id}); err != nil {
			return inUse(err, "locale", req.LocaleUuid)
		}
		return events.Record(ctx, q, tenant, store.Now(), []events.Event{localeEvent("deleted", id)})
	})
	if err != nil {
		return nil, err
	}
	return &pb.DeleteLocaleResponse{}, nil
}
