package events

import (
	"sort"
	"strings"

	"github.com/google/uuid"
)

// Type is one entry of the platform's event catalog.
type Type struct {
	Name        string
	Description string
}

// The catalog is the one source of truth for event type names: it seeds the webhook_event_types
// table (SeedCatalog) and Record refuses any name not in it, so a test that exercises an operation
// fails if the operation emits an unlisted event. It lists every family of the specification's
// resource table, including families whose operations are not built yet, so integrators can
// subscribe ahead of time. Names follow DESIGN.md: <resource>.<verb>, sub-resources
// <parent>.<child>.<verb> with snake_case children; payloads carry the REST path parameters.
var catalog = build()

// family describes the events of one resource: its event name prefix, a human noun for
// descriptions, the payload keys, and its verbs.
type family struct {
	prefix, noun, keys string
	verbs              []string
}

var (
	crud      = []string{"created", "updated", "deleted"}
	links     = []string{"linked", "updated", "unlinked"}
	publishLC = []string{"published", "unpublished", "removed", "restored"}
	activeLC  = []string{"activated", "deactivated", "removed", "restored"}
)

var families = []family{
	{"locale", "locale", "localeUuid", crud},
	{"attribute", "attribute", "attributeUuid", append(crud, publishLC...)},
	{"attribute.content", "attribute content", "attributeUuid, attributeContentUuid", crud},
	{"attribute.term", "attribute term", "attributeUuid, termUuid", crud},
	{"attribute.term.content", "attribute term content", "attributeUuid, termUuid, termContentUuid", crud},
	{"brand", "brand", "brandUuid", crud},
	{"brand.content", "brand content", "brandUuid, brandContentUuid", crud},
	{"tag", "tag", "tagUuid", crud},
	{"tag.content", "tag content", "tagUuid, tagContentUuid", crud},
	{"category", "category", "categoryUuid", append(crud, activeLC...)},
	{"category.content", "category content", "categoryUuid, categoryContentUuid", crud},
	{"collection", "collection", "collectionUuid", append(crud, activeLC...)},
	{"channel", "channel", "channelUuid", crud},
	{"channel.input_type", "channel input type", "channelUuid, channelInputTypeUuid", links},
	{"type_group", "type group", "typeGroupUuid", crud},
	{"input_type", "input type", "inputTypeUuid", crud},
	{"product_asset_type", "product asset type", "productAssetTypeUuid", crud},
	{"product_relation_type", "product relation type", "productRelationTypeUuid", crud},
	{"family", "family", "familyUuid", crud},
	{"family.asset_type", "family asset type", "familyUuid, familyAssetTypeUuid", links},
	{"family.attribute", "family attribute", "familyUuid, familyAttributeUuid", links},
	{"family.category", "family category", "familyUuid, familyCategoryUuid", links},
	{"family.input_type", "family input type", "familyUuid, familyInputTypeUuid", links},
	{"family.relation_type", "family relation type", "familyUuid, familyRelationTypeUuid", links},
	{"product", "product", "productUuid", append(append(crud, activeLC...), "published", "unpublished")},
	{"product.attribute", "product attribute", "productUuid, productAttributeUuid", links},
	{"product.attribute_term", "product term", "productUuid, productAttributeUuid, productTermUuid", []string{"linked", "unlinked"}},
	{"product.category", "product category", "productUuid, productCategoryUuid", []string{"linked", "unlinked"}},
	{"product.tag", "product tag", "productUuid, productTagUuid", []string{"linked", "unlinked"}},
	{"product.asset", "product asset", "productUuid, productAssetUuid", links},
	{"product.relation", "product relation", "productUuid, productRelationUuid", []string{"linked", "unlinked"}},
	{"product.input_value", "product input value", "productUuid, inputValueUuid", crud},
	{"product.publication", "product channel publication", "productUuid, publicationUuid", crud},
	{"product.publication.schedule", "publication schedule", "productUuid, publicationUuid, scheduleUuid", append(crud, "cancelled", "executed", "failed")},
	{"asset", "asset", "assetUuid", crud},
	{"asset.file", "asset file", "assetUuid, fileUuid", []string{"created", "uploaded", "failed", "deleted"}},
	{"asset.collection", "asset collection", "assetUuid, assetCollectionUuid", []string{"linked", "unlinked"}},
	{"import", "import", "importUuid", []string{"created", "completed", "failed", "cancelled"}},
	{"export", "export", "exportUuid", []string{"completed", "failed"}},
}

