package crud

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/store"
)

// Entity tags (server/etag): an update, delete or lifecycle move with a condition (If-Match or the
// request's etag, per item in bulks) reads and locks each row it names before writing, and compares
// the row's tag, as its message, with the condition; a mismatch refuses the whole request with 412
// PRECONDITION_FAILED (meta.etag: the current tag; in a bulk, meta.etags by uuid and a field per
// item) and nothing is written. The lock holds until the transaction ends, so no other write slips
// between the comparison and the write.

// shown is row r's message as the family's reads answer it (Present, else ToPB).
func (f *Family[R, M, C, U]) shown(ctx context.Context, t *Tx, r R) (M, error) {
	if f.Present != nil {
		return f.Present(ctx, t, r)
	}
	return f.ToPB(r), nil
}

// tagOf is the etag of row r as its reads answer it.
func (f *Family[R, M, C, U]) tagOf(ctx context.Context, t *Tx, r R) (string, error) {
	m, err := f.shown(ctx, t, r)
	if err != nil {
		return "", err
	}
	if pm, ok := any(m).(proto.Message); ok {
		return etag.Of(pm), nil
	}
	return "", nil
}

// itemCondition is the condition of a bulk update item: its etag field.
func itemCondition(v apierr.Validator, u any) etag.Condition {
	m, ok := u.(proto.Message)
	if !ok {
		return etag.Condition{}
	}
	r := m.ProtoReflect()
	fd := r.Descriptor().Fields().ByName(etag.FieldName)
	if fd == nil || !fd.HasPresence() || !r.Has(fd) {
		return etag.Condition{}
	}
	c, ok := etag.ParseField(r.Get(fd).String())
	if !ok {
		v.Add(etag.FieldName, `must be an entity tag ("…") or *`)
	}
	return c
}

// mismatches collects the items whose condition failed.
type mismatches struct {
	kind  string
	err   *apierr.Error
	etags map[string]string
}

func (m *mismatches) add(id, field, current string, single bool) {
	if single {
		m.err = etag.Failed(m.kind, id, current)
		return
	}
	if m.err == nil {
		m.err = apierr.New(apierr.PreconditionFailed, "")
		m.etags = map[string]string{}
	}
	m.etags[id] = current
	m.err.WithField(field, "does not match: the etag is now "+current)
}

func (m *mismatches) result() error {
	if m.err == nil {
		return nil
	}
	if m.etags != nil {
		names := make([]string, 0, len(m.etags))
		for _, fv := range m.err.Fields {
			names = append(names, fv.Field)
		}
		m.err.Detail = fmt.Sprintf("%d %s(s) changed since they were read: %s", len(m.etags), m.kind, strings.Join(names, ", "))
		m.err.WithMeta("etags", m.etags)
	}
	return m.err
}

// lockOne reads and locks the row id of the scope for a conditional write.
func (f *Family[R, M, C, U]) lockOne(ctx context.Context, t *Tx, id uuid.UUID) (R, error) {
	return f.GetOne(ctx, db.New(forUpdate{t.Conn}), t.Tenant, t.Scope, id)
}

// checkUpdates compares the conditions of an update's items, before any of them is written.
func (f *Family[R, M, C, U]) checkUpdates(ctx context.Context, t *Tx, scopes []Scope, ids []uuid.UUID, conds []etag.Condition, items []U, single bool) error {
	bad := &mismatches{kind: f.Kind}
	defer func(s Scope) { t.Scope = s }(t.Scope)
	for i, c := range conds {
		if !c.Given() {
			continue
		}
		t.Scope = scopes[i]
		r, err := f.lockOne(ctx, t, ids[i])
		if store.IsNoRows(err) {
			if single {
				return apierr.NotFoundf(f.Kind, f.UpdateID(items[i]))
			}
			return apierr.NotFoundf(f.Kind, f.UpdateID(items[i])).WithField(FieldName("uuid", i, single), "not found")
		} else if err != nil {
			return err
		}
		cur, err := f.tagOf(ctx, t, r)
		if err != nil {
			return err
		}
		if !c.Match(cur) {
			bad.add(ids[i].String(), FieldName(etag.FieldName, i, single), cur, single)
		}
	}
	return bad.result()
}

// forUpdate runs a family's one-row read (GetOne: `SELECT … FROM t WHERE …`) with FOR UPDATE.
type forUpdate struct{ conn db.DBTX }

func lockSQL(sql string) string {
	return strings.TrimRight(sql, "; \n\t") + "\nFOR UPDATE"
}

func (l forUpdate) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return l.conn.Exec(ctx, sql, args...)
}

func (l forUpdate) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return l.conn.Query(ctx, lockSQL(sql), args...)
}

func (l forUpdate) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return l.conn.QueryRow(ctx, lockSQL(sql), args...)
}

// checkMoves compares the conditions of a lifecycle request (If-Match, or the etags map of a bulk
// one) with the locked rows by (a missing row is the move's own 404).
func (f *Family[R, M, C, U]) checkMoves(ctx context.Context, t *Tx, by map[uuid.UUID]R, ids []uuid.UUID, raw []string, single bool) error {
	bad := &mismatches{kind: f.Kind}
	for i, id := range ids {
		c := etag.FromContext(ctx)
		if !single {
			c = etag.ItemFromContext(ctx, raw[i])
		}
		r, ok := by[id]
		if !c.Given() || !ok {
			continue
		}
		cur, err := f.tagOf(ctx, t, r)
		if err != nil {
			return err
		}
		if !c.Match(cur) {
			field := etag.MapFieldName + "." + raw[i]
			if bad.etags != nil {
				if _, dup := bad.etags[id.String()]; dup {
					continue
				}
			}
			if single {
				bad.add(raw[i], field, cur, true)
			} else {
				bad.add(id.String(), field, cur, false)
			}
		}
	}
	return bad.result()
}
