package mock

// The demo catalog: an outdoor and apparel shop, described in docs/mock-catalog.md (keep the two
// in step). Codes of the catalog's structure (attributes, input types, categories, families,
// channels, types) are snake_case; codes of its content (products, assets, brands, tags,
// collections) are kebab-case. Enumerations are written as the REST API writes them ("required",
// "variant", "image") and mapped to the proto enums when sent.

// l10n is one text in each demo locale, in the order of locales (en-US, de-DE, fr-FR).
type l10n [3]string

type locale struct {
	code, name string
}

// The first locale is the tenant's default.
var locales = []locale{
	{"en-US", "English (United States)"},
	{"de-DE", "Deutsch (Deutschland)"},
	{"fr-FR", "Français (France)"},
}

// content is what an entity with localized contents carries: its displayName (the English name)
// and one content entry per locale (name, description when not empty).
type content struct {
	code        string
	name, descr l10n
}

type term struct {
	code string
	name l10n
}

type attribute struct {
	content
	terms []term
}

// Attributes are all published; terms and attributes have a content entry in every locale.
var attributes = []attribute{
	{content{"color", l10n{"Color", "Farbe", "Couleur"}, l10n{"Main color of the product.", "Hauptfarbe des Produkts.", "Couleur principale du produit."}}, []term{
		{"black", l10n{"Black", "Schwarz", "Noir"}},
		{"white", l10n{"White", "Weiß", "Blanc"}},
		{"red", l10n{"Red", "Rot", "Rouge"}},
		{"blue", l10n{"Blue", "Blau", "Bleu"}},
		{"green", l10n{"Green", "Grün", "Vert"}},
	}},
	{content{"size", l10n{"Size", "Größe", "Taille"}, l10n{"Clothing size.", "Konfektionsgröße.", "Taille de vêtement."}}, []term{
		{"xs", l10n{"XS", "XS", "XS"}},
		{"s", l10n{"S", "S", "S"}},
		{"m", l10n{"M", "M", "M"}},
		{"l", l10n{"L", "L", "L"}},
		{"xl", l10n{"XL", "XL", "XL"}},
	}},
	{content{"shoe_size", l10n{"Shoe size", "Schuhgröße", "Pointure"}, l10n{"European shoe size.", "Europäische Schuhgröße.", "Pointure européenne."}}, []term{
		{"40", l10n{"EU 40", "EU 40", "EU 40"}},
		{"41", l10n{"EU 41", "EU 41", "EU 41"}},
		{"42", l10n{"EU 42", "EU 42", "EU 42"}},
		{"43", l10n{"EU 43", "EU 43", "EU 43"}},
		{"44", l10n{"EU 44", "EU 44", "EU 44"}},
		{"45", l10n{"EU 45", "EU 45", "EU 45"}},
	}},
	{content{"material", l10n{"Material", "Material", "Matière"}, l10n{"Main material.", "Hauptmaterial.", "Matière principale."}}, []term{
		{"recycled_polyester", l10n{"Recycled polyester", "Recyceltes Polyester", "Polyester recyclé"}},
		{"merino_wool", l10n{"Merino wool", "Merinowolle", "Laine mérinos"}},
		{"gore_tex", l10n{"GORE-TEX", "GORE-TEX", "GORE-TEX"}},
		{"nylon", l10n{"Nylon", "Nylon", "Nylon"}},
		{"leather", l10n{"Leather", "Leder", "Cuir"}},
	}},
	{content{"gender", l10n{"Gender", "Geschlecht", "Genre"}, l10n{}}, []term{
		{"women", l10n{"Women", "Damen", "Femme"}},
		{"men", l10n{"Men", "Herren", "Homme"}},
		{"unisex", l10n{"Unisex", "Unisex", "Mixte"}},
	}},
}

// category is a node of the category tree; its position is its index among its siblings here.
type category struct {
	content
	parent string
}

