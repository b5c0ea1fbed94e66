package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/list"
)

// Categories and collections are the same resource shape: a tree of nodes within a tenant, each
// with a code, a displayName, a parentUuid (null for a root), a position among its siblings and the
// draft/active/inactive/removed lifecycle. This file is that shape, written once; categories.go
// and collections.go give it a table, an event prefix and a message.
//
// Their tables have the same columns and their queries the same parameters, so a collection row or
// parameter set converts to the category one (a Go struct conversion): the shared code works on
// those types, and the collection table's adapters convert.

// node is a row of a hierarchy table.
type node = db.Category

// nodeTable is one hierarchy table's queries, in the shared types.
type nodeTable struct {
	// name is the table, also the prefix of its constraint names.
	name       string
	get        func(*db.Queries, context.Context, db.GetCategoryParams) (node, error)
	lock       func(*db.Queries, context.Context, db.LockCategoriesParams) ([]node, error)
	lockTree   func(*db.Queries, context.Context, string) error
	insert     func(*db.Queries, context.Context, db.InsertCategoriesParams) ([]node, error)
	update     func(*db.Queries, context.Context, db.UpdateCategoryParams) (node, error)
	wouldCycle func(*db.Queries, context.Context, db.CategoryWouldCycleParams) (bool, error)
	setStatus  func(*db.Queries, context.Context, db.SetCategoryStatusParams) ([]node, error)
	deleteOne  func(*db.Queries, context.Context, db.DeleteCategoryParams) (int64, error)
}

// nodeCreate and nodeChange are what the create and update bodies of every hierarchy offer.
type nodeCreate interface {
	proto.Message
	GetCode() string
	GetPosition() int32
}

type nodeChange interface {
	proto.Message
	GetUuid() string
}

var nodeStatuses = []string{"draft", "active", "inactive", "removed"}

// nodeList is the list spec of a hierarchy table.
func nodeList(table string) *list.Spec {
	return &list.Spec{
		Table: table,
		Filters: list.CodeNameFilters(map[string]list.Field{
			"statuses":    {Column: "status", Type: list.Enum, Values: nodeStatuses},
			"parentUuids": {Column: "parent_uuid", Type: list.UUID},
			"isRoot":      {Column: "is_root", Type: list.Bool},
			"position":    {Column: "position", Type: list.Int},
		}),
		Order:      list.CodeNameOrder(map[string]string{"status": "status", "position": "position"}),
		SoftDelete: &list.SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
	}
}

// nodeMachine is the lifecycle of DESIGN.md for categories and collections.
func nodeMachine(kind string) lifecycle.Machine {
	return lifecycle.Machine{Kind: kind, Moves: map[string]lifecycle.Move{
		"activate":   {From: []string{"draft", "inactive"}, To: "active", Event: "activated"},
		"deactivate": {From: []string{"active"}, To: "inactive", Event: "deactivated"},
		"remove":     {From: []string{"draft", "active", "inactive"}, To: "removed", Event: "removed"},
		"restore":    {From: []string{"removed"}, To: "draft", Event: "restored"},
	}}
}

