package list

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Keyset pages. A cursor is the position after the last row of a page in the page's order (the
// order columns' values and uuid, since ties break on uuid), with what it was made for (a hash of
// the request without its page, size, cursor, include and expand: the filters, the order and the
// parent of a sub-resource list), the number of the page it leads to and the count of the page
// the walk started on. It is
//
//	base64url( version 1 | tag (16 bytes) | JSON {q, p, t, k} )
//
// where tag is HMAC-SHA256 of the rest under a key compiled into catalogd. The tag makes any
// edit of a cursor detectable (400 naming cursor) and lets a cursor from any catalogd of the same
// version be used with any other (replicas, restarts). It is no secret: a cursor is not a
// permission. The WHERE clause (tenant, parent, filters) is rebuilt from the request on every
// page and the cursor's values are only bind parameters of the position, so a forged cursor
// could only start a page somewhere inside the rows the caller may list anyway.

const cursorVersion = 1

var cursorKey = []byte("catalogd list cursor v1")

// position is a decoded cursor.
type position struct {
	// Query is the hash of the request the cursor was made for.
	Query []byte `json:"q"`
	// Page is the number of the page the cursor leads to (pages walked, not an offset).
	Page int32 `json:"p"`
	// Total is totalItems of the page the walk started on, reported on every cursor page.
	Total int64 `json:"t"`
	// Key is the PostgreSQL text of the order columns and uuid of the row before the page
	// (null for a NULL column).
	Key []*string `json:"k"`
}

func cursorTag(body []byte) []byte {
	mac := hmac.New(sha256.New, cursorKey)
	mac.Write(body)
	return mac.Sum(nil)[:16]
}

func encodeCursor(hash []byte, p *position) string {
	p.Query = hash
	js, err := json.Marshal(p)
	if err != nil {
		panic(err) // a struct of strings and numbers always marshals
	}
	body := append([]byte{cursorVersion}, js...)
	out := append([]byte{cursorVersion}, cursorTag(body)...)
	return base64.RawURLEncoding.EncodeToString(append(out, js...))
}

// decodeCursor reads a cursor of the request whose hash is hash, ordered by keys columns; the
// message says why it is refused.
func decodeCursor(s string, hash []byte, keys int) (*position, string) {
	const invalid = "is not a cursor catalogd made: pass pagination.nextCursor of the previous page unchanged"
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) < 1+16 {
		return nil, invalid
	}
	if raw[0] != cursorVersion {
		return nil, "was made by another version of catalogd: start again from the first page"
	}
	tag, js := raw[1:17], raw[17:]
	if !hmac.Equal(tag, cursorTag(append([]byte{raw[0]}, js...))) {
		return nil, invalid
	}
	var p position
	// The page and count go back into 32-bit fields, and the next page's number is Page+1.
	if err := json.Unmarshal(js, &p); err != nil || p.Page < 2 || p.Page == math.MaxInt32 || p.Total < 0 || p.Total > math.MaxInt32 ||
		len(p.Key) != keys {
		return nil, invalid
	}
	if !hmac.Equal(p.Query, hash) {
		return nil, "was made for other filters, another order, another list or another tenant: a cursor only continues the list it came from"
	}
	return &p, ""
}

