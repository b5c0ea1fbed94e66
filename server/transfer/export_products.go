package transfer

// The product reader of exports: products in batches of ExportBatch by code (keyset, so memory
// stays bounded whatever the catalog's size), each batch's children read with one statement per
// child table (= ANY of the batch's uuids, pipelined), the lines written by hand. The field names
// are the product kind's declarations (server/catalog/transfer.go); the SQL is the product
// family's tables.
//
// Order: products without a parent (simple, variant_parent) by code, then variants by code, so a
// variant's parent is defined before it. Relations can form cycles (A cross-sells B, B cross-sells
// A), so they are not in a product's line: after every product, a line
// {"type":"product","code":…,"relations":[…],"publications":[…]} completes each product that has
// relations, or whose parent has (readiness counts relations, a variant's its parent's): its
// publications travel with the relations, so that a publication published where the family
// requires relations is published once they exist.

import (
	"context"
	"encoding/csv"
	"fmt"
	"sort"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/catalogd/catalogd/server/jsonpb"
)

// product is one product of a batch with its children as codes.
type product struct {
	id               uuid.UUID
	code, name, kind string
	status           string
	family, parent   *string
	brand            *string
	related          bool // it or its parent has relations: publications go with them
	// restaged: inactive or removed, with unpublished publications (deactivating or removing a
	// published product leaves them so; a draft one keeps the limit: active → draft is no move). Its line makes it active and publishes them; a later line moves it
	// to its status, which unpublishes them again (unpublished is reached through published only,
	// and publishing needs an active product).
	restaged         bool
	categories, tags []string
	attributes       map[string][]string
	attributeOrder   []string
	axes             map[string]bool // the attributes that are a variant axis of the product
	values           []productValue
	assets           []productAsset
	publications     []productPublication
	relations        []productRelation

	// As read, before their codes are looked up (code tables are read once per export).
	familyID, brandID, parentID pgtype.UUID
	raw                         []rawChild
}

// rawChild is a child row as read: the uuids of the structure it names (table, uuid), resolved
// to codes after the batch is read.
type rawChild struct {
	kind  childKind
	ids   [3]pgtype.UUID
	text  string // an asset's or a relation target's code (read by join: they are many)
	value []byte
	n     int32
}

type childKind int

const (
	childCategory childKind = iota
	childTag
	childAttribute // ids: product attribute, attribute; n: 1 when it is a variant axis
	childTerm      // ids: product attribute, term
	childValue     // ids: input type, channel, locale
	childAsset     // ids: asset type; text: the asset's code
	childPublication
	childRelation // ids: relation type; text: the target's code
)

type productValue struct {
	inputType       string
	channel, locale string // "": none
	value           []byte
}

type productAsset struct {
	asset, assetType string
	priority         int32
}

type productPublication struct{ channel, status string }

type productRelation struct{ relationType, target string }

// restagedSQL: the product is restaged (not active, with unpublished publications).
const restagedSQL = "(status IN ('inactive', 'removed') AND uuid IN (SELECT x.product_uuid FROM product_publications x WHERE x.tenant_id = $1 AND x.status = 'unpublished'))"

// holdersSQL are the products holding relations ($1 the tenant).
const holdersSQL = "(SELECT x.product_uuid FROM product_relations x WHERE x.tenant_id = $1)"

// scan reads the selected products in export order (without a parent, then variants; by code),
// batch by batch, with extra an additional condition on products; fn gets each batch.
func (r *reader) scan(extra string, fn func([]*product) error) error {
	// Every statement of a batch reads a few rows per product by index (products by code,
	// children by product_uuid = ANY of the batch); on a small tenant's tables the planner would
	// rather read a child table whole for each batch (a sequential scan: 25 to 45 ms per batch of
	// 1 000 at 50 000 products, and growing with the table), or hash a whole table to join it, so
	// the export's snapshot turns both off (the few joins are lookups by primary key).
	if _, err := r.tx.Exec(r.ctx, "SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off"); err != nil {
		return err
	}
	for _, variants := range []bool{false, true} {
		cond := "parent_uuid IS NULL"
		if variants {
			cond = "parent_uuid IS NOT NULL"
		}
		if extra != "" {
			cond += " AND " + extra
		}
		n := len(r.args)
		q := "WITH p AS (SELECT uuid, code, display_name, kind, status, family_uuid, parent_uuid, brand_uuid" +
			" FROM products WHERE " + r.where + " AND " + cond + " AND code > $" + strconv.Itoa(n+1) + " ORDER BY code LIMIT " + strconv.Itoa(ExportBatch) + ")" +
			" SELECT " + productColumns + " FROM p ORDER BY p.code"
		last := ""
		for {
			if err := r.ctx.Err(); err != nil {
				return err
			}
			batch, err := r.productRows(q, append(append([]any{}, r.args...), last)...)
			if err != nil {
				return err
			}
			if len(batch) == 0 {
				break
			}
			if err := fn(batch); err != nil {
				return err
			}
			if len(batch) < ExportBatch {
				break
			}
			last = batch[len(batch)-1].code
		}
	}
	return nil
}

