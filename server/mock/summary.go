package mock

import (
	"fmt"
	"strings"
)

// Summary counts what Seed creates in a tenant, per resource family, as the API lists them:
// ProductCategories includes the links that families' autoPopulate categories make, and
// ProductRelations the inverse relations of two_way types.
type Summary struct {
	Tenant string

	Locales, Attributes, AttributeContents, AttributeTerms, AttributeTermContents int
	Categories, CategoryContents, Brands, BrandContents, Tags, TagContents        int
	TypeGroups, InputTypes, ProductAssetTypes, ProductRelationTypes               int
	Families, FamilyAttributes, FamilyInputTypes, FamilyCategories                int
	FamilyAssetTypes, FamilyRelationTypes                                         int
	Channels, ChannelInputTypes, Assets, Collections, AssetCollections            int
	// Products counts every product, Variants those of kind variant among them.
	Products, Variants                                              int
	ProductAttributes, ProductTerms, ProductCategories, ProductTags int
	ProductAssets, ProductRelations, ProductInputValues             int
	Publications, PublishedPublications                             int
}

// String is the summary for a log line: "3 locales, 5 attributes (24 terms), …".
func (s Summary) String() string {
	parts := []string{
		fmt.Sprintf("%d locales", s.Locales),
		fmt.Sprintf("%d attributes (%d terms)", s.Attributes, s.AttributeTerms),
		fmt.Sprintf("%d categories", s.Categories),
		fmt.Sprintf("%d brands", s.Brands),
		fmt.Sprintf("%d tags", s.Tags),
		fmt.Sprintf("%d input types", s.InputTypes),
		fmt.Sprintf("%d families", s.Families),
		fmt.Sprintf("%d channels", s.Channels),
		fmt.Sprintf("%d assets", s.Assets),
		fmt.Sprintf("%d collections", s.Collections),
		fmt.Sprintf("%d products (%d variants)", s.Products, s.Variants),
		fmt.Sprintf("%d input values", s.ProductInputValues),
		fmt.Sprintf("%d publications (%d published)", s.Publications, s.PublishedPublications),
	}
	return strings.Join(parts, ", ")
}

// summarize counts the demo catalog of catalog.go.
func summarize() Summary {
	n := len(locales)
	s := Summary{Locales: n, Attributes: len(attributes), AttributeContents: n * len(attributes),
		Categories: len(categories), CategoryContents: n * len(categories), Brands: len(brands), BrandContents: n * len(brands),
		Tags: len(tags), TagContents: n * len(tags), TypeGroups: len(typeGroups), InputTypes: len(inputTypes),
		ProductAssetTypes: len(assetTypes), ProductRelationTypes: len(relationTypes), Families: len(families),
		Channels: len(channels), Assets: len(assets), Collections: len(collections), Products: len(products)}
	for _, a := range attributes {
		s.AttributeTerms += len(a.terms)
	}
	s.AttributeTermContents = n * s.AttributeTerms
	auto := map[string]int{}
	for _, f := range families {
		s.FamilyAttributes += len(f.attributes)
		s.FamilyInputTypes += len(f.inputTypes)
		s.FamilyCategories += len(f.categories)
		s.FamilyAssetTypes += len(f.assetTypes)
		s.FamilyRelationTypes += len(f.relationTypes)
		for _, c := range f.categories {
			if c.autoPopulate {
				auto[f.code]++
			}
		}
	}
	for _, c := range channels {
		s.ChannelInputTypes += len(c.inputTypes)
	}
	for _, c := range collections {
		s.AssetCollections += len(c.assets)
	}
	twoWay := map[string]bool{}
	for _, t := range relationTypes {
		twoWay[t.code] = t.direction == "two_way"
	}
	for _, p := range products {
		if p.kind == "variant" {
			s.Variants++
		}
		s.ProductAttributes += len(p.attributes)
		for _, a := range p.attributes {
			s.ProductTerms += len(a.terms)
		}
		s.ProductCategories += len(p.categories) + auto[p.family]
		s.ProductTags += len(p.tags)
		s.ProductAssets += len(p.assets)
		for _, r := range p.relations {
			s.ProductRelations++
			if twoWay[r.relationType] {
				s.ProductRelations++
			}
		}
		s.ProductInputValues += len(p.values)
		s.Publications += len(p.publish) + len(p.draft)
		if p.status != "inactive" {
			s.PublishedPublications += len(p.publish)
		}
	}
	return s
}
