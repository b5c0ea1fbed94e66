package transfer

// Lines that change nothing, found without applying them (issue 26: a file imported again). A
// product line of a batch applied together is compared, before anything runs, with its product
// as stored, read for the whole batch at once the way an export reads products (byCode: a few
// statements for all of them); a line that certainly changes nothing is answered unchanged and
// not applied at all. Applying it would find the same (the families' own "a write that changes
// nothing changes nothing"), through a few statements per child; skipping it is only faster.
//
// "Certainly" is deliberately narrow: every field the line gives must be one the comparison knows
// and equal to what is stored in its plainest form (the same codes; a value of the same JSON, a
// string compared as its text); anything else, a null, a repeated key, an unknown field, a number
// written another way, is left to the line's application, which decides. So the skip answers
// what the application would: never "unchanged" for a line that writes, and a line it is unsure
// of runs as before.
//
// A line compared with the batch's stored state is a line applied first. Lines that name none of
// each other's codes can be applied in any order (wide.go), so that holds for a line whose batch
// has no earlier line touching it; and an earlier line touching it that is skipped too changes
// nothing it could see. A line is skipped only when every earlier line of the batch it touches
// (dependencies) is skipped as well.

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/reqctx"
)

// productsTable is the table of the line type whose lines are compared (the product reader's).
const productsTable = "products"

// linesSkipped counts the lines found unchanged without being applied.
var linesSkipped atomic.Int64

// LinesSkipped is how many import lines were found unchanged without being applied (tests).
func LinesSkipped() int64 { return linesSkipped.Load() }

// unchanged reports, for each of the lines ls of a batch, the uuid of its resource when the line
// certainly changes nothing (uuid.Nil otherwise). deps are the lines' dependencies (dependencies);
// pre are the batch's own codes looked up ahead (prefetch): a line whose code another line of the
// batch also defines is never skipped.
func (im *Importer) unchanged(ctx context.Context, tx pgx.Tx, ls []*line, deps [][]int, pre prefetched) ([]uuid.UUID, error) {
	out := make([]uuid.UUID, len(ls))
	tenant := reqctx.Tenant(ctx)
	var codes []string
	for _, l := range ls {
		if l.kind.Table == productsTable && pre[codeKey{tenant, productsTable, l.code}] != uuid.Nil {
			codes = append(codes, l.code)
		}
	}
	if len(codes) == 0 {
		return out, nil
	}
	r := &reader{ctx: ctx, tx: tx, tenant: tenant, codes: map[string]map[uuid.UUID]string{}}
	stored, err := r.byCode(codes)
	if err != nil {
		return nil, err
	}
	byCode := make(map[string]*product, len(stored))
	for _, p := range stored {
		byCode[p.code] = p
	}
	for i, l := range ls {
		p := byCode[l.code]
		if l.kind.Table != productsTable || p == nil || !p.sameAs(l) {
			continue
		}
		if slices.ContainsFunc(deps[i], func(j int) bool { return out[j] == uuid.Nil }) {
			continue
		}
		out[i] = p.id
	}
	return out, nil
}

// sameAs reports whether line l (a product line) certainly leaves p as it is.
func (p *product) sameAs(l *line) bool {
	for key, v := range l.fields {
		same := false
		switch key {
		case "type", "code":
			same = true
		case "displayName":
			same = sameString(v, p.name)
		case "kind":
			same = sameString(v, p.kind)
		case "status":
			same = sameString(v, p.status)
		case "family":
			same = sameRef(v, p.family)
		case "parent":
			same = sameRef(v, p.parent)
		case "brand":
			same = sameRef(v, p.brand)
		case "categories":
			same = sameSet(v, p.categories)
		case "tags":
			same = sameSet(v, p.tags)
		case "attributes":
			same = p.sameAttributes(v, exactMap(l.kind, key))
		case "values":
			same = p.sameValues(v, exactMerge(l.kind, key))
		case "assets":
			same = p.sameAssets(v, exactMerge(l.kind, key))
		case "publications":
			same = p.samePublications(v, exactMerge(l.kind, key))
		}
		if !same {
			return false
		}
	}
	return true
}