// Categories are all active; parents come before their children.
var categories = []category{
	{content{"apparel", l10n{"Apparel", "Bekleidung", "Vêtements"}, l10n{"Clothing and footwear for the outdoors.", "Bekleidung und Schuhe für draußen.", "Vêtements et chaussures pour l'extérieur."}}, ""},
	{content{"shoes", l10n{"Shoes", "Schuhe", "Chaussures"}, l10n{}}, "apparel"},
	{content{"running_shoes", l10n{"Running shoes", "Laufschuhe", "Chaussures de running"}, l10n{"Road and trail running shoes.", "Lauf- und Trailschuhe.", "Chaussures de route et de trail."}}, "shoes"},
	{content{"hiking_boots", l10n{"Hiking boots", "Wanderschuhe", "Chaussures de randonnée"}, l10n{}}, "shoes"},
	{content{"jackets", l10n{"Jackets", "Jacken", "Vestes"}, l10n{}}, "apparel"},
	{content{"rain_jackets", l10n{"Rain jackets", "Regenjacken", "Vestes de pluie"}, l10n{"Waterproof, breathable shells.", "Wasserdichte, atmungsaktive Jacken.", "Vestes imperméables et respirantes."}}, "jackets"},
	{content{"t_shirts", l10n{"T-shirts", "T-Shirts", "T-shirts"}, l10n{}}, "apparel"},
	{content{"equipment", l10n{"Equipment", "Ausrüstung", "Équipement"}, l10n{}}, ""},
	{content{"backpacks", l10n{"Backpacks", "Rucksäcke", "Sacs à dos"}, l10n{}}, "equipment"},
}

var brands = []content{
	{"trailpeak", l10n{"TrailPeak", "TrailPeak", "TrailPeak"}, l10n{"Running and trail gear.", "Lauf- und Trailausrüstung.", "Équipement de course et de trail."}},
	{"alpenglow", l10n{"Alpenglow", "Alpenglühen", "Alpenglow"}, l10n{"Mountain apparel since 1972.", "Bergbekleidung seit 1972.", "Vêtements de montagne depuis 1972."}},
	{"northwind", l10n{"Northwind Outfitters", "Northwind Outfitters", "Northwind Outfitters"}, l10n{}},
}

var tags = []content{
	{"new-arrival", l10n{"New arrival", "Neuheit", "Nouveauté"}, l10n{}},
	{"bestseller", l10n{"Bestseller", "Bestseller", "Meilleure vente"}, l10n{}},
	{"sale", l10n{"Sale", "Sale", "Soldes"}, l10n{}},
	{"sustainable", l10n{"Sustainable", "Nachhaltig", "Durable"}, l10n{"Made with recycled or renewable materials.", "Aus recycelten oder nachwachsenden Materialien.", "Fabriqué à partir de matières recyclées ou renouvelables."}},
}

// typeGroup and inputType: the product data fields, typed (input types are where the catalog has
// text, number, boolean, date and money values; attributes are finite sets of terms).
type typeGroup struct {
	code, name, entityType string
}

var typeGroups = []typeGroup{
	{"marketing", "Marketing", "product"},
	{"commerce", "Commerce", "product"},
	{"technical", "Technical data", "product"},
	{"seo", "SEO", "product"},
}

type inputType struct {
	group, code, name, dataType string
	localizable                 bool
	minLength, maxLength        int32  // 0: none
	min, max                    string // "": none
}

var inputTypes = []inputType{
	{group: "marketing", code: "name", name: "Name", dataType: "text", localizable: true, minLength: 1, maxLength: 100},
	{group: "marketing", code: "description", name: "Description", dataType: "rich_text", localizable: true, maxLength: 5000},
	{group: "commerce", code: "price", name: "Price", dataType: "money", min: "0"},
	{group: "technical", code: "weight_grams", name: "Weight (g)", dataType: "integer", min: "1", max: "20000"},
	{group: "technical", code: "capacity_liters", name: "Capacity (l)", dataType: "decimal", min: "0.5", max: "120"},
	{group: "technical", code: "waterproof", name: "Waterproof", dataType: "boolean"},
	{group: "technical", code: "release_date", name: "Release date", dataType: "date"},
	{group: "seo", code: "seo_title", name: "SEO title", dataType: "text", localizable: true, maxLength: 70},
}

type assetType struct {
	code, name string
	featured   bool
}

// packshot is the only featured source: a product's featured asset is its first packshot.
var assetTypes = []assetType{
	{"packshot", "Packshot", true},
	{"lifestyle", "Lifestyle photo", false},
	{"size_chart", "Size chart", false},
}

type relationType struct {
	code, name, direction string
}

var relationTypes = []relationType{
	{"cross_sell", "Goes well with", "one_way"},
	{"similar", "Similar products", "two_way"},
}

// family is a product blueprint; each link names its target by code. max 0 means no maximum.
type family struct {
	code, name    string
	attributes    []famAttr
	inputTypes    []famInput
	categories    []famCategory
	assetTypes    []famCount
	relationTypes []famCount
}

