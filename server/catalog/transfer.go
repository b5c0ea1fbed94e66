package catalog

import (
	"strings"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/transfer"
)

// TransferKinds are the line types of imports (API.md "Import and export (jobs)"): each a family
// keyed by code, its table, its write path and its references by code. Children that travel
// inside their parent's line (contents, terms, links, values, assets, relations, publications)
// are not declared yet: a line that gives them fails with the field named.
func TransferKinds() []*transfer.Kind {
	ref := func(field, kind string) transfer.Ref { return transfer.Ref{Field: field, Kind: kind} }
	return []*transfer.Kind{
		{Type: "locale", Table: "locales", Ops: locales.Ops()},
		{Type: "attribute", Table: "attributes", Ops: attributes.Ops(), IDKey: "attributeUuid",
			Maps: []transfer.Map{contentMap(kindAttribute, attributeContents.Ops())},
			Lists: []transfer.List{{Line: "terms", Kind: "term", Ops: terms.Ops(), IDKey: "termUuid",
				Members: "SELECT code, uuid FROM attribute_terms WHERE tenant_id = $1 AND attribute_uuid = $2",
				Maps:    []transfer.Map{termContentMap}}}},
		{Type: "category", Table: "categories", Ops: categories.Ops(), IDKey: "categoryUuid",
			Refs: map[string]transfer.Ref{"parent": ref("parentUuid", "category")}, Maps: []transfer.Map{contentMap(kindCategory, categoryContents.Ops())}},
		{Type: "collection", Table: "collections", Ops: collections.Ops(), Refs: map[string]transfer.Ref{"parent": ref("parentUuid", "collection")}},
		{Type: "brand", Table: "brands", Ops: brands.Ops(), IDKey: "brandUuid", Maps: []transfer.Map{contentMap(kindBrand, brands.contents.Ops())}},
		{Type: "tag", Table: "tags", Ops: tags.Ops(), IDKey: "tagUuid", Maps: []transfer.Map{contentMap(kindTag, tags.contents.Ops())}},
		{Type: "typeGroup", Table: "type_groups", Ops: typeGroups.Ops()},
		{Type: "inputType", Table: "input_types", Ops: inputTypes.Ops(), Refs: map[string]transfer.Ref{"typeGroup": ref("typeGroupUuid", "typeGroup")}},
		{Type: "channel", Table: "channels", Ops: channels.Ops(), IDKey: "channelUuid",
			Refs: map[string]transfer.Ref{"locales": {Field: "localeUuids", Kind: "locale", List: true}},
			Merges: []transfer.Merge{linkList("inputTypes", "inputType", "inputTypeUuid", channelInputTypes.Ops(),
				"SELECT input_type_uuid::text, uuid FROM channel_input_types WHERE tenant_id = $1 AND channel_uuid = $2")}},
		{Type: "productAssetType", Table: "product_asset_types", Ops: productAssetTypes.Ops()},
		{Type: "productRelationType", Table: "product_relation_types", Ops: productRelationTypes.Ops()},
		{Type: "family", Table: "families", Ops: families.Ops(), IDKey: "familyUuid", Merges: []transfer.Merge{
			familyLinks("attributes", "attribute", "attributeUuid", familyAttributes.Ops(), "attribute"),
			familyLinks("inputTypes", "inputType", "inputTypeUuid", familyInputTypes.Ops(), "input_type"),
			familyLinks("categories", "category", "categoryUuid", familyCategories.Ops(), "category"),
			familyLinks("assetTypes", "productAssetType", "productAssetTypeUuid", familyAssetTypes.Ops(), "asset_type"),
			familyLinks("relationTypes", "productRelationType", "productRelationTypeUuid", familyRelationTypes.Ops(), "relation_type"),
		}},
		{Type: "asset", Table: "assets", Ops: assets.Ops()},
		{Type: "product", Table: "products", Ops: products.Ops(), IDKey: "productUuid",
			Refs: map[string]transfer.Ref{"family": ref("familyUuid", "family"), "parent": ref("parentUuid", "product"), "brand": ref("brandUuid", "brand")},
			Sets: []transfer.Set{productLinkSet("categories", "category", linkCategory, productCategories.Ops()), productLinkSet("tags", "tag", linkTag, productTags.Ops())},
			Maps: []transfer.Map{{Line: "attributes", Kind: "attribute", Field: "attributeUuid", Ops: productAttributes.Ops(), Exact: true,
				IDKey: "productAttributeUuid", SetIn: "terms",
				Members: "SELECT attribute_uuid, uuid FROM product_attributes WHERE tenant_id = $1 AND product_uuid = $2",
				Set: &transfer.Set{Kind: "term", Field: "termUuid", Ops: productTerms.Ops(),
					Members: "SELECT term_uuid, uuid FROM product_terms WHERE tenant_id = $1 AND product_attribute_uuid = $2",
					Lookup:  "SELECT uuid FROM attribute_terms WHERE tenant_id = $1 AND attribute_uuid = $2 AND code = $3"}}},
			Merges: []transfer.Merge{{Line: "values", Null: "value", Ops: productInputValues.Ops(),
				Keys:     map[string]transfer.Ref{"inputType": ref("inputTypeUuid", "inputType"), "channel": ref("channelUuid", "channel"), "locale": ref("localeUuid", "locale")},
				KeyOrder: []string{"inputType", "channel", "locale"},
				Members: "SELECT concat_ws('/', input_type_uuid, coalesce(channel_uuid::text, ''), coalesce(locale_uuid::text, '')), uuid " +
					"FROM product_input_values WHERE tenant_id = $1 AND product_uuid = $2"},
				productAssetList, relationList, publicationList}},
	}
}

