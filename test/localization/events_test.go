package localization

import (
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func localeEv(verb, id string) Event { return Ev("locale."+verb, "localeUuid", id) }

func TestLocaleEvents(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)
	log.Expect(t, "fresh tenant")

	en := Str(mkLocale(t, c, "en-US"), "uuid")
	log.Expect(t, "create first locale", localeEv("created", en))
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	log.Expect(t, "create second locale", localeEv("created", de))

	// A new default on create: created for it, updated for the old default.
	fr := Str(mkLocale(t, c, "fr-FR", "isDefault", true), "uuid")
	log.Expect(t, "create as default", localeEv("created", fr), localeEv("updated", en))

	Want(t, c.Patch("/v1/locales/"+de, map[string]any{"displayName": "Deutsch"}), 200)
	log.Expect(t, "update", localeEv("updated", de))

	// A new default on update: updated for both.
	Want(t, c.Patch("/v1/locales/"+de, map[string]any{"isDefault": true}), 200)
	log.Expect(t, "update to default", localeEv("updated", de), localeEv("updated", fr))

	res := Want(t, c.Post("/v1/locales/bulk", []any{map[string]any{"code": "it-IT"}, map[string]any{"code": "es-ES", "isDefault": true}}), 201).Objs()
	it, es := Str(res[0], "uuid"), Str(res[1], "uuid")
	log.Expect(t, "bulk create with a default", localeEv("created", it), localeEv("created", es), localeEv("updated", de))

	Want(t, c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": it, "displayName": "Italiano"}, map[string]any{"uuid": en, "code": "en-gb"}}), 200)
	log.Expect(t, "bulk update", localeEv("updated", it), localeEv("updated", en))

	Want(t, c.Delete("/v1/locales/"+it), 204)
	log.Expect(t, "delete", localeEv("deleted", it))

	// Failed writes emit nothing.
	c.Post("/v1/locales", map[string]any{"code": "es-es"})                                              // duplicate
	c.Post("/v1/locales", map[string]any{"code": "not a tag"})                                          // invalid
	c.Post("/v1/locales/bulk", []any{map[string]any{"code": "nl-NL"}, map[string]any{"code": "de-DE"}}) // [1] duplicate
	c.Post("/v1/locales/bulk", []any{map[string]any{"code": "nl-NL", "isDefault": true}, map[string]any{"code": "pl-PL", "isDefault": true}})
	c.Patch("/v1/locales/"+es, map[string]any{"isDefault": false}) // default stays default
	c.Patch("/v1/locales/"+en, map[string]any{"code": "es-ES"})    // duplicate
	c.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": fr, "displayName": "x"}, map[string]any{"uuid": de, "code": "es-ES"}})
	c.Delete("/v1/locales/" + es) // default
	c.Delete("/v1/locales/" + it) // gone
	log.Expect(t, "refused writes")
	a := mkAttr(t, c, "color")
	mkContent(t, c, attrContents(a), fr, "Couleur")
	log.Skip(t)
	c.Delete("/v1/locales/" + fr) // in use
	log.Expect(t, "refused delete of a locale in use")
	WantTotal(t, c, "/v1/locales", 4)
}

func TestTermEvents(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := mkAttr(t, c, "size")
	log := NewEventLog(pool, tenant)
	log.Skip(t)
	tev := func(verb, id string) Event { return Ev("attribute.term."+verb, "attributeUuid", a, "termUuid", id) }

	s := Str(mkTerm(t, c, a, "s"), "uuid")
	log.Expect(t, "create", tev("created", s))
	res := Want(t, c.Post(terms(a)+"/bulk", []any{map[string]any{"code": "m"}, map[string]any{"code": "l"}, map[string]any{"code": "xl"}}), 201).Objs()
	m, l, xl := Str(res[0], "uuid"), Str(res[1], "uuid"), Str(res[2], "uuid")
	log.Expect(t, "bulk create", tev("created", m), tev("created", l), tev("created", xl))
	Want(t, c.Patch(terms(a)+"/"+s, map[string]any{"position": 1}), 200)
	log.Expect(t, "update", tev("updated", s))
	Want(t, c.Patch(terms(a)+"/bulk", []any{map[string]any{"uuid": m, "position": 2}, map[string]any{"uuid": l, "position": 3}}), 200)
	log.Expect(t, "bulk update", tev("updated", m), tev("updated", l))
	Want(t, c.Delete(terms(a)+"/"+xl), 204)
	log.Expect(t, "delete", tev("deleted", xl))

	// Failed writes emit nothing.
	c.Post(terms(a), map[string]any{"code": "s"})
	c.Post(terms(a), map[string]any{"code": ""})
	c.Post(terms(a)+"/bulk", []any{map[string]any{"code": "xxl"}, map[string]any{"code": "m"}})
	c.Post(terms(a)+"/bulk", []any{map[string]any{"code": "xxl"}, map[string]any{"code": strings.Repeat("x", 101)}})
	c.Patch(terms(a)+"/"+s, map[string]any{"code": "m"})
	c.Patch(terms(a)+"/bulk", []any{map[string]any{"uuid": s, "position": 9}, map[string]any{"uuid": m, "code": "l"}})
	c.Patch(terms(a)+"/bulk", []any{map[string]any{"uuid": s, "position": 9}, map[string]any{"uuid": xl, "position": 1}})
	c.Delete(terms(a) + "/" + xl)
	log.Expect(t, "refused writes")
	WantTotal(t, c, terms(a), 3)
}

func TestContentEvents(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c, tenant := env.TenantClient(t)
		en := Str(mkLocale(t, c, "en-US"), "uuid")
		de := Str(mkLocale(t, c, "de-DE"), "uuid")
		fr := Str(mkLocale(t, c, "fr-FR"), "uuid")
		it := Str(mkLocale(t, c, "it-IT"), "uuid")
		base, pk := f.parent(t, c)
		log := NewEventLog(pool, tenant)
		log.Skip(t)

		a := Str(mkContent(t, c, base, en, "Colour"), "uuid")
		log.Expect(t, "create", f.ev("created", pk, a))
		res := Want(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": de, "displayName": "Farbe"},
			map[string]any{"localeUuid": fr, "displayName": "Couleur"},
		}), 201).Objs()
		b, d := Str(res[0], "uuid"), Str(res[1], "uuid")
		log.Expect(t, "bulk create", f.ev("created", pk, b), f.ev("created", pk, d))
		Want(t, c.Patch(base+"/"+a, map[string]any{"description": nil}), 200)
		log.Expect(t, "update that changes nothing") // a has no description: no event
		Want(t, c.Patch(base+"/"+a, map[string]any{"description": "Colour of the item"}), 200)
		log.Expect(t, "update", f.ev("updated", pk, a))
		Want(t, c.Patch(base+"/bulk", []any{
			map[string]any{"uuid": b, "description": "x"},
			map[string]any{"uuid": d, "description": nil},
			map[string]any{"uuid": a, "localeUuid": it},
		}), 200)
		log.Expect(t, "bulk update", f.ev("updated", pk, b), f.ev("updated", pk, a)) // d unchanged
		Want(t, c.Delete(base+"/"+d), 204)
		log.Expect(t, "delete", f.ev("deleted", pk, d))

		// Failed writes emit nothing.
		c.Post(base, map[string]any{"localeUuid": de, "displayName": "again"})
		c.Post(base, map[string]any{"localeUuid": fr, "displayName": ""})
		c.Post(base, map[string]any{"localeUuid": "0190aaaa-0000-7000-8000-000000000000", "displayName": "x"})
		c.Post(base+"/bulk", []any{map[string]any{"localeUuid": fr, "displayName": "x"}, map[string]any{"localeUuid": de, "displayName": "y"}})
		c.Patch(base+"/"+a, map[string]any{"localeUuid": de})
		c.Patch(base+"/"+a, map[string]any{"description": strings.Repeat("d", 10001)})
		c.Patch(base+"/bulk", []any{map[string]any{"uuid": a, "displayName": "ok"}, map[string]any{"uuid": d, "displayName": "gone"}})
		c.Delete(base + "/" + d)
		log.Expect(t, "refused writes")
		WantTotal(t, c, base, 2)
	})
}