// nodeFamily is the family of a hierarchy table. Every write takes the tenant's tree lock first, so
// that two concurrent moves cannot together close a cycle neither closes alone; a parentUuid must
// name a node of the same table and tenant (404 naming it); a move under the node itself or one of
// its descendants is 409 REQUIREMENTS_NOT_MET naming parentUuid; deleting a node with children is
// 409 IN_USE (the foreign key restricts it).
func nodeFamily[M any, C nodeCreate, U nodeChange](kind, event, idKey string, t *nodeTable, toPB func(node) M) *crud.Family[node, M, C, U] {
	return &crud.Family[node, M, C, U]{
		Kind: kind, Event: event, IDKey: idKey, Unique: "code",
		References: map[string]string{t.name + "_parent_fkey": "parentUuid"},
		ID:         func(n node) uuid.UUID { return n.Uuid },
		ToPB:       toPB,
		Prepare:    func(ctx context.Context, tx *crud.Tx) error { return t.lockTree(tx.Q, ctx, tx.Tenant) },
		CheckCreate: func(_ apierr.Validator, c C) string {
			return c.GetCode()
		},
		Insert: func(ctx context.Context, tx *crud.Tx, ids []uuid.UUID, items []C) ([]node, error) {
			n := len(items)
			p := db.InsertCategoriesParams{TenantID: tx.Tenant, Now: tx.Now, Uuids: ids, Codes: mapSlice(items, C.GetCode),
				DisplayNames: mapSlice(items, displayNameOrCode[C]), ParentUuids: make([]uuid.UUID, n), HasParents: make([]bool, n),
				Positions: mapSlice(items, C.GetPosition)}
			parents := make([]*uuid.UUID, n)
			for i, c := range items {
				if parents[i] = optUUID(c, "parent_uuid"); parents[i] != nil {
					p.ParentUuids[i], p.HasParents[i] = *parents[i], true
				}
			}
			if err := crud.RequireExisting(ctx, tx, t.name, "parentUuid", parents); err != nil {
				return nil, err
			}
			return t.insert(tx.Q, ctx, p)
		},
		UpdateID: func(u U) string { return u.GetUuid() },
		// A parentUuid of another tenant or none fails the foreign key: 404 naming parentUuid.
		UpdateOne: func(ctx context.Context, tx *crud.Tx, id uuid.UUID, u U) (node, error) {
			parent := optUUID(u, "parent_uuid")
			return t.update(tx.Q, ctx, db.UpdateCategoryParams{TenantID: tx.Tenant, Uuid: id, Now: tx.Now,
				Code: optString(u, "code"), DisplayName: optString(u, "display_name"), Position: optInt32(u, "position"),
				SetParent: parent != nil || fields.NewMask(updateMask(u)).Clears("parent_uuid", false), ParentUuid: parent})
		},
		// After the move, a walk up from the new parent that meets the node is a cycle.
		AfterUpdate: func(ctx context.Context, tx *crud.Tx, n node, u U, field func(string) string) (node, error) {
			if n.ParentUuid == nil || optString(u, "parent_uuid") == nil {
				return n, nil
			}
			cycle, err := t.wouldCycle(tx.Q, ctx, db.CategoryWouldCycleParams{TenantID: tx.Tenant, Uuid: n.Uuid, ParentUuid: *n.ParentUuid})
			if err != nil || !cycle {
				return n, err
			}
			// As every REQUIREMENTS_NOT_MET: meta.missing lists the unmet requirements (entries of the
			// readiness shape, here the parent the rule refuses) and errors[] has one entry for each.
			parent, err := t.get(tx.Q, ctx, db.GetCategoryParams{TenantID: tx.Tenant, Uuid: *n.ParentUuid})
			if err != nil {
				return n, err
			}
			msg := "must not be the " + kind + " itself or one of its descendants"
			missing := []missingItem{{Kind: kind, UUID: parent.Uuid.String(), Code: parent.Code,
				Detail: fmt.Sprintf("%s %s is the %s being moved or one of its descendants", kind, parent.Code, kind)}}
			return n, apierr.New(apierr.RequirementsNotMet, "%s: %s %s cannot be placed under %s, which is the %s itself or one of its descendants",
				field("parentUuid"), kind, n.Uuid, *n.ParentUuid, kind).
				WithField(field("parentUuid"), msg).
				WithMeta("rule", "no_cycle").WithMeta("parentUuid", n.ParentUuid.String()).WithMeta("missing", missing)
		},
		GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (node, error) {
			return t.get(q, ctx, db.GetCategoryParams{TenantID: tenant, Uuid: id})
		},
		DeleteOne: func(ctx context.Context, tx *crud.Tx, id uuid.UUID) (int64, error) {
			return t.deleteOne(tx.Q, ctx, db.DeleteCategoryParams{TenantID: tx.Tenant, Uuid: id})
		},
		Lifecycle: &crud.Lifecycle[node]{
			Machine: nodeMachine(kind),
			Status:  func(n node) string { return n.Status },
			Lock: func(ctx context.Context, tx *crud.Tx, ids []uuid.UUID) ([]node, error) {
				return t.lock(tx.Q, ctx, db.LockCategoriesParams{TenantID: tx.Tenant, Uuids: ids})
			},
			Set: func(ctx context.Context, tx *crud.Tx, ids []uuid.UUID, status string) ([]node, error) {
				return t.setStatus(tx.Q, ctx, db.SetCategoryStatusParams{TenantID: tx.Tenant, Uuids: ids, Status: status, Now: tx.Now})
			},
		},
	}
}

// nodeToPB fills a hierarchy message (Category, Collection: the same field names) from a row;
// statusPrefix is its status enum's value prefix ("CATEGORY_STATUS_").
func nodeToPB[M proto.Message](m M, n node, statusPrefix string) M {
	r := m.ProtoReflect()
	fs := r.Descriptor().Fields()
	set := func(name protoreflect.Name, v protoreflect.Value) { r.Set(fs.ByName(name), v) }
	set("uuid", protoreflect.ValueOfString(n.Uuid.String()))
	set("created_at", protoreflect.ValueOfMessage(timestamppb.New(n.CreatedAt).ProtoReflect()))
	set("updated_at", protoreflect.ValueOfMessage(timestamppb.New(n.UpdatedAt).ProtoReflect()))
	if n.RemovedAt != nil {
		set("removed_at", protoreflect.ValueOfMessage(timestamppb.New(*n.RemovedAt).ProtoReflect()))
	}
	status := fs.ByName("status").Enum().Values().ByName(protoreflect.Name(statusPrefix + strings.ToUpper(n.Status)))
	if status != nil {
		set("status", protoreflect.ValueOfEnum(status.Number()))
	}
	set("code", protoreflect.ValueOfString(n.Code))
	set("display_name", protoreflect.ValueOfString(n.DisplayName))
	if n.ParentUuid != nil {
		set("parent_uuid", protoreflect.ValueOfString(n.ParentUuid.String()))
	}
	set("position", protoreflect.ValueOfInt32(n.Position))
	return m
}

// parentScope resolves a parent's path parameter to the scope of its sub-resources, keyed in
// events by the parent family's IDKey.
func parentScope[R, M, C, U any](ctx context.Context, s *Service, f *crud.Family[R, M, C, U], raw string) crud.Scope {
	r, err := f.Get(ctx, s.DB, crud.Scope{}, raw)
	if err != nil {
		return crud.Scope{Err: err}
	}
	id := f.ID(r)
	return crud.Scope{Parent: id, Keys: []string{f.IDKey, id.String()}}
}

// optInt32 reads an optional int32 field of a message by proto name (nil when unset).
func optInt32(m proto.Message, name protoreflect.Name) *int32 {
	r := m.ProtoReflect()
	f := r.Descriptor().Fields().ByName(name)
	if !r.IsValid() || f == nil || !r.Has(f) {
		return nil
	}
	n := int32(r.Get(f).Int())
	return &n
}

// optUUID reads an optional uuid field already checked by the request rules (nil when unset).
func optUUID(m proto.Message, name protoreflect.Name) *uuid.UUID {
	s := optString(m, name)
	if s == nil {
		return nil
	}
	id := uuid.MustParse(*s)
	return &id
}