// queryHash identifies what a cursor continues: the tenant, the request type and every field but
// those that do not change which rows come in which order (page, size, cursor, include, expand).
func queryHash(m protoreflect.Message, tenant string) []byte {
	c := proto.Clone(m.Interface()).ProtoReflect()
	fs := c.Descriptor().Fields()
	for _, name := range []string{"page", "size", "cursor", "include", "expand"} {
		if f := fs.ByJSONName(name); f != nil {
			c.Clear(f)
		}
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(c.Interface())
	if err != nil {
		panic(err) // a message read from a request always marshals
	}
	h := sha256.New()
	h.Write([]byte(tenant))
	h.Write([]byte{0})
	h.Write([]byte(c.Descriptor().FullName()))
	h.Write([]byte{0})
	h.Write(b)
	return h.Sum(nil)[:16]
}

// orderKey is one column of a list's order.
type orderKey struct {
	col  string
	desc bool
	// notNull: an expression never NULL (the relevance), beside the table's NOT NULL columns.
	notNull bool
}

// after is the condition "the row comes after key in the order keys", in the order's own terms:
// ORDER BY leaves NULLs where PostgreSQL puts them by default, last ascending and first
// descending (as if NULL were above every value).
//
// When every column goes the same way and neither a column nor a value can be NULL, it is one
// row comparison, (a, b, uuid) > ($1, $2, $3), which PostgreSQL turns into the start of an index
// range. Otherwise it is spelled out: a > $1 OR (a = $1 AND (b > $2 OR (b = $2 AND uuid > $3))),
// with a NULL key or a nullable column in its own terms.
func (s *Spec) after(b *builder, keys []orderKey, key []*string) string {
	notNull := s.notNullColumns()
	row := true
	for i, k := range keys {
		if k.desc != keys[0].desc || key[i] == nil || !(notNull[k.col] || k.notNull) {
			row = false
		}
	}
	if row {
		cols := make([]string, len(keys))
		vals := make([]string, len(keys))
		for i, k := range keys {
			cols[i], vals[i] = k.col, b.arg(*key[i])
		}
		op := " > "
		if keys[0].desc {
			op = " < "
		}
		return "(" + strings.Join(cols, ", ") + ")" + op + "(" + strings.Join(vals, ", ") + ")"
	}
	params := make([]string, len(keys))
	for i, v := range key {
		if v != nil {
			params[i] = b.arg(*v)
		}
	}
	// Built from the last column back: cond is "after, given the columns before i are equal".
	cond := "false"
	for i := len(keys) - 1; i >= 0; i-- {
		k, p := keys[i], params[i]
		var eq, gt string
		if key[i] == nil {
			eq = k.col + " IS NULL"
			if k.desc {
				gt = k.col + " IS NOT NULL"
			}
		} else {
			eq = k.col + " = " + p
			switch {
			case k.desc:
				gt = k.col + " < " + p
			case notNull[k.col] || k.notNull:
				gt = k.col + " > " + p
			default:
				gt = "(" + k.col + " > " + p + " OR " + k.col + " IS NULL)"
			}
		}
		rest := eq + " AND " + cond
		if cond == "false" {
			rest = ""
		}
		switch {
		case gt == "" && rest == "":
			cond = "false"
		case gt == "":
			cond = "(" + rest + ")"
		case rest == "":
			cond = gt
		default:
			cond = "(" + gt + " OR (" + rest + "))"
		}
	}
	return cond
}

var plainTable = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// notNull caches, by table, the columns known NOT NULL (loadNotNull): the same in every
// catalogd database, which migrations make alike.
var notNull sync.Map

// notNullColumns is the columns of the table known NOT NULL; uuid only before loadNotNull.
func (s *Spec) notNullColumns() map[string]bool {
	if m, ok := notNull.Load(s.Table); ok {
		return m.(map[string]bool)
	}
	return map[string]bool{"uuid": true}
}

// loadNotNull reads once which columns of the table are NOT NULL: only those may take part in the
// row comparison of a keyset page (a row with a NULL in the order would be left out of it). A
// view's columns are all nullable for PostgreSQL, so its pages use the spelled-out condition.
func (s *Spec) loadNotNull(ctx context.Context, db Querier) error {
	if _, ok := notNull.Load(s.Table); ok {
		return nil
	}
	out := map[string]bool{"uuid": true}
	for _, c := range s.NotNull {
		out[c] = true
	}
	if plainTable.MatchString(s.Table) {
		batch := &pgx.Batch{}
		batch.Queue(`SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped AND attnotnull`, s.Table)
		br := db.SendBatch(ctx, batch)
		rows, err := br.Query()
		if err == nil {
			var names []string
			names, err = pgx.CollectRows(rows, pgx.RowTo[string])
			for _, n := range names {
				out[n] = true
			}
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	notNull.Store(s.Table, out)
	return nil
}