// described are the events whose verbs mean more than the shared texts say, by name: their whole
// description (the asset files' of API.md "Assets", a product's publication moves, the jobs' of
// "Import and export (jobs)").
var described = map[string]string{
	"asset.file.created":  "An asset file upload was initiated: the file is pending until its bytes are transferred and the upload completed. Payload: assetUuid, fileUuid.",
	"asset.file.uploaded": "An asset file is uploaded: an upload was completed and verified, or catalogd made a rendition (thumbnail, web_optimized) of an image original. Payload: assetUuid, fileUuid.",
	"asset.file.failed":   "An asset file upload failed: complete-upload found no object or one of another size or SHA-256, or the upload expired; the object is removed. Payload: assetUuid, fileUuid.",
	"asset.file.deleted":  "An asset file was deleted permanently with its stored object (deleting an original deletes its renditions, one event each). Payload: assetUuid, fileUuid.",
	"product.published":   "A product was published on a channel (its publication moved). Payload: productUuid, publicationUuid.",
	"product.unpublished": "A product was unpublished on a channel (its publication moved). Payload: productUuid, publicationUuid.",
	"import.created":      "An import was created (queued, or awaiting the upload of its file). Payload: importUuid.",
	"import.completed":    "An import read its whole file; its counts say how many lines were created, updated, unchanged or failed (GET /v1/imports/{importUuid}/lines lists the failed ones). Payload: importUuid.",
	"import.failed":       "An import's file could not be read (its failureReason says why): an upload that failed its check, a file that is not NDJSON or CSV. Payload: importUuid.",
	"import.cancelled":    "An import was cancelled; the lines applied before stay applied. Payload: importUuid.",
	"export.completed":    "An export's file is written: its get has a downloadUrl. Payload: exportUuid.",
	"export.failed":       "An export could not be written (its failureReason says why). Payload: exportUuid.",
}

var verbText = map[string]string{
	"created": "was created", "updated": "was updated", "deleted": "was deleted permanently",
	"published": "was published", "unpublished": "was unpublished", "removed": "was removed (soft delete)",
	"restored": "was restored", "activated": "was activated", "deactivated": "was deactivated",
	"linked": "was linked", "unlinked": "was unlinked",
	"cancelled": "was cancelled", "executed": "was executed by the scheduler", "failed": "failed when the scheduler ran it",
}

func build() map[string]Type {
	out := map[string]Type{}
	for _, f := range families {
		article := "A "
		if strings.ContainsAny(f.noun[:1], "aeiou") {
			article = "An "
		}
		for _, v := range f.verbs {
			name := f.prefix + "." + v
			desc, ok := described[name]
			if !ok {
				desc = article + f.noun + " " + verbText[v] + ". Payload: " + f.keys + "."
			}
			out[name] = Type{Name: name, Description: desc}
		}
	}
	return out
}

// keysOf are the payload keys of each resource's events by prefix, in path order: the parents'
// first, the resource's own last.
var keysOf = func() map[string][]string {
	out := make(map[string][]string, len(families))
	for _, f := range families {
		out[f.prefix] = strings.Split(f.keys, ", ")
	}
	return out
}()

// movedOn are the events named after a resource's parent whose change is the resource's: a
// product's publication moves (product.published) change its publication.
var movedOn = map[string]string{"product.published": "product.publication", "product.unpublished": "product.publication"}

// noHistory are the resources whose events record no history entry: the import and export jobs,
// which are not catalog data (their own records say who ran them, when and with what outcome).
var noHistory = map[string]bool{"import": true, "export": true}

// HistoryTypes are the resource types of history entries (API.md "History"), sorted.
func HistoryTypes() []string {
	out := make([]string, 0, len(families))
	for _, f := range families {
		if !noHistory[f.prefix] {
			out = append(out, f.prefix)
		}
	}
	sort.Strings(out)
	return out
}

// Catalog returns every event type, sorted by name.
func Catalog() []Type {
	out := make([]Type, 0, len(catalog))
	for _, t := range catalog {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns every event type's name, sorted.
func Names() []string {
	out := make([]string, 0, len(catalog))
	for _, t := range Catalog() {
		out = append(out, t.Name)
	}
	return out
}

// Known reports whether name is in the catalog.
func Known(name string) bool { _, ok := catalog[name]; return ok }

// typeNamespace derives stable event type uuids from their names (uuid v5), so every deployment
// agrees on them.
var typeNamespace = uuid.MustParse("6f1d2c3e-5b7a-4c1e-9d2f-0a8b7c6d5e4f")

// TypeUUID is the stable uuid of an event type.
func TypeUUID(name string) uuid.UUID { return uuid.NewSHA1(typeNamespace, []byte(name)) }
