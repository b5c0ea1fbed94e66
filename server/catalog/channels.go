package catalog

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// ChannelServer implements catalog.v1.ChannelService.
type ChannelServer struct {
	pb.UnimplementedChannelServiceServer
	*Service
}

// ChannelList is the list spec of GET /v1/channels. localeUuids[eq] reads the uuid column: the
// service first turns the locales into the channels needing any of them (ListChannels).
var ChannelList = &list.Spec{
	Table:   "channels",
	Filters: list.CodeNameFilters(map[string]list.Field{"localeUuids": {Column: "uuid", Type: list.UUID}}),
	Order:   list.CodeNameOrder(nil),
}

// maxChannelLocales bounds the locales of one channel.
const maxChannelLocales = 100

// channelRow is a channel with the locales it needs, in their order.
type channelRow struct {
	db.Channel
	Locales []uuid.UUID
}

func channelToPB(c channelRow) *pb.Channel {
	return &pb.Channel{Uuid: c.Uuid.String(), CreatedAt: timestamppb.New(c.CreatedAt), UpdatedAt: timestamppb.New(c.UpdatedAt),
		Code: c.Code, DisplayName: c.DisplayName, LocaleUuids: mapSlice(c.Locales, uuid.UUID.String)}
}

// withLocales reads the locales of channels.
func withLocales(ctx context.Context, q *db.Queries, tenant string, cs []db.Channel) ([]channelRow, error) {
	ids := mapSlice(cs, func(c db.Channel) uuid.UUID { return c.Uuid })
	rows, err := q.ChannelLocales(ctx, db.ChannelLocalesParams{TenantID: tenant, ChannelUuids: ids})
	if err != nil {
		return nil, err
	}
	by := make(map[uuid.UUID][]uuid.UUID, len(cs))
	for _, r := range rows {
		by[r.ChannelUuid] = append(by[r.ChannelUuid], r.LocaleUuid)
	}
	out := make([]channelRow, len(cs))
	for i, c := range cs {
		out[i] = channelRow{Channel: c, Locales: by[c.Uuid]}
		if out[i].Locales == nil {
			out[i].Locales = []uuid.UUID{}
		}
	}
	return out, nil
}

// checkLocaleList checks that a channel's localeUuids has no repeats (at most 100 uuids: the
// request rules).
func checkLocaleList(v apierr.Validator, ids []string) {
	seen := map[uuid.UUID]int{}
	for j, s := range ids {
		name := fmt.Sprintf("localeUuids[%d]", j)
		id, err := fields.ParseUUID(s)
		if err != nil {
			continue // reported by the request rules
		}
		if k, dup := seen[id]; dup {
			v.Add(name, "repeats localeUuids[%d]", k)
			continue
		}
		seen[id] = j
	}
}

// setChannelLocales writes the locales of channels (lists[i] for ids[i]) after checking that each
// is a locale of the tenant: a missing one is a 404 naming localeUuids[j] through name(i, j).
func setChannelLocales(ctx context.Context, t *crud.Tx, ids []uuid.UUID, lists [][]string, name func(i, j int) string) error {
	var all []uuid.UUID
	p := db.InsertChannelLocalesParams{TenantID: t.Tenant}
	for i, l := range lists {
		for j, s := range l {
			id := uuid.MustParse(s)
			all = append(all, id)
			p.ChannelUuids = append(p.ChannelUuids, ids[i])
			p.LocaleUuids = append(p.LocaleUuids, id)
			p.Positions = append(p.Positions, int32(j))
		}
	}
	if len(all) == 0 {
		return nil
	}
	found, err := t.Q.LocalesExist(ctx, db.LocalesExistParams{TenantID: t.Tenant, Uuids: all})
	if err != nil {
		return err
	}
	have := make(map[uuid.UUID]bool, len(found))
	for _, f := range found {
		have[f] = true
	}
	for i, l := range lists {
		for j, s := range l {
			if !have[uuid.MustParse(s)] {
				return apierr.New(apierr.NotFound, "locale %s does not exist", s).WithField(name(i, j), "not found")
			}
		}
	}
	return t.Q.InsertChannelLocales(ctx, p)
}