// exactMap and exactMerge: whether k's map or merge of that line field is the whole set (its
// children not given are deleted); a field k does not declare so counts as exact, which only
// makes the comparison stricter.
func exactMap(k *Kind, field string) bool {
	for _, mp := range k.Maps {
		if mp.Line == field {
			return mp.Exact
		}
	}
	return true
}

func exactMerge(k *Kind, field string) bool {
	for _, mg := range k.Merges {
		if mg.Line == field {
			return mg.Exact
		}
	}
	return true
}

// text is v as a JSON string that is not empty.
func text(v json.RawMessage) (string, bool) {
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil || s == "" {
		return "", false
	}
	return s, true
}

func sameString(v json.RawMessage, stored string) bool {
	s, ok := text(v)
	return ok && s == stored
}

// sameRef: a code equal to the stored one, or null where there is none.
func sameRef(v json.RawMessage, stored *string) bool {
	if string(v) == "null" {
		return stored == nil
	}
	return stored != nil && sameString(v, *stored)
}

// codeList is v as an array of codes, none empty or repeated.
func codeList(v json.RawMessage) ([]string, bool) {
	var codes []string
	if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &codes) != nil {
		return nil, false
	}
	seen := make(map[string]bool, len(codes))
	for _, c := range codes {
		if c == "" || seen[c] {
			return nil, false
		}
		seen[c] = true
	}
	return codes, true
}

// sameSet: v is the set of codes stored (stored sorted, as load leaves it).
func sameSet(v json.RawMessage, stored []string) bool {
	codes, ok := codeList(v)
	if !ok || len(codes) != len(stored) {
		return false
	}
	sort.Strings(codes)
	return slices.Equal(codes, stored)
}

// items are v's array of objects, each as its members (objectKeys): false for anything else.
func items(v json.RawMessage) ([]map[string]json.RawMessage, bool) {
	var raw []json.RawMessage
	if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &raw) != nil {
		return nil, false
	}
	out := make([]map[string]json.RawMessage, len(raw))
	for i, item := range raw {
		if len(item) == 0 || item[0] != '{' {
			return nil, false
		}
		fs, _, err := objectKeys(item)
		if err != nil {
			return nil, false
		}
		out[i] = fs
	}
	return out, true
}

// only: fs has no member but those named.
func only(fs map[string]json.RawMessage, names ...string) bool {
	for k := range fs {
		if !slices.Contains(names, k) {
			return false
		}
	}
	return true
}

