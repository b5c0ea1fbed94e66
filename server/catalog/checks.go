package catalog

import (
	"maps"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/server/fields"
)

// Checks are the families' own checks of their create and update bodies, beyond the request rules
// declared in proto (crud.Family.Checks): the request rules run them too when a request breaks a
// rule, so that one answer lists every violation of the request.
func Checks() fields.Checks {
	out := fields.Checks{}
	for _, c := range []fields.Checks{
		locales.Checks(), attributes.Checks(), attributeContents.Checks(), terms.Checks(), termContents(uuid.Nil).Checks(),
		brands.Checks(), brands.contents.Checks(), tags.Checks(), tags.contents.Checks(),
		categories.Checks(), categoryContents.Checks(), collections.Checks(),
		channels.Checks(), channelInputTypes.Checks(), typeGroups.Checks(), inputTypes.Checks(),
		productAssetTypes.Checks(), productRelationTypes.Checks(), families.Checks(),
		familyAttributes.Checks(), familyInputTypes.Checks(), familyCategories.Checks(), familyAssetTypes.Checks(), familyRelationTypes.Checks(),
		products.Checks(), productAttributes.Checks(), productTerms.Checks(), productCategories.Checks(), productTags.Checks(),
		productAssets.Checks(), productInputValues.Checks(), productPublications.Checks(), productRelations.Checks(),
		publicationSchedules.Checks(), assets.Checks(), assetCollections.Checks(),
	} {
		maps.Copy(out, c)
	}
	return out
}