// channels is the channel family; its locales live in channel_locales (deleting a locale a channel
// needs is 409 IN_USE; deleting the channel deletes its locale list and its input type links).
var channels = &crud.Family[channelRow, *pb.Channel, *pb.ChannelCreate, *pb.ChannelUpdate]{
	Kind: "channel", Event: "channel", IDKey: "channelUuid", Unique: "code",
	References: map[string]string{"channel_locales_locale_fkey": "localeUuids"},
	ID:         func(c channelRow) uuid.UUID { return c.Uuid },
	ToPB:       channelToPB,
	CheckCreate: func(v apierr.Validator, c *pb.ChannelCreate) string {
		checkLocaleList(v, c.GetLocaleUuids())
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ChannelCreate) ([]channelRow, error) {
		rows, err := t.Q.InsertChannels(ctx, db.InsertChannelsParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.ChannelCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.ChannelCreate])})
		if err != nil {
			return nil, err
		}
		// Locales of the items inserted (a conflicting item is reported by the engine).
		inserted := make(map[uuid.UUID]bool, len(rows))
		for _, r := range rows {
			inserted[r.Uuid] = true
		}
		lists := make([][]string, len(items))
		for i, c := range items {
			if inserted[ids[i]] {
				lists[i] = c.GetLocaleUuids()
			}
		}
		if err := setChannelLocales(ctx, t, ids, lists, func(i, j int) string {
			return crud.FieldName(fmt.Sprintf("localeUuids[%d]", j), i, t.Single)
		}); err != nil {
			return nil, err
		}
		byID := make(map[uuid.UUID][]string, len(items))
		for i := range items {
			byID[ids[i]] = lists[i]
		}
		out := make([]channelRow, len(rows))
		for k, r := range rows {
			out[k] = channelRow{Channel: r, Locales: mapSlice(byID[r.Uuid], uuid.MustParse)}
		}
		return out, nil
	},
	UpdateID: (*pb.ChannelUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.ChannelUpdate) {
		if u.LocaleUuids != nil {
			checkLocaleList(v, u.LocaleUuids.Values)
		}
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ChannelUpdate) (channelRow, error) {
		c, err := t.Q.UpdateChannel(ctx, db.UpdateChannelParams{TenantID: t.Tenant, Uuid: id, Code: optString(u, "code"),
			DisplayName: optString(u, "display_name"), Now: t.Now})
		if err != nil {
			return channelRow{}, err
		}
		rows, err := withLocales(ctx, t.Q, t.Tenant, []db.Channel{c})
		if err != nil {
			return channelRow{}, err
		}
		return rows[0], nil
	},
	// localeUuids, when given, replaces the channel's list.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, c channelRow, u *pb.ChannelUpdate, field func(string) string) (channelRow, error) {
		if u.LocaleUuids == nil {
			return c, nil
		}
		if err := t.Q.DeleteChannelLocales(ctx, db.DeleteChannelLocalesParams{TenantID: t.Tenant, ChannelUuid: c.Uuid}); err != nil {
			return c, err
		}
		l := u.LocaleUuids.Values
		if err := setChannelLocales(ctx, t, []uuid.UUID{c.Uuid}, [][]string{l}, func(_, j int) string {
			return field(fmt.Sprintf("localeUuids[%d]", j))
		}); err != nil {
			return c, err
		}
		c.Locales = mapSlice(l, uuid.MustParse)
		return c, nil
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (channelRow, error) {
		c, err := q.GetChannel(ctx, db.GetChannelParams{TenantID: tenant, Uuid: id})
		if err != nil {
			return channelRow{}, err
		}
		rows, err := withLocales(ctx, q, tenant, []db.Channel{c})
		if err != nil {
			return channelRow{}, err
		}
		return rows[0], nil
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteChannel(ctx, db.DeleteChannelParams{TenantID: t.Tenant, Uuid: id})
	},
}

