package crud

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/store"
)

// A reference is a foreign key that keeps its target from being deleted (ON DELETE RESTRICT or NO
// ACTION): the rows of Table whose Columns hold the target's key. Kind is what a client is told
// those rows are: 409 IN_USE lists the kinds that still refer to the target in meta.referencedBy,
// never a constraint or table name.
type reference struct {
	Constraint string
	Table      string   // the referencing table
	Columns    []string // its key columns, in the foreign key's order: tenant_id and/or the uuid column
	Target     string   // the referenced table
	Kind       string
}

// references is the one table of every restricting foreign key of the schema (checked against the
// database by TestReferencesCoverTheSchema in test/product_attributes: a migration that adds one
// fails it until its kind is named here). Cascading foreign keys never refuse a delete: not listed.
var references = []reference{
	{"product_assets_asset_fkey", "product_assets", []string{"tenant_id", "asset_uuid"}, "assets", "product asset"},
	{"product_terms_term_fkey", "product_terms", []string{"tenant_id", "term_uuid"}, "attribute_terms", "product term"},
	{"family_links_attribute_fkey", "family_links", []string{"tenant_id", "attribute_uuid"}, "attributes", "family attribute"},
	{"product_attributes_attribute_fkey", "product_attributes", []string{"tenant_id", "attribute_uuid"}, "attributes", "product attribute"},
	{"products_brand_fkey", "products", []string{"tenant_id", "brand_uuid"}, "brands", "product"},
	{"categories_parent_fkey", "categories", []string{"tenant_id", "parent_uuid"}, "categories", "child category"},
	{"family_links_category_fkey", "family_links", []string{"tenant_id", "category_uuid"}, "categories", "family category"},
	{"product_links_category_fkey", "product_links", []string{"tenant_id", "category_uuid"}, "categories", "product category"},
	{"product_input_values_channel_fkey", "product_input_values", []string{"tenant_id", "channel_uuid"}, "channels", "product input value"},
	{"product_publications_channel_fkey", "product_publications", []string{"tenant_id", "channel_uuid"}, "channels", "product publication"},
	{"asset_collections_collection_fkey", "asset_collections", []string{"tenant_id", "collection_uuid"}, "collections", "asset collection"},
	{"collections_parent_fkey", "collections", []string{"tenant_id", "parent_uuid"}, "collections", "child collection"},
	{"products_family_fkey", "products", []string{"tenant_id", "family_uuid"}, "families", "product"},
	{"channel_input_types_input_type_fkey", "channel_input_types", []string{"tenant_id", "input_type_uuid"}, "input_types", "channel input type"},
	{"family_links_input_type_fkey", "family_links", []string{"tenant_id", "input_type_uuid"}, "input_types", "family input type"},
	{"product_input_values_input_type_fkey", "product_input_values", []string{"tenant_id", "input_type_uuid"}, "input_types", "product input value"},
	{"channel_locales_locale_fkey", "channel_locales", []string{"tenant_id", "locale_uuid"}, "locales", "channel"},
	{"contents_tenant_id_locale_uuid_fkey", "contents", []string{"tenant_id", "locale_uuid"}, "locales", "content"},
	{"product_input_values_locale_fkey", "product_input_values", []string{"tenant_id", "locale_uuid"}, "locales", "product input value"},
	{"family_links_asset_type_fkey", "family_links", []string{"tenant_id", "product_asset_type_uuid"}, "product_asset_types", "family asset type"},
	{"product_assets_product_asset_type_fkey", "product_assets", []string{"tenant_id", "product_asset_type_uuid"}, "product_asset_types", "product asset"},
	{"family_links_relation_type_fkey", "family_links", []string{"tenant_id", "product_relation_type_uuid"}, "product_relation_types", "family relation type"},
	{"product_relations_product_relation_type_fkey", "product_relations", []string{"tenant_id", "product_relation_type_uuid"}, "product_relation_types", "product relation"},
	{"products_parent_fkey", "products", []string{"tenant_id", "parent_uuid"}, "products", "variant"},
	{"product_links_tag_fkey", "product_links", []string{"tenant_id", "tag_uuid"}, "tags", "product tag"},
	{"input_types_type_group_fkey", "input_types", []string{"tenant_id", "type_group_uuid"}, "type_groups", "input type"},
	{"webhook_subscription_event_types_uuid_fkey", "webhook_subscription_event_types", []string{"uuid"}, "webhook_event_types", "webhook subscription"},
}