// TransferGrowing are the tables product lines grow: an import analyzes them as it grows
// (transfer.Jobs.Analyze).
var TransferGrowing = []string{"products", "product_links", "product_attributes", "product_terms", "product_input_values",
	"product_assets", "product_publications", "product_relations"}

// productLinkSet is a product line's set of category or tag codes (product_links of kind).
func productLinkSet(line, kind, linkKind string, ops crud.Ops) transfer.Set {
	return transfer.Set{Line: line, Kind: kind, Field: kind + "Uuid", Ops: ops,
		Members: "SELECT target_uuid, uuid FROM product_links WHERE tenant_id = $1 AND product_uuid = $2 AND kind = '" + linkKind + "'"}
}

// contentMap is a line's "contents": its localized contents keyed by locale code.
func contentMap(parentKind string, ops crud.Ops) transfer.Map {
	return transfer.Map{Line: "contents", Kind: "locale", Field: "localeUuid", Ops: ops,
		Members: "SELECT locale_uuid, uuid FROM contents WHERE tenant_id = $1 AND parent_kind = '" + parentKind + "' AND parent_uuid = $2"}
}

// termContentMap is a term's "contents" inside its attribute's line; the term content family is
// the one of the term's attribute (its messages carry attributeUuid).
var termContentMap = func() transfer.Map {
	m := contentMap(kindTerm, nil)
	m.OpsOf = func(path []uuid.UUID) crud.Ops { return termContents(path[0]).Ops() }
	return m
}()

// linkList is a line's array of links to other resources, each an object naming its target by
// code under the target's line type ("inputType") with the link's own fields: the array is the
// whole set of links (transfer.Merge, Exact).
func linkList(line, kind, field string, ops crud.Ops, members string) transfer.Merge {
	return transfer.Merge{Line: line, Ops: ops, Exact: true, Members: members, KeyOrder: []string{kind},
		Keys: map[string]transfer.Ref{kind: {Field: field, Kind: kind}}}
}

// familyLinks is a family line's links of one kind (family_links), e.g. "attributes":
// [{"attribute":"color","requirementLevel":"required"}]; a product asset or relation type is
// named "assetType" or "relationType" in the line.
func familyLinks(line, kind, field string, ops crud.Ops, linkKind string) transfer.Merge {
	m := linkList(line, kind, field, ops,
		"SELECT target_uuid::text, uuid FROM family_links WHERE tenant_id = $1 AND family_uuid = $2 AND kind = '"+linkKind+"'")
	if name := strings.TrimPrefix(strings.TrimPrefix(kind, "product"), "Product"); name != kind {
		short := strings.ToLower(name[:1]) + name[1:]
		m.Keys = map[string]transfer.Ref{short: m.Keys[kind]}
		m.KeyOrder = []string{short}
	}
	return m
}

// publicationList is a product line's "publications": [{"channel":"web","status":"published"}],
// exactly the product's publications, each moved to its status through the publication lifecycle
// (publish is gated by readiness: REQUIREMENTS_NOT_MET fails the line); a status null deletes one
// (for CSV rows, which merge: Importer.Merging).
var publicationList = func() transfer.Merge {
	m := linkList("publications", "channel", "channelUuid", productPublications.Ops(),
		"SELECT channel_uuid::text, uuid FROM product_publications WHERE tenant_id = $1 AND product_uuid = $2")
	m.Moves = publicationMoves.Ops()
	m.Null = "status" // {"channel":"web","status":null} deletes the publication
	return m
}()

// productAssetList is a product line's "assets": [{"asset":"boot-front","assetType":"gallery",
// "displayPriority":0}], exactly the product's assets (keyed by asset).
var productAssetList = func() transfer.Merge {
	m := linkList("assets", "asset", "assetUuid", productAssets.Ops(),
		"SELECT asset_uuid::text, uuid FROM product_assets WHERE tenant_id = $1 AND product_uuid = $2")
	m.Refs = map[string]transfer.Ref{"assetType": {Field: "productAssetTypeUuid", Kind: "productAssetType"}}
	return m
}()

// relationList is a product line's "relations": [{"relationType":"cross_sell","target":"SOCK-1"}],
// exactly the product's relations (keyed by type and target; a two_way type's inverse on the
// target is the relation family's own doing).
var relationList = transfer.Merge{Line: "relations", Ops: productRelations.Ops(), Exact: true,
	Keys: map[string]transfer.Ref{
		"relationType": {Field: "productRelationTypeUuid", Kind: "productRelationType"},
		"target":       {Field: "targetProductUuid", Kind: "product"}},
	KeyOrder: []string{"relationType", "target"},
	Members: "SELECT concat_ws('/', product_relation_type_uuid, target_product_uuid), uuid " +
		"FROM product_relations WHERE tenant_id = $1 AND product_uuid = $2"}