// productColumns are a product's own columns as productRows scans them, from p (products or a
// selection of them; $1 the tenant).
const productColumns = "p.uuid, p.code, p.display_name, p.kind, p.status, p.family_uuid, p.parent_uuid," +
	" (SELECT pp.code FROM products pp WHERE pp.tenant_id = $1 AND pp.uuid = p.parent_uuid), p.brand_uuid"

// productRows runs q, which selects productColumns, and answers its products (without children).
func (r *reader) productRows(q string, args ...any) ([]*product, error) {
	rows, err := r.tx.Query(r.ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*product
	for rows.Next() {
		p := &product{}
		if err := rows.Scan(&p.id, &p.code, &p.name, &p.kind, &p.status, &p.familyID, &p.parentID, &p.parent, &p.brandID); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// byCode reads the products of codes that exist, with their children but relations (load), in
// no particular order: the stored state an import line is compared with (unchanged.go).
func (r *reader) byCode(codes []string) ([]*product, error) {
	batch, err := r.productRows("SELECT "+productColumns+" FROM products p WHERE p.tenant_id = $1 AND p.code = ANY($2)", r.tenant, codes)
	if err != nil || len(batch) == 0 {
		return batch, err
	}
	return batch, r.load(batch, false)
}

// batches reads the selected products with their children (load; related as there) batch by
// batch and gives each to write, in order. Reading runs in a goroutine of its own, one batch
// ahead: the database reads the next batch while this one is written (the transaction is used by
// that goroutine only).
func (r *reader) batches(extra string, related bool, write func([]*product) error) error {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	rd := *r
	rd.ctx = ctx
	ready := make(chan []*product, 1)
	done := make(chan error, 1)
	go func() {
		defer close(ready)
		done <- rd.scan(extra, func(batch []*product) error {
			if err := rd.load(batch, related); err != nil {
				return err
			}
			select {
			case ready <- batch:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var err error
	for batch := range ready {
		if err == nil {
			if err = write(batch); err != nil {
				cancel()
			}
		}
	}
	if rerr := <-done; err == nil {
		err = rerr
	}
	return err
}

// childSQL are the statements reading a batch's children ($1 the tenant, $2 the batch's uuids).
// They name the structure by uuid (codes come from the export's cache); assets and relation
// targets, which grow with the catalog, by join.
var childSQL = struct{ links, attributes, terms, values, assets, publications, relations, holders string }{
	links:      `SELECT product_uuid, kind = 'category', target_uuid FROM product_links WHERE tenant_id = $1 AND product_uuid = ANY($2)`,
	attributes: `SELECT product_uuid, uuid, attribute_uuid, is_variant_axis FROM product_attributes WHERE tenant_id = $1 AND product_uuid = ANY($2)`,
	terms:      `SELECT product_uuid, product_attribute_uuid, term_uuid FROM product_terms WHERE tenant_id = $1 AND product_uuid = ANY($2)`,
	values: `SELECT product_uuid, input_type_uuid, channel_uuid, locale_uuid, value FROM product_input_values
		WHERE tenant_id = $1 AND product_uuid = ANY($2)`,
	assets: `SELECT pa.product_uuid, pa.product_asset_type_uuid, a.code, pa.display_priority FROM product_assets pa
		JOIN assets a ON a.tenant_id = pa.tenant_id AND a.uuid = pa.asset_uuid
		WHERE pa.tenant_id = $1 AND pa.product_uuid = ANY($2)`,
	publications: `SELECT product_uuid, channel_uuid, status FROM product_publications WHERE tenant_id = $1 AND product_uuid = ANY($2)`,
	relations: `SELECT r.product_uuid, r.product_relation_type_uuid, tp.code FROM product_relations r
		JOIN products tp ON tp.tenant_id = r.tenant_id AND tp.uuid = r.target_product_uuid
		WHERE r.tenant_id = $1 AND r.product_uuid = ANY($2)`,
	// The products of the batch, or parents of it, that hold relations.
	holders: `SELECT DISTINCT product_uuid FROM product_relations WHERE tenant_id = $1 AND product_uuid = ANY($2)`,
}

// load reads the children of batch: all but relations, or (related) relations and publications.
func (r *reader) load(batch []*product, related bool) error {
	ids := make([]uuid.UUID, len(batch))
	byID := make(map[uuid.UUID]*product, len(batch))
	var withParents []uuid.UUID
	for i, p := range batch {
		ids[i], byID[p.id] = p.id, p
		withParents = append(withParents, p.id)
		if p.parentID.Valid {
			withParents = append(withParents, p.parentID.Bytes)
		}
	}
	holders := map[uuid.UUID]bool{}
	var id uuid.UUID
	add := func(c rawChild) { p := byID[id]; p.raw = append(p.raw, c) }
	type child struct {
		sql  string
		args []any
		scan func(pgx.Rows) error
	}
	var a, b, c pgtype.UUID
	var text string
	children := []child{{childSQL.publications, nil, func(rows pgx.Rows) error {
		if err := rows.Scan(&id, &a, &text); err != nil {
			return err
		}
		add(rawChild{kind: childPublication, ids: [3]pgtype.UUID{a}, text: text})
		return nil
	}}}
	children = append(children, child{childSQL.holders, []any{r.tenant, withParents}, func(rows pgx.Rows) error {
		var h uuid.UUID
		if err := rows.Scan(&h); err != nil {
			return err
		}
		holders[h] = true
		return nil
	}})
	if related {
		children = append(children, child{childSQL.relations, nil, func(rows pgx.Rows) error {
			if err := rows.Scan(&id, &a, &text); err != nil {
				return err
			}
			add(rawChild{kind: childRelation, ids: [3]pgtype.UUID{a}, text: text})
			return nil
		}})
	} else {
		children = append(children,
			child{childSQL.links, nil, func(rows pgx.Rows) error {
				var isCategory bool
				if err := rows.Scan(&id, &isCategory, &a); err != nil {
					return err
				}
				k := childTag
				if isCategory {
					k = childCategory
				}
				add(rawChild{kind: k, ids: [3]pgtype.UUID{a}})
				return nil
			}},
			child{childSQL.attributes, nil, func(rows pgx.Rows) error {
				var axis bool
				if err := rows.Scan(&id, &a, &b, &axis); err != nil {
					return err
				}
				c := rawChild{kind: childAttribute, ids: [3]pgtype.UUID{a, b}}
				if axis {
					c.n = 1
				}
				add(c)
				return nil
			}},
			child{childSQL.terms, nil, func(rows pgx.Rows) error {
				if err := rows.Scan(&id, &a, &b); err != nil {
					return err
				}
				add(rawChild{kind: childTerm, ids: [3]pgtype.UUID{a, b}})
				return nil
			}},
			child{childSQL.values, nil, func(rows pgx.Rows) error {
				var v []byte
				if err := rows.Scan(&id, &a, &b, &c, &v); err != nil {
					return err
				}
				if len(v) > 0 && (v[0] == '{' || v[0] == '[') {
					v = compact(v) // jsonb's text has spaces after ':' and ','
				} else {
					v = append([]byte(nil), v...)
				}
				add(rawChild{kind: childValue, ids: [3]pgtype.UUID{a, b, c}, value: v})
				return nil
			}},
			child{childSQL.assets, nil, func(rows pgx.Rows) error {
				var prio int32
				if err := rows.Scan(&id, &a, &text, &prio); err != nil {
					return err
				}
				add(rawChild{kind: childAsset, ids: [3]pgtype.UUID{a}, text: text, n: prio})
				return nil
			}})
	}
	pb := &pgx.Batch{}
	for _, ch := range children {
		args := ch.args
		if args == nil {
			args = []any{r.tenant, ids}
		}
		pb.Queue(ch.sql, args...)
	}
	br := r.tx.SendBatch(r.ctx, pb)
	for _, ch := range children {
		rows, err := br.Query()
		if err != nil {
			br.Close()
			return err
		}
		for rows.Next() {
			if err := ch.scan(rows); err != nil {
				rows.Close()
				br.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			br.Close()
			return err
		}
	}
	if err := br.Close(); err != nil {
		return err
	}
	if err := r.readCodes(batch); err != nil {
		return err
	}
	for _, p := range batch {
		p.related = holders[p.id] || (p.parentID.Valid && holders[p.parentID.Bytes])
		if err := r.resolve(p); err != nil {
			return err
		}
		for _, pub := range p.publications {
			p.restaged = p.restaged || ((p.status == "inactive" || p.status == "removed") && pub.status == "unpublished")
		}
		p.sort()
	}
	return nil
}

// childTables are the tables of the resources a child row names (rawChild.ids), by its kind;
// "" for an id that is not a reference (a product attribute's own uuid).
var childTables = map[childKind][3]string{
	childCategory:    {"categories"},
	childTag:         {"tags"},
	childAttribute:   {"", "attributes"},
	childTerm:        {"", "attribute_terms"},
	childValue:       {"input_types", "channels", "locales"},
	childAsset:       {"product_asset_types"},
	childPublication: {"channels"},
	childRelation:    {"product_relation_types"},
}

// readCodes reads, in one round trip, the codes of the resources batch refers to that r has not
// read yet (one statement per table), so that resolve finds them all in r.codes: a reader that
// lives for a few products (an import's batch) would otherwise read them one by one.
func (r *reader) readCodes(batch []*product) error {
	missing := map[string]map[uuid.UUID]bool{}
	want := func(table string, id pgtype.UUID) {
		if !id.Valid || table == "" {
			return
		}
		if _, ok := r.codes[table][id.Bytes]; ok {
			return
		}
		if missing[table] == nil {
			missing[table] = map[uuid.UUID]bool{}
		}
		missing[table][id.Bytes] = true
	}
	for _, p := range batch {
		want("families", p.familyID)
		want("brands", p.brandID)
		for _, c := range p.raw {
			for i, table := range childTables[c.kind] {
				want(table, c.ids[i])
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	tables := make([]string, 0, len(missing))
	b := &pgx.Batch{}
	for table, ids := range missing {
		list := make([]uuid.UUID, 0, len(ids))
		for id := range ids {
			list = append(list, id)
		}
		tables = append(tables, table)
		b.Queue("SELECT code, uuid FROM "+pgx.Identifier{table}.Sanitize()+" WHERE tenant_id = $1 AND uuid = ANY($2)", r.tenant, list)
	}
	br := r.tx.SendBatch(r.ctx, b)
	for _, table := range tables {
		rows, err := br.Query()
		if err == nil {
			var found map[string]uuid.UUID // code → uuid
			if found, err = collect[string](rows); err == nil {
				if r.codes[table] == nil {
					r.codes[table] = map[uuid.UUID]string{}
				}
				for c, id := range found {
					r.codes[table][id] = c
				}
			}
		}
		if err != nil {
			_ = br.Close()
			return err
		}
	}
	return br.Close()
}

// resolve turns p's references as read into codes.
func (r *reader) resolve(p *product) error {
	var err error
	code := func(table string, id pgtype.UUID) (string, bool) {
		if !id.Valid || err != nil {
			return "", false
		}
		var c string
		c, err = r.codeIn(table, id.Bytes)
		return c, err == nil
	}
	opt := func(table string, id pgtype.UUID) *string {
		if c, ok := code(table, id); ok {
			return &c
		}
		return nil
	}
	p.family, p.brand = opt("families", p.familyID), opt("brands", p.brandID)
	attributeOf := map[[16]byte]string{} // product attribute → attribute code
	for _, c := range p.raw {
		if c.kind != childAttribute {
			continue
		}
		if a, ok := code("attributes", c.ids[1]); ok {
			attributeOf[c.ids[0].Bytes] = a
			if p.attributes == nil {
				p.attributes = map[string][]string{}
			}
			p.attributes[a] = []string{}
			p.attributeOrder = append(p.attributeOrder, a)
			if c.n == 1 {
				if p.axes == nil {
					p.axes = map[string]bool{}
				}
				p.axes[a] = true
			}
		}
	}
	for _, c := range p.raw {
		switch c.kind {
		case childCategory:
			if s, ok := code("categories", c.ids[0]); ok {
				p.categories = append(p.categories, s)
			}
		case childTag:
			if s, ok := code("tags", c.ids[0]); ok {
				p.tags = append(p.tags, s)
			}
		case childTerm:
			a, ok := attributeOf[c.ids[0].Bytes]
			if t, tok := code("attribute_terms", c.ids[1]); tok && ok {
				p.attributes[a] = append(p.attributes[a], t)
			}
		case childValue:
			if it, ok := code("input_types", c.ids[0]); ok {
				ch, _ := code("channels", c.ids[1])
				lo, _ := code("locales", c.ids[2])
				p.values = append(p.values, productValue{it, ch, lo, c.value})
			}
		case childAsset:
			if t, ok := code("product_asset_types", c.ids[0]); ok {
				p.assets = append(p.assets, productAsset{c.text, t, c.n})
			}
		case childPublication:
			if ch, ok := code("channels", c.ids[0]); ok {
				p.publications = append(p.publications, productPublication{ch, c.text})
			}
		case childRelation:
			if t, ok := code("product_relation_types", c.ids[0]); ok {
				p.relations = append(p.relations, productRelation{t, c.text})
			}
		}
	}
	p.raw = nil
	return err
}

// sort puts a product's children in their export order (by codes).
func (p *product) sort() {
	sort.Strings(p.categories)
	sort.Strings(p.tags)
	sort.Strings(p.attributeOrder)
	for _, ts := range p.attributes {
		sort.Strings(ts)
	}
	sort.Slice(p.values, func(i, j int) bool {
		a, b := p.values[i], p.values[j]
		if a.inputType != b.inputType {
			return a.inputType < b.inputType
		}
		if a.channel != b.channel {
			return a.channel < b.channel
		}
		return a.locale < b.locale
	})
	sort.Slice(p.assets, func(i, j int) bool { return p.assets[i].asset < p.assets[j].asset })
	sort.Slice(p.publications, func(i, j int) bool { return p.publications[i].channel < p.publications[j].channel })
	sort.Slice(p.relations, func(i, j int) bool {
		a, b := p.relations[i], p.relations[j]
		if a.relationType != b.relationType {
			return a.relationType < b.relationType
		}
		return a.target < b.target
	})
}

// products writes the product lines of kind k, then the lines completing related products.
func (r *reader) products(k *Kind, out *output) error {
	var buf []byte
	err := r.batches("", false, func(batch []*product) error {
		for _, p := range batch {
			buf = p.line(buf[:0], k.Type)
			if err := out.line(buf, true); err != nil {
				return err
			}
		}
		out.tick()
		return nil
	})
	if err != nil {
		return err
	}
	// The lines completing related products (holders of relations and their variants) and
	// restaged ones.
	return r.batches("(uuid IN "+holdersSQL+" OR parent_uuid IN "+holdersSQL+" OR "+restagedSQL+")", true, func(batch []*product) error {
		for _, p := range batch {
			if len(p.relations) == 0 && !(p.related && len(p.publications) > 0) && !p.restaged {
				continue // a variant of a related parent, without publications: nothing to complete
			}
			buf = append(buf[:0], `{"type":`...)
			buf = jsonpb.AppendString(buf, k.Type)
			buf = append(buf, `,"code":`...)
			buf = jsonpb.AppendString(buf, p.code)
			if len(p.relations) > 0 {
				buf = append(buf, `,"relations":[`...)
				for i, rel := range p.relations {
					if i > 0 {
						buf = append(buf, ',')
					}
					buf = append(buf, `{"relationType":`...)
					buf = jsonpb.AppendString(buf, rel.relationType)
					buf = append(buf, `,"target":`...)
					buf = jsonpb.AppendString(buf, rel.target)
					buf = append(buf, '}')
				}
				buf = append(buf, ']')
			}
			if p.related {
				buf = p.appendPublications(buf)
			}
			if p.restaged {
				buf = append(buf, `,"status":`...)
				buf = jsonpb.AppendString(buf, p.status)
			}
			buf = append(buf, '}')
			if err := out.line(buf, false); err != nil {
				return err
			}
		}
		return nil
	})
}

// line appends product p's line (without its relations, and without its publications when they
// travel with the relations).
func (p *product) line(b []byte, typ string) []byte {
	b = append(b, `{"type":`...)
	b = jsonpb.AppendString(b, typ)
	b = append(b, `,"code":`...)
	b = jsonpb.AppendString(b, p.code)
	if p.name != p.code {
		b = append(b, `,"displayName":`...)
		b = jsonpb.AppendString(b, p.name)
	}
	b = append(b, `,"kind":`...)
	b = jsonpb.AppendString(b, p.kind)
	for _, ref := range []struct {
		name string
		code *string
	}{{"family", p.family}, {"parent", p.parent}, {"brand", p.brand}} {
		if ref.code != nil {
			b = append(b, `,"`+ref.name+`":`...)
			b = jsonpb.AppendString(b, *ref.code)
		}
	}
	b = append(b, `,"status":`...)
	if p.restaged {
		b = jsonpb.AppendString(b, "active")
	} else {
		b = jsonpb.AppendString(b, p.status)
	}
	b = appendCodes(b, "categories", p.categories)
	b = appendCodes(b, "tags", p.tags)
	if len(p.attributeOrder) > 0 {
		b = append(b, `,"attributes":{`...)
		for i, a := range p.attributeOrder {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonpb.AppendString(b, a)
			b = append(b, ':')
			if p.axes[a] {
				// The object form (API.md's line format extended): the terms and the flag.
				b = append(b, `{"terms":`...)
				b = appendList(b, p.attributes[a])
				b = append(b, `,"isVariantAxis":true}`...)
				continue
			}
			b = appendList(b, p.attributes[a])
		}
		b = append(b, '}')
	}
	if len(p.values) > 0 {
		b = append(b, `,"values":[`...)
		for i, v := range p.values {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"inputType":`...)
			b = jsonpb.AppendString(b, v.inputType)
			if v.channel != "" {
				b = append(b, `,"channel":`...)
				b = jsonpb.AppendString(b, v.channel)
			}
			if v.locale != "" {
				b = append(b, `,"locale":`...)
				b = jsonpb.AppendString(b, v.locale)
			}
			b = append(b, `,"value":`...)
			b = append(b, v.value...)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(p.assets) > 0 {
		b = append(b, `,"assets":[`...)
		for i, a := range p.assets {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"asset":`...)
			b = jsonpb.AppendString(b, a.asset)
			b = append(b, `,"assetType":`...)
			b = jsonpb.AppendString(b, a.assetType)
			if a.priority != 0 {
				b = append(b, `,"displayPriority":`...)
				b = strconv.AppendInt(b, int64(a.priority), 10)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if !p.related {
		b = p.appendPublications(b)
	}
	return append(b, '}')
}

// appendPublications appends ,"publications":[…] when p has any.
func (p *product) appendPublications(b []byte) []byte {
	if len(p.publications) == 0 {
		return b
	}
	b = append(b, `,"publications":[`...)
	for i, pub := range p.publications {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"channel":`...)
		b = jsonpb.AppendString(b, pub.channel)
		b = append(b, `,"status":`...)
		if p.restaged && pub.status == "unpublished" {
			b = jsonpb.AppendString(b, "published")
		} else {
			b = jsonpb.AppendString(b, pub.status)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendCodes appends ,"name":[codes] when there are any.
func appendCodes(b []byte, name string, codes []string) []byte {
	if len(codes) == 0 {
		return b
	}
	b = append(b, `,"`+name+`":`...)
	return appendList(b, codes)
}

func appendList(b []byte, codes []string) []byte {
	b = append(b, '[')
	for i, c := range codes {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonpb.AppendString(b, c)
	}
	return append(b, ']')
}

// valueColumn is the CSV column of a value: value:<inputType>[@<locale>][#<channel>].
func valueColumn(inputType string, locale, channel *string) string {
	c := CSVColumn{Kind: ColValue, Code: inputType}
	if locale != nil {
		c.Locale = *locale
	}
	if channel != nil {
		c.Channel = *channel
	}
	return c.String()
}

// productsCSV writes the selected products as CSV (API.md "CSV (products)"): the header is the
// union of the columns the products use (read first, set-based), then one row per product in
// the order of the NDJSON export. Cells are in the CSV import's text forms (csvvalue.go: lists of
// codes joined by "|", values by FormatCSVValue for their input type's data type), so a CSV export
// imported back changes nothing.
func (r *reader) productsCSV(out *output) error {
	in := " IN (SELECT uuid FROM products WHERE " + r.where + ")"
	var attrs, values, pubs []string
	dataTypes := map[string]string{} // input type code → data type
	for _, q := range []struct {
		sql  string
		into *[]string
		col  func(rows pgx.Rows) (string, error)
	}{
		{`SELECT DISTINCT a.code FROM product_attributes pa JOIN attributes a ON a.tenant_id = pa.tenant_id AND a.uuid = pa.attribute_uuid
			WHERE pa.tenant_id = $1 AND pa.product_uuid` + in, &attrs, func(rows pgx.Rows) (string, error) {
			var c string
			err := rows.Scan(&c)
			return CSVColumn{Kind: ColAttribute, Code: c}.String(), err
		}},
		{`SELECT DISTINCT it.code, it.data_type, lo.code, ch.code FROM product_input_values v
			JOIN input_types it ON it.tenant_id = v.tenant_id AND it.uuid = v.input_type_uuid
			LEFT JOIN channels ch ON ch.tenant_id = v.tenant_id AND ch.uuid = v.channel_uuid
			LEFT JOIN locales lo ON lo.tenant_id = v.tenant_id AND lo.uuid = v.locale_uuid
			WHERE v.tenant_id = $1 AND v.product_uuid` + in, &values, func(rows pgx.Rows) (string, error) {
			var it, dt string
			var lo, ch *string
			err := rows.Scan(&it, &dt, &lo, &ch)
			dataTypes[it] = dt
			return valueColumn(it, lo, ch), err
		}},
		{`SELECT DISTINCT ch.code FROM product_publications pp JOIN channels ch ON ch.tenant_id = pp.tenant_id AND ch.uuid = pp.channel_uuid
			WHERE pp.tenant_id = $1 AND pp.product_uuid` + in, &pubs, func(rows pgx.Rows) (string, error) {
			var c string
			err := rows.Scan(&c)
			return CSVColumn{Kind: ColPublication, Code: c}.String(), err
		}},
	} {
		rows, err := r.tx.Query(r.ctx, q.sql, r.args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			c, err := q.col(rows)
			if err != nil {
				rows.Close()
				return err
			}
			*q.into = append(*q.into, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		sort.Strings(*q.into)
	}
	header := append(append([]string{}, plainColumns...), attrs...)
	header = append(append(header, values...), pubs...)
	at := make(map[string]int, len(header))
	for i, h := range header {
		at[h] = i
	}
	cw := csv.NewWriter(out.w)
	if err := cw.Write(header); err != nil {
		return err
	}
	row := make([]string, len(header))
	opt := func(s *string) string {
		if s == nil {
			return ""
		}
		return EscapeCSVCell(*s)
	}
	err := r.batches("", false, func(batch []*product) error {
		for _, p := range batch {
			for i := range row {
				row[i] = ""
			}
			row[0], row[1], row[2], row[3], row[4], row[5] = opt(&p.code), p.kind, opt(p.family), opt(p.parent), opt(p.brand), p.status
			var err error
			if row[6], err = JoinCSVCodes(p.categories); err != nil {
				return fmt.Errorf("product %s: %w", p.code, err)
			}
			if row[7], err = JoinCSVCodes(p.tags); err != nil {
				return fmt.Errorf("product %s: %w", p.code, err)
			}
			for a, terms := range p.attributes {
				// An attribute without terms is an empty cell (which an import reads as "leave alone").
				if row[at[CSVColumn{Kind: ColAttribute, Code: a}.String()]], err = JoinCSVCodes(terms); err != nil {
					return fmt.Errorf("product %s: %w", p.code, err)
				}
			}
			for _, v := range p.values {
				cell, err := FormatCSVValue(dataTypes[v.inputType], v.value)
				if err != nil {
					return fmt.Errorf("product %s, %s: %w", p.code, valueColumn(v.inputType, &v.locale, &v.channel), err)
				}
				row[at[valueColumn(v.inputType, &v.locale, &v.channel)]] = cell
			}
			for _, pub := range p.publications {
				row[at[CSVColumn{Kind: ColPublication, Code: pub.channel}.String()]] = pub.status
			}
			if err := cw.Write(row); err != nil {
				return err
			}
			out.items++
		}
		cw.Flush()
		out.tick()
		return cw.Error()
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}