// sameAttributes: v, the line's "attributes" ({"color":["red"]} or {"color":{"terms":[…],
// "isVariantAxis":true}}), gives each attribute the terms and flag stored; exact: and no other.
func (p *product) sameAttributes(v json.RawMessage, exact bool) bool {
	if len(v) == 0 || v[0] != '{' {
		return false
	}
	fs, _, err := objectKeys(v)
	if err != nil || (exact && len(fs) != len(p.attributeOrder)) {
		return false
	}
	for a, given := range fs {
		terms, stored := p.attributes[a]
		if !stored || len(given) == 0 {
			return false
		}
		switch given[0] {
		case '[':
			if !sameSet(given, terms) {
				return false
			}
		case '{':
			obj, _, err := objectKeys(given)
			if err != nil || !only(obj, "terms", "isVariantAxis") {
				return false
			}
			if t, ok := obj["terms"]; ok && !sameSet(t, terms) {
				return false
			}
			if f, ok := obj["isVariantAxis"]; ok {
				var axis bool
				if string(f) == "null" || json.Unmarshal(f, &axis) != nil || axis != p.axes[a] {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// optionalCode is an item's optional reference: absent or null is none (""); false for anything
// but a code.
func optionalCode(fs map[string]json.RawMessage, name string) (string, bool) {
	v, ok := fs[name]
	if !ok || string(v) == "null" {
		return "", true
	}
	return text(v)
}

// sameItems: v is an array of objects with no member but allowed, each naming by key (false:
// not a key) a stored child (find: its index, -1 for none), none twice, and each same as that
// child (same); exact: and there are n stored, none left out.
func sameItems[K comparable](v json.RawMessage, exact bool, n int, allowed []string,
	key func(fs map[string]json.RawMessage) (K, bool), find func(K) int, same func(i int, fs map[string]json.RawMessage) bool) bool {
	its, ok := items(v)
	if !ok || (exact && len(its) != n) {
		return false
	}
	seen := make(map[K]bool, len(its))
	for _, fs := range its {
		if !only(fs, allowed...) {
			return false
		}
		k, ok := key(fs)
		if !ok || seen[k] {
			return false
		}
		seen[k] = true
		if i := find(k); i < 0 || !same(i, fs) {
			return false
		}
	}
	return true
}

// sameValues: each item of v ({"inputType","channel","locale","value"}) is a value stored with the
// same JSON; exact: and there is no other.
func (p *product) sameValues(v json.RawMessage, exact bool) bool {
	type valueKey struct{ inputType, channel, locale string }
	return sameItems(v, exact, len(p.values), []string{"inputType", "channel", "locale", "value"},
		func(fs map[string]json.RawMessage) (valueKey, bool) {
			it, ok1 := text(fs["inputType"])
			ch, ok2 := optionalCode(fs, "channel")
			lo, ok3 := optionalCode(fs, "locale")
			return valueKey{it, ch, lo}, ok1 && ok2 && ok3
		},
		func(k valueKey) int {
			return slices.IndexFunc(p.values, func(s productValue) bool {
				return s.inputType == k.inputType && s.channel == k.channel && s.locale == k.locale
			})
		},
		func(i int, fs map[string]json.RawMessage) bool {
			given, ok := fs["value"]
			return ok && sameJSON(given, p.values[i].value)
		})
}

// sameJSON: a value given as stored (its jsonb text, compact): strings by their text (escapes may
// differ), anything else byte for byte once compact (a number written otherwise, or an object's
// keys in another order, is not decided here).
func sameJSON(given, stored []byte) bool {
	if string(given) == "null" {
		return false
	}
	if len(given) > 0 && given[0] == '"' {
		var a, b string
		return json.Unmarshal(given, &a) == nil && len(stored) > 0 && stored[0] == '"' && json.Unmarshal(stored, &b) == nil && a == b
	}
	return bytes.Equal(compact(given), stored)
}

// sameAssets: each item of v ({"asset","assetType","displayPriority"}) is an asset of p with the
// type and priority it gives; exact: and there is no other.
func (p *product) sameAssets(v json.RawMessage, exact bool) bool {
	return sameItems(v, exact, len(p.assets), []string{"asset", "assetType", "displayPriority"},
		func(fs map[string]json.RawMessage) (string, bool) { return text(fs["asset"]) },
		func(code string) int {
			return slices.IndexFunc(p.assets, func(a productAsset) bool { return a.asset == code })
		},
		func(i int, fs map[string]json.RawMessage) bool {
			if t, given := fs["assetType"]; given && !sameString(t, p.assets[i].assetType) {
				return false
			}
			n, given := fs["displayPriority"]
			return !given || string(n) == strconv.Itoa(int(p.assets[i].priority))
		})
}

// samePublications: each item of v ({"channel","status"}) is a publication of p in the status it
// gives; exact: and there is no other.
func (p *product) samePublications(v json.RawMessage, exact bool) bool {
	return sameItems(v, exact, len(p.publications), []string{"channel", "status"},
		func(fs map[string]json.RawMessage) (string, bool) { return text(fs["channel"]) },
		func(ch string) int {
			return slices.IndexFunc(p.publications, func(s productPublication) bool { return s.channel == ch })
		},
		func(i int, fs map[string]json.RawMessage) bool {
			st, given := fs["status"]
			return !given || sameString(st, p.publications[i].status)
		})
}