// Reference is one entry of the table, for the schema test.
type Reference struct {
	Constraint, Table, Target string
	Columns                   []string
}

// References lists the table, for the schema test.
func References() []Reference {
	out := make([]Reference, len(references))
	for i, r := range references {
		out[i] = Reference{Constraint: r.Constraint, Table: r.Table, Target: r.Target, Columns: append([]string(nil), r.Columns...)}
	}
	return out
}

func referenceNamed(constraint string) (reference, bool) {
	for _, r := range references {
		if r.Constraint == constraint {
			return r, true
		}
	}
	return reference{}, false
}

// ReferenceKind is the kind of resource whose rows refer through constraint ("" when the table
// does not know it), for services that refuse a change for the same reason (a type group holding
// input types cannot change its entity type).
func ReferenceKind(constraint string) string {
	r, _ := referenceNamed(constraint)
	return r.Kind
}

// inUse is the 409 IN_USE of a delete of kind id that the foreign key constraint refused: meta
// referencedBy lists, sorted, every kind of resource that still refers to it, read after the
// refused transaction (the refusing kind is always among them, even if its rows went away since).
func inUse(ctx context.Context, d *store.DB, tenant, kind, raw string, id uuid.UUID, constraint string) error {
	kinds := map[string]bool{}
	if r, ok := referenceNamed(constraint); ok {
		kinds[r.Kind] = true
		found, err := referringKinds(ctx, d, r.Target, tenant, id)
		if err != nil {
			return err
		}
		for _, k := range found {
			kinds[k] = true
		}
	}
	by := make([]string, 0, len(kinds))
	for k := range kinds {
		by = append(by, k)
	}
	sort.Strings(by)
	detail := fmt.Sprintf("%s %s is still referenced and cannot be deleted", kind, raw)
	if len(by) > 0 {
		detail = fmt.Sprintf("%s %s is still referenced by %s and cannot be deleted", kind, raw, describeKinds(by))
	}
	return apierr.New(apierr.InUse, "%s", detail).WithMeta("referencedBy", by)
}

// referringKinds lists the kinds of the rows that refer to the row id of target, with one query:
// an EXISTS per restricting foreign key of target (each an index lookup).
func referringKinds(ctx context.Context, d *store.DB, target, tenant string, id uuid.UUID) ([]string, error) {
	var parts, kinds []string
	var args []any
	for _, r := range references {
		if r.Target != target {
			continue
		}
		conds := make([]string, len(r.Columns))
		for i, c := range r.Columns {
			if c == "tenant_id" {
				args = append(args, tenant)
			} else {
				args = append(args, id)
			}
			conds[i] = fmt.Sprintf("%s = $%d", c, len(args))
		}
		// Table and column names are this file's constants, never input.
		parts = append(parts, fmt.Sprintf("SELECT %d AS k WHERE EXISTS (SELECT 1 FROM %s WHERE %s)",
			len(kinds), r.Table, strings.Join(conds, " AND ")))
		kinds = append(kinds, r.Kind)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	rows, err := d.Pool.Query(ctx, strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k int
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out = append(out, kinds[k])
	}
	return out, rows.Err()
}

// describeKinds writes kinds for a message: "a", "a and b", "a, b and c".
func describeKinds(kinds []string) string {
	if len(kinds) == 1 {
		return kinds[0]
	}
	return strings.Join(kinds[:len(kinds)-1], ", ") + " and " + kinds[len(kinds)-1]
}