type famAttr struct {
	attribute, level, appliesTo string
	axis                        bool
}

type famInput struct {
	inputType, level, appliesTo string
}

type famCategory struct {
	category     string
	autoPopulate bool
}

type famCount struct {
	target, level, appliesTo string
	min, max                 int32
}

var families = []family{
	{
		code: "running_shoes", name: "Running shoes",
		attributes: []famAttr{
			{"gender", "required", "parent", false},
			{"material", "recommended", "parent", false},
			{"color", "required", "variant", true},
			{"shoe_size", "required", "variant", true},
		},
		inputTypes: []famInput{
			{"name", "required", "both"},
			{"description", "required", "both"},
			{"price", "required", "both"},
			{"weight_grams", "required", "variant"},
			{"release_date", "optional", "parent"},
		},
		categories: []famCategory{{"running_shoes", true}},
		assetTypes: []famCount{
			{"packshot", "required", "both", 1, 0},
			{"lifestyle", "optional", "parent", 0, 0},
			{"size_chart", "recommended", "parent", 0, 1},
		},
		relationTypes: []famCount{{"cross_sell", "optional", "", 0, 4}},
	},
	{
		code: "outerwear", name: "Outerwear",
		attributes: []famAttr{
			{"color", "required", "both", false},
			{"material", "required", "both", false},
			{"gender", "required", "both", false},
		},
		inputTypes: []famInput{
			{"name", "required", "both"},
			{"price", "required", "both"},
			{"waterproof", "required", "both"},
			{"weight_grams", "recommended", "both"},
		},
		categories:    []famCategory{{"jackets", true}, {"rain_jackets", false}},
		assetTypes:    []famCount{{"packshot", "required", "both", 1, 5}},
		relationTypes: []famCount{{"similar", "optional", "", 0, 0}},
	},
	{
		code: "gear", name: "Bags and gear",
		attributes: []famAttr{
			{"material", "required", "both", false},
			{"color", "optional", "both", false},
		},
		inputTypes: []famInput{
			{"name", "required", "both"},
			{"price", "required", "both"},
			{"weight_grams", "required", "both"},
			{"capacity_liters", "required", "both"},
		},
		categories: []famCategory{{"backpacks", true}},
		assetTypes: []famCount{{"packshot", "required", "both", 1, 0}},
	},
}

type channelInput struct {
	inputType, level, scoping string
}

type channel struct {
	code, name string
	locales    []string
	inputTypes []channelInput
}

var channels = []channel{
	{"web", "Online shop", []string{"en-US", "de-DE", "fr-FR"}, []channelInput{
		{"name", "required", "global"},
		{"description", "required", "global"},
		{"price", "required", "global"},
		{"seo_title", "recommended", "global"},
	}},
	{"mobile", "Mobile app", []string{"en-US", "de-DE"}, []channelInput{
		{"name", "required", "global"},
		{"price", "required", "global"},
		{"description", "optional", "global"},
	}},
	// Store prices differ from the online price: only a price set for this channel counts.
	{"retail_de", "Retail stores Germany", []string{"de-DE"}, []channelInput{
		{"name", "required", "global"},
		{"price", "required", "channel"},
	}},
}

type asset struct {
	code, name, category, descr string
	metadata                    map[string]string
}

var assets = []asset{
	{"trail-runner-x-packshot", "TrailRunner X packshot", "image", "", map[string]string{"alt": "TrailRunner X in red, side view", "photographer": "Studio Nord"}},
	{"trail-runner-x-blue-packshot", "TrailRunner X blue packshot", "image", "", map[string]string{"alt": "TrailRunner X in blue, side view", "photographer": "Studio Nord"}},
	{"trail-runner-x-lifestyle", "TrailRunner X on the trail", "image", "Campaign photo, spring 2026.", map[string]string{"alt": "Runner on a mountain trail", "photographer": "Lena Berg"}},
	{"running-shoes-size-chart", "Running shoe size chart", "document", "EU, US and UK sizes with foot length in cm.", map[string]string{"pages": "1"}},
	{"alpine-shell-jacket-packshot", "Alpine Shell Jacket packshot", "image", "", map[string]string{"alt": "Alpine Shell Jacket in black, front view", "photographer": "Studio Nord"}},
	{"daypack-20-packshot", "Daypack 20 packshot", "image", "", map[string]string{"alt": "Daypack 20 in green", "photographer": "Studio Nord"}},
	{"merino-tee-packshot", "Merino Tee packshot", "image", "", map[string]string{"alt": "Merino Tee in white, folded", "photographer": "Studio Nord"}},
	{"classic-windbreaker-packshot", "Classic Windbreaker packshot", "image", "", map[string]string{"alt": "Classic Windbreaker in blue", "photographer": "Studio Nord"}},
}