// ListChannels lists channels; localeUuids[eq] keeps those needing any of the locales given.
func (s *ChannelServer) ListChannels(ctx context.Context, req *pb.ListChannelsRequest) (*pb.ListChannelsResponse, error) {
	tenant := reqctx.Tenant(ctx)
	if eq := req.GetLocaleUuids().GetEq(); len(eq) > 0 {
		v := apierr.NewValidator()
		locales := make([]uuid.UUID, 0, len(eq))
		for _, s := range eq {
			id, err := fields.ParseUUID(s)
			if err != nil {
				v.Add("localeUuids[eq]", "%q is not a uuid", s)
				continue
			}
			locales = append(locales, id)
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
		ids, err := s.DB.Q.ChannelsNeedingLocales(ctx, db.ChannelsNeedingLocalesParams{TenantID: tenant, LocaleUuids: locales})
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			ids = []uuid.UUID{uuid.Nil} // matches nothing (an empty filter would match everything)
		}
		req = proto.Clone(req).(*pb.ListChannelsRequest)
		req.LocaleUuids = &pb.StringsFilter{Eq: mapSlice(ids, uuid.UUID.String)}
	}
	rows, page, err := list.Run[db.Channel](ctx, s.DB, ChannelList, tenant, req)
	if err != nil {
		return nil, err
	}
	full, err := withLocales(ctx, s.DB.Q, tenant, rows)
	if err != nil {
		return nil, err
	}
	return &pb.ListChannelsResponse{Items: mapSlice(full, channelToPB), Pagination: page}, nil
}

func (s *ChannelServer) GetChannel(ctx context.Context, req *pb.GetChannelRequest) (*pb.GetChannelResponse, error) {
	m, err := channels.GetAt(ctx, s.DB, crud.Scope{}, req.ChannelUuid)
	return &pb.GetChannelResponse{Channel: m}, err
}

func (s *ChannelServer) CreateChannel(ctx context.Context, req *pb.CreateChannelRequest) (*pb.CreateChannelResponse, error) {
	m, err := channels.CreateOne(ctx, s.DB, crud.Scope{}, orNew(req.Channel))
	return &pb.CreateChannelResponse{Channel: m}, err
}

func (s *ChannelServer) BulkCreateChannels(ctx context.Context, req *pb.BulkCreateChannelsRequest) (*pb.BulkCreateChannelsResponse, error) {
	out, err := channels.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateChannelsResponse{Items: out}, err
}

func (s *ChannelServer) UpdateChannel(ctx context.Context, req *pb.UpdateChannelRequest) (*pb.UpdateChannelResponse, error) {
	m, err := channels.UpdateAt(ctx, s.DB, crud.Scope{}, req.ChannelUuid, req.Channel)
	return &pb.UpdateChannelResponse{Channel: m}, err
}

func (s *ChannelServer) BulkUpdateChannels(ctx context.Context, req *pb.BulkUpdateChannelsRequest) (*pb.BulkUpdateChannelsResponse, error) {
	out, err := channels.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateChannelsResponse{Items: out}, err
}

// DeleteChannel deletes a channel permanently, with its locale list and input type links.
func (s *ChannelServer) DeleteChannel(ctx context.Context, req *pb.DeleteChannelRequest) (*pb.DeleteChannelResponse, error) {
	return &pb.DeleteChannelResponse{}, channels.Delete(ctx, s.DB, crud.Scope{}, req.ChannelUuid)
}

// channelScope resolves the channelUuid path parameter to the scope of its sub-resources.
func (s *Service) channelScope(ctx context.Context, raw string) crud.Scope {
	id, err := fields.UUID("channelUuid", raw)
	if err != nil {
		return crud.Scope{Err: err}
	}
	c, err := s.DB.Q.GetChannel(ctx, db.GetChannelParams{TenantID: reqctx.Tenant(ctx), Uuid: id})
	if store.IsNoRows(err) {
		return crud.Scope{Err: apierr.NotFoundf("channel", raw)}
	} else if err != nil {
		return crud.Scope{Err: err}
	}
	return crud.Scope{Parent: c.Uuid, Keys: []string{"channelUuid", c.Uuid.String()}}
}