type collection struct {
	code, name string
	assets     []string
}

// Collections are all active.
var collections = []collection{
	{"ss26-campaign", "Spring/Summer 2026 campaign", []string{"trail-runner-x-lifestyle", "alpine-shell-jacket-packshot"}},
}

// product is one product with everything linked to it. status is where its lifecycle ends
// (draft, active, inactive); publish names the channels it is published on, draft the channels
// where its publication stays a draft. Every product passes through active before inactive, and its
// publications are published while it is active, so an inactive product's publications end
// unpublished (deactivating a product unpublishes them).
type product struct {
	code, name, kind, family, parent, brand, status string
	attributes                                      []productAttribute
	categories, tags                                []string // categories beyond the family's autoPopulate ones
	assets                                          []productAsset
	values                                          []value
	relations                                       []relation
	publish, draft                                  []string
}

type productAttribute struct {
	attribute string
	axis      bool
	terms     []string
}

// productAsset's displayPriority is its index in the product's assets.
type productAsset struct {
	asset, assetType string
}

// value is one input value; channel and locale are codes ("" for none), v its JSON value.
type value struct {
	inputType, channel, locale string
	v                          any
}

type relation struct {
	relationType, target string
}

// localized is one value of a localizable input type per locale.
func localized(inputType string, t l10n) []value {
	out := make([]value, 0, len(locales))
	for i, l := range locales {
		if t[i] != "" {
			out = append(out, value{inputType: inputType, locale: l.code, v: t[i]})
		}
	}
	return out
}

func price(amount string) value {
	return value{inputType: "price", v: map[string]any{"amount": amount, "currency": "EUR"}}
}

func values(vs ...[]value) []value {
	var out []value
	for _, v := range vs {
		out = append(out, v...)
	}
	return out
}

// variant is a TrailRunner X variant: its axis terms, its weight, the blue ones with their own
// packshot (the others show their parent's).
func variant(color, colorName, size string, grams int) product {
	p := product{code: "trail-runner-x-" + color + "-" + size, name: "TrailRunner X " + colorName + " EU " + size,
		kind: "variant", family: "running_shoes", parent: "trail-runner-x", brand: "trailpeak", status: "active",
		attributes: []productAttribute{{"color", true, []string{color}}, {"shoe_size", true, []string{size}}},
		values:     []value{{inputType: "weight_grams", v: grams}},
		publish:    []string{"web"}}
	if color == "blue" {
		p.assets = []productAsset{{"trail-runner-x-blue-packshot", "packshot"}}
	}
	return p
}

// Products: parents before their variants.
var products = []product{
	{
		code: "trail-runner-x", name: "TrailRunner X", kind: "variant_parent", family: "running_shoes", brand: "trailpeak", status: "active",
		attributes: []productAttribute{{"gender", false, []string{"unisex"}}, {"material", false, []string{"recycled_polyester"}}},
		tags:       []string{"new-arrival", "sustainable"},
		assets: []productAsset{{"trail-runner-x-packshot", "packshot"}, {"trail-runner-x-lifestyle", "lifestyle"},
			{"running-shoes-size-chart", "size_chart"}},
		values: values(
			localized("name", l10n{"TrailRunner X running shoe", "TrailRunner X Laufschuh", "Chaussure de running TrailRunner X"}),
			localized("description", l10n{"<p>Light trail shoe with a grippy outsole.</p>", "<p>Leichter Trailschuh mit griffiger Sohle.</p>", "<p>Chaussure de trail légère à semelle adhérente.</p>"}),
			localized("seo_title", l10n{"TrailRunner X – lightweight trail running shoe", "", ""}),
			[]value{price("129.95"), {inputType: "release_date", v: "2026-03-01"}},
		),
		relations: []relation{{"cross_sell", "merino-tee"}},
		publish:   []string{"web", "mobile"},
	},
	variant("red", "Red", "42", 280),
	variant("red", "Red", "43", 290),
	variant("blue", "Blue", "42", 280),
	variant("blue", "Blue", "43", 290),
	{
		code: "alpine-shell-jacket", name: "Alpine Shell Jacket", kind: "simple", family: "outerwear", brand: "alpenglow", status: "active",
		attributes: []productAttribute{{"color", false, []string{"black"}}, {"material", false, []string{"gore_tex"}}, {"gender", false, []string{"women"}}},
		categories: []string{"rain_jackets"},
		tags:       []string{"bestseller"},
		assets:     []productAsset{{"alpine-shell-jacket-packshot", "packshot"}},
		values: values(
			localized("name", l10n{"Alpine Shell Jacket", "Alpine Shell Jacke", "Veste Alpine Shell"}),
			localized("description", l10n{"<p>Three-layer GORE-TEX shell for alpine tours.</p>", "<p>Dreilagige GORE-TEX-Jacke für Hochtouren.</p>", "<p>Veste GORE-TEX trois couches pour l'alpinisme.</p>"}),
			localized("seo_title", l10n{"Alpine Shell Jacket – women's GORE-TEX shell", "", ""}),
			[]value{price("299.00"), {inputType: "price", channel: "retail_de", v: map[string]any{"amount": "279.00", "currency": "EUR"}},
				{inputType: "waterproof", v: true}, {inputType: "weight_grams", v: 420}},
		),
		relations: []relation{{"similar", "storm-parka"}, {"cross_sell", "daypack-20"}},
		publish:   []string{"web", "retail_de"},
	},
	{
		code: "storm-parka", name: "Storm Parka", kind: "simple", family: "outerwear", brand: "alpenglow", status: "draft",
		attributes: []productAttribute{{"color", false, []string{"green"}}, {"material", false, []string{"gore_tex"}}, {"gender", false, []string{"men"}}},
		tags:       []string{"new-arrival"},
		values: values(
			localized("name", l10n{"Storm Parka", "", ""}),
			[]value{price("349.00"), {inputType: "waterproof", v: true}, {inputType: "release_date", v: "2026-10-01"}},
		),
		draft: []string{"web"},
	},
	{
		code: "daypack-20", name: "Daypack 20", kind: "simple", family: "gear", brand: "northwind", status: "active",
		attributes: []productAttribute{{"material", false, []string{"nylon"}}, {"color", false, []string{"green"}}},
		tags:       []string{"bestseller"},
		assets:     []productAsset{{"daypack-20-packshot", "packshot"}},
		values: values(
			localized("name", l10n{"Daypack 20", "Tagesrucksack 20", "Sac à dos 20"}),
			localized("description", l10n{"<p>20-litre pack for day hikes.</p>", "<p>20-Liter-Rucksack für Tagestouren.</p>", "<p>Sac de 20 litres pour la randonnée à la journée.</p>"}),
			[]value{price("89.90"), {inputType: "weight_grams", v: 610}, {inputType: "capacity_liters", v: "20"}},
		),
		publish: []string{"web", "mobile"},
	},
	{
		code: "merino-tee", name: "Merino Tee", kind: "simple", brand: "trailpeak", status: "active",
		attributes: []productAttribute{{"material", false, []string{"merino_wool"}}, {"color", false, []string{"white", "black"}},
			{"size", false, []string{"s", "m", "l"}}},
		categories: []string{"t_shirts"},
		tags:       []string{"sustainable"},
		assets:     []productAsset{{"merino-tee-packshot", "packshot"}},
		values: values(
			localized("name", l10n{"Merino Tee", "Merino-T-Shirt", "T-shirt en mérinos"}),
			localized("description", l10n{"<p>Soft merino wool T-shirt.</p>", "<p>Weiches T-Shirt aus Merinowolle.</p>", "<p>T-shirt doux en laine mérinos.</p>"}),
			[]value{price("59.00")},
		),
		draft: []string{"web"},
	},
	{
		code: "classic-windbreaker", name: "Classic Windbreaker", kind: "simple", family: "outerwear", brand: "northwind", status: "inactive",
		attributes: []productAttribute{{"color", false, []string{"blue"}}, {"material", false, []string{"nylon"}}, {"gender", false, []string{"unisex"}}},
		tags:       []string{"sale"},
		assets:     []productAsset{{"classic-windbreaker-packshot", "packshot"}},
		values: values(
			localized("name", l10n{"Classic Windbreaker", "Klassische Windjacke", "Coupe-vent classique"}),
			localized("description", l10n{"<p>Packable wind jacket.</p>", "<p>Verstaubare Windjacke.</p>", "<p>Coupe-vent compressible.</p>"}),
			[]value{price("79.00"), {inputType: "waterproof", v: false}},
		),
		publish: []string{"web"},
	},
}
