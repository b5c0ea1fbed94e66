package publications

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Readiness is stored on each publication and kept up to date by every write that can change it
// (migration 0020). These tests change each thing readiness depends on and check three readers of
// that state against each other: GET .../readiness, the readyChannelUuids / notReadyChannelUuids
// filters of GET /v1/products, and a fresh computation (readiness_missing) of every publication of
// the tenant, which the stored state must equal.

// wantStoredFresh fails unless every publication of the tenant owning product stores exactly the
// readiness computed afresh from the tables (readiness_missing gives every publication its row,
// '[]' when it misses nothing: readiness_refresh updates the publications from those rows alone).
func wantStoredFresh(t *testing.T, product string) {
	t.Helper()
	var tenant string
	if err := pool.QueryRow(context.Background(), `SELECT tenant_id FROM products WHERE uuid = $1`, product).Scan(&tenant); err != nil {
		t.Fatalf("tenant of product %s: %v", product, err)
	}
	rows, err := pool.Query(context.Background(), `
		SELECT coalesce(pp.uuid, m.publication_uuid)::text, coalesce(pp.missing::text, 'no publication'),
		       coalesce(m.missing::text, 'not computed')
		FROM (SELECT * FROM product_publications WHERE tenant_id = $1) pp
		FULL JOIN readiness_missing($1, ARRAY(SELECT uuid FROM products WHERE tenant_id = $1)) m ON m.publication_uuid = pp.uuid
		WHERE pp.missing IS DISTINCT FROM m.missing`, tenant)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var pub, stored, fresh string
		if err := rows.Scan(&pub, &stored, &fresh); err != nil {
			t.Fatal(err)
		}
		t.Errorf("publication %s stores readiness %s, but it is %s", pub, stored, fresh)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// The product's ready channels (migration 0023, the notReadyChannelUuids filter) follow.
	var stored, fresh string
	if err := pool.QueryRow(context.Background(), `SELECT p.ready_channels::text, ARRAY(SELECT pp.channel_uuid
		FROM product_publications pp WHERE pp.tenant_id = p.tenant_id AND pp.product_uuid = p.uuid AND pp.ready ORDER BY 1)::text
		FROM products p WHERE p.uuid = $1`, product).Scan(&stored, &fresh); err != nil {
		t.Fatal(err)
	}
	if stored != fresh {
		t.Errorf("product %s stores ready channels %s, but they are %s", product, stored, fresh)
	}
}

// wantFilters checks the readiness filters on channel ch over the products all: ready are the
// ones ready there, every other one is not ready.
func wantFilters(t *testing.T, c *Client, ch string, all []string, ready ...string) {
	t.Helper()
	var notReady []string
	for _, p := range all {
		if !contains(ready, p) {
			notReady = append(notReady, p)
		}
	}
	WantUUIDs(t, c, "/v1/products?size=100&readyChannelUuids[eq]="+ch, false, ready...)
	WantUUIDs(t, c, "/v1/products?size=100&notReadyChannelUuids[eq]="+ch, false, notReady...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestReadinessFollowsEveryWrite walks one product through every kind of write readiness depends
// on, with a second product that has no publication (never ready) beside it.
func TestReadinessFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	en, fr := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "fr-FR")
	web, shop := mkChannel(t, c, en), mkChannel(t, c)
	g := mkGroup(t, c)
	desc := mkInputType(t, c, g, true)
	Want(t, c.Post("/v1/channels/"+web+"/input-types", Body("inputTypeUuid", desc, "requirementLevel", "required")), 201)
	fam := mkFamily(t, c)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	fa := Str(Want(t, c.Post("/v1/families/"+fam+"/attributes", Body("attributeUuid", attr, "requirementLevel", "required")), 201).Obj(), "uuid")

	p := mkProduct(t, c, "simple", "familyUuid", fam)
	lonely := mkProduct(t, c, "simple", "familyUuid", fam) // no publication: not ready anywhere
	all := []string{p, lonely}
	pubWeb, pubShop := mkPub(t, c, p, web), mkPub(t, c, p, shop)
	check := func(step string, readyWeb, readyShop bool, web3 ...[3]any) {
		t.Helper()
		t.Logf("step: %s", step)
		if readyWeb {
			wantReady(t, c, p, pubWeb)
			wantFilters(t, c, web, all, p)
		} else {
			wantNotReady(t, c, p, pubWeb, web3...)
			wantFilters(t, c, web, all)
		}
		if readyShop {
			wantReady(t, c, p, pubShop)
			wantFilters(t, c, shop, all, p)
		} else {
			wantFilters(t, c, shop, all)
		}
		wantStoredFresh(t, p)
	}
	check("draft product", false, false, [3]any{"product", p, nil}, [3]any{"input_type", desc, en}, [3]any{"attribute", attr, nil})
	activate(t, c, p)
	check("active", false, false, [3]any{"input_type", desc, en}, [3]any{"attribute", attr, nil})
	Want(t, c.Post("/v1/products/"+p+"/attributes", Body("attributeUuid", attr)), 201)
	check("family attribute linked", false, true, [3]any{"input_type", desc, en})
	v := Str(Want(t, c.Post("/v1/products/"+p+"/input-values", Body("inputTypeUuid", desc, "localeUuid", en, "value", "x")), 201).Obj(), "uuid")
	check("value given", true, true)

	// The channel gains a locale: the localizable input type now needs a value for it too.
	Want(t, c.Patch("/v1/channels/"+web, Body("localeUuids", []string{en, fr})), 200)
	check("channel locale added", false, true, [3]any{"input_type", desc, fr})
	Want(t, c.Patch("/v1/channels/"+web, Body("localeUuids", []string{en})), 200)
	check("channel locale removed", true, true)

	// The input type stops being localizable: the value for en-US no longer counts.
	Want(t, c.Patch("/v1/input-types/"+desc, Body("isLocalizable", false)), 200)
	check("input type not localizable", false, true, [3]any{"input_type", desc, nil})
	Want(t, c.Patch("/v1/input-types/"+desc, Body("isLocalizable", true)), 200)
	check("localizable again", true, true)

	// The family's requirement becomes optional, then required again.
	Want(t, c.Patch("/v1/families/"+fam+"/attributes/"+fa, Body("requirementLevel", "optional")), 200)
	Want(t, c.Delete("/v1/products/"+p+"/attributes/"+productAttr(t, c, p, attr)), 204)
	check("requirement optional, attribute unlinked", true, true)
	Want(t, c.Patch("/v1/families/"+fam+"/attributes/"+fa, Body("requirementLevel", "required")), 200)
	check("requirement required again", false, false, [3]any{"attribute", attr, nil})
	Want(t, c.Post("/v1/products/"+p+"/attributes", Body("attributeUuid", attr)), 201)
	check("attribute back", true, true)

	// The channel's requirement goes away with its link, and comes back.
	link := Str(Want(t, c.Get("/v1/channels/"+web+"/input-types"), 200).Items()[0], "uuid")
	Want(t, c.Delete("/v1/products/"+p+"/input-values/"+v), 204)
	check("value deleted", false, true, [3]any{"input_type", desc, en})
	Want(t, c.Delete("/v1/channels/"+web+"/input-types/"+link), 204)
	check("channel requirement removed", true, true)

	// The product leaves active: not ready anywhere, whatever else it has.
	Want(t, c.Patch("/v1/products/"+p+"/actions/lifecycle", Body("transition", "deactivate")), 200)
	check("inactive", false, false, [3]any{"product", p, nil})
	// A product that leaves its family leaves its requirements.
	activate(t, c, p)
	Want(t, c.Patch("/v1/products/"+p, Body("familyUuid", nil)), 200)
	check("no family", true, true)
}

func productAttr(t *testing.T, c *Client, product, attr string) string {
	t.Helper()
	for _, it := range Want(t, c.Get("/v1/products/"+product+"/attributes?size=100"), 200).Items() {
		if it["attributeUuid"] == attr {
			return Str(it, "uuid")
		}
	}
	t.Fatalf("product %s has no attribute %s", product, attr)
	return ""
}

// TestReadinessFollowsFamilyRequirements: one change of a family's requirements updates the
// readiness of all its products, and only theirs; a variant follows its parent's values.
func TestReadinessFollowsFamilyRequirements(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	ch := mkChannel(t, c)
	fam, otherFam := mkFamily(t, c), mkFamily(t, c)
	g := mkGroup(t, c)
	it := mkInputType(t, c, g, false)
	const n = 30
	var inFam, pubs []string
	for i := 0; i < n; i++ {
		p := mkProduct(t, c, "simple", "familyUuid", fam)
		activate(t, c, p)
		inFam = append(inFam, p)
		pubs = append(pubs, mkPub(t, c, p, ch))
	}
	outside := mkProduct(t, c, "simple", "familyUuid", otherFam)
	activate(t, c, outside)
	mkPub(t, c, outside, ch)
	all := append(append([]string{}, inFam...), outside)
	wantFilters(t, c, ch, all, all...)

	link := Str(Want(t, c.Post("/v1/families/"+fam+"/input-types", Body("inputTypeUuid", it, "requirementLevel", "required")), 201).Obj(), "uuid")
	wantFilters(t, c, ch, all, outside)
	for i, p := range inFam {
		if ready, missing := readiness(t, c, p, pubs[i]); ready || len(missing) != 1 || missing[0]["uuid"] != it {
			t.Fatalf("product %d after the family requirement: ready=%v missing %v", i, ready, missing)
		}
	}
	wantStoredFresh(t, outside)

	// Half of them get the value in one bulk: those become ready.
	for _, p := range inFam[:n/2] {
		Want(t, c.Post("/v1/products/"+p+"/input-values/bulk", []any{Body("inputTypeUuid", it, "value", "x")}), 201)
	}
	wantFilters(t, c, ch, all, append(append([]string{}, inFam[:n/2]...), outside)...)
	Want(t, c.Patch("/v1/families/"+fam+"/input-types/"+link, Body("requirementLevel", "recommended")), 200)
	wantFilters(t, c, ch, all, all...)
	Want(t, c.Patch("/v1/families/"+fam+"/input-types/"+link, Body("requirementLevel", "required")), 200)
	Want(t, c.Delete("/v1/families/"+fam+"/input-types/"+link), 204)
	wantFilters(t, c, ch, all, all...)
	wantStoredFresh(t, outside)

	// A variant reads its parent's values: the parent's value makes the variant ready.
	Want(t, c.Post("/v1/families/"+otherFam+"/input-types", Body("inputTypeUuid", it, "requirementLevel", "required", "appliesTo", "variant")), 201)
	parent := mkProduct(t, c, "variant_parent", "familyUuid", otherFam)
	variant := mkProduct(t, c, "variant", "familyUuid", otherFam, "parentUuid", parent)
	activate(t, c, variant)
	vpub := mkPub(t, c, variant, ch)
	wantNotReady(t, c, variant, vpub, [3]any{"input_type", it, nil})
	Want(t, c.Post("/v1/products/"+parent+"/input-values", Body("inputTypeUuid", it, "value", "inherited")), 201)
	wantReady(t, c, variant, vpub)
	WantUUIDs(t, c, "/v1/products?readyChannelUuids[eq]="+ch+"&uuids[eq]="+variant, false, variant)
	wantStoredFresh(t, variant)
}

// TestReadinessFilters: values of one filter combine with OR, filters with AND, bad values are
// 400 naming the parameter.
func TestReadinessFilters(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	a, b := mkChannel(t, c), mkChannel(t, c)
	readyA := mkProduct(t, c, "simple")
	activate(t, c, readyA)
	mkPub(t, c, readyA, a)
	readyB := mkProduct(t, c, "simple")
	activate(t, c, readyB)
	mkPub(t, c, readyB, b)
	both := mkProduct(t, c, "simple")
	activate(t, c, both)
	mkPub(t, c, both, a)
	mkPub(t, c, both, b)
	draft := mkProduct(t, c, "simple")
	mkPub(t, c, draft, a)

	q := "/v1/products?size=100&"
	WantUUIDs(t, c, q+"readyChannelUuids[eq]="+a, false, readyA, both)
	WantUUIDs(t, c, q+"readyChannelUuids[eq]="+a+"&readyChannelUuids[eq]="+b, false, readyA, readyB, both)
	WantUUIDs(t, c, q+"readyChannelUuids[eq]="+a+"&notReadyChannelUuids[eq]="+b, false, readyA)
	// Not ready on a or on b: every product lacking a ready publication on one of them.
	WantUUIDs(t, c, q+"notReadyChannelUuids[eq]="+a+"&notReadyChannelUuids[eq]="+b, false, readyA, readyB, draft)
	WantUUIDs(t, c, q+"notReadyChannelUuids[eq]="+a+"&statuses[eq]=draft", false, draft)
	// A channel of another tenant (or none) has nothing ready here.
	WantUUIDs(t, c, q+"readyChannelUuids[eq]="+RandomUUID(), false)
	WantProblem(t, c.Get(q+"readyChannelUuids[eq]=nope"), 400, "VALIDATION_FAILED", "readyChannelUuids[eq]")
	WantProblem(t, c.Get(q+"notReadyChannelUuids[eq]=nope"), 400, "VALIDATION_FAILED", "notReadyChannelUuids[eq]")
}

// TestReadinessUnderConcurrentWrites: writers changing values, family and channel requirements,
// channel locales and publications at the same time leave every publication's stored readiness
// equal to a fresh computation (the recomputations lock what they recompute, so the last writer
// sees the others' committed writes).
func TestReadinessUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	en, fr := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "fr-FR")
	chans := []string{mkChannel(t, c, en), mkChannel(t, c, en, fr)}
	g := mkGroup(t, c)
	its := []string{mkInputType(t, c, g, false), mkInputType(t, c, g, true)}
	fam := mkFamily(t, c)
	famLink := Str(Want(t, c.Post("/v1/families/"+fam+"/input-types", Body("inputTypeUuid", its[0], "requirementLevel", "required")), 201).Obj(), "uuid")
	chLink := Str(Want(t, c.Post("/v1/channels/"+chans[1]+"/input-types", Body("inputTypeUuid", its[1], "requirementLevel", "required")), 201).Obj(), "uuid")
	var products []string
	for i := 0; i < 8; i++ {
		p := mkProduct(t, c, "simple", "familyUuid", fam)
		activate(t, c, p)
		products = append(products, p)
	}
	mkPub(t, c, products[0], chans[0])

	levels := []string{"required", "optional"}
	// Refusals (409 on a duplicate, 400 on a value already there) are expected; a 5xx is not.
	var written atomic.Int64
	call := func(r Resp) {
		if r.Status >= 500 {
			t.Errorf("%d: %s", r.Status, r.Raw)
		} else if r.Status < 300 {
			written.Add(1)
		}
	}
	ops := []func(r *rand.Rand){
		func(r *rand.Rand) { // a publication (a conflict when it exists: 409)
			call(c.Post(base(products[r.IntN(len(products))]), Body("channelUuid", chans[r.IntN(2)])))
		},
		func(r *rand.Rand) { // a value, or its removal
			p := products[r.IntN(len(products))]
			if r.IntN(2) == 0 {
				call(c.Post("/v1/products/"+p+"/input-values", Body("inputTypeUuid", its[0], "value", "x")))
				call(c.Post("/v1/products/"+p+"/input-values", Body("inputTypeUuid", its[1], "localeUuid", []string{en, fr}[r.IntN(2)], "value", "x")))
				return
			}
			for _, v := range c.Get("/v1/products/" + p + "/input-values?size=100").Items() {
				call(c.Delete("/v1/products/" + p + "/input-values/" + Str(v, "uuid")))
			}
		},
		func(r *rand.Rand) { // the family's requirement
			call(c.Patch("/v1/families/"+fam+"/input-types/"+famLink, Body("requirementLevel", levels[r.IntN(2)])))
		},
		func(r *rand.Rand) { // the channel's requirement
			call(c.Patch("/v1/channels/"+chans[1]+"/input-types/"+chLink, Body("requirementLevel", levels[r.IntN(2)])))
		},
		func(r *rand.Rand) { // the channel's locales
			call(c.Patch("/v1/channels/"+chans[1], Body("localeUuids", [][]string{{en}, {en, fr}}[r.IntN(2)])))
		},
		func(r *rand.Rand) { // the product's status
			call(c.Patch("/v1/products/"+products[r.IntN(len(products))]+"/actions/lifecycle", Body("transition", []string{"activate", "deactivate"}[r.IntN(2)])))
		},
	}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, 15))
			for i := 0; i < 25; i++ {
				ops[r.IntN(len(ops))](r)
			}
		}(uint64(w))
	}
	wg.Wait()
	if n := written.Load(); n < 50 {
		t.Fatalf("only %d writes succeeded: the test did not exercise concurrent writes", n)
	}
	wantStoredFresh(t, products[0])
	// And the filters agree with the stored state.
	for _, ch := range chans {
		var ready []string
		for _, p := range products {
			for _, pub := range c.Get(base(p) + "?channelUuids[eq]=" + ch).Items() {
				if ok, _ := readiness(t, c, p, Str(pub, "uuid")); ok {
					ready = append(ready, p)
				}
			}
		}
		WantUUIDs(t, c, fmt.Sprintf("/v1/products?size=100&familyUuids[eq]=%s&readyChannelUuids[eq]=%s", fam, ch), false, ready...)
	}
}

// TestReadinessInterleavedTransactions forces the interleavings the locks of migration 0020 are
// for: a transaction A writes and stays open while B, in another connection, changes a
// requirement that A's write interacts with; then A commits. Whatever order the database lets
// them finish in, the stored readiness must equal a fresh computation (without the locks, B
// computes from a snapshot without A's write and stores a stale state).
func TestReadinessInterleavedTransactions(t *testing.T) {
	t.Parallel()
	type setup struct{ tenant, product, channel, family, inputType string }
	scenarios := []struct {
		name string
		a, b string // an INSERT ... SELECT from p: t tenant, pr product, ch channel, fa family, it input type
	}{
		{"publication created while the channel gains a requirement",
			`INSERT INTO product_publications (tenant_id, uuid, product_uuid, channel_uuid, created_at, updated_at) SELECT t, gen_random_uuid(), pr, ch, now(), now() FROM p`,
			`INSERT INTO channel_input_types (tenant_id, uuid, channel_uuid, input_type_uuid, requirement_level, created_at, updated_at) SELECT t, gen_random_uuid(), ch, it, 'required', now(), now() FROM p`},
		{"publication created while the family gains a requirement",
			`INSERT INTO product_publications (tenant_id, uuid, product_uuid, channel_uuid, created_at, updated_at) SELECT t, gen_random_uuid(), pr, ch, now(), now() FROM p`,
			`INSERT INTO family_links (tenant_id, uuid, family_uuid, kind, target_uuid, requirement_level, created_at, updated_at) SELECT t, gen_random_uuid(), fa, 'input_type', it, 'required', now(), now() FROM p`},
		{"value given while the family gains a requirement",
			`INSERT INTO product_input_values (tenant_id, uuid, product_uuid, input_type_uuid, value, created_at, updated_at) SELECT t, gen_random_uuid(), pr, it, '"x"', now(), now() FROM p`,
			`INSERT INTO family_links (tenant_id, uuid, family_uuid, kind, target_uuid, requirement_level, created_at, updated_at) SELECT t, gen_random_uuid(), fa, 'input_type', it, 'required', now(), now() FROM p`},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			c, tenant := env.TenantClient(t)
			fam := mkFamily(t, c)
			s := setup{tenant: tenant, product: mkProduct(t, c, "simple", "familyUuid", fam), channel: mkChannel(t, c), family: fam,
				inputType: mkInputType(t, c, mkGroup(t, c), false)}
			activate(t, c, s.product)
			if sc.name == "value given while the family gains a requirement" {
				mkPub(t, c, s.product, s.channel)
			}
			args := []any{s.tenant, s.product, s.channel, s.family, s.inputType}
			with := "WITH p AS (SELECT $1::text AS t, $2::uuid AS pr, $3::uuid AS ch, $4::uuid AS fa, $5::uuid AS it) "
			interleave(t, []string{with + sc.a}, with+sc.b, args...)
			wantStoredFresh(t, s.product)
		})
	}
}

// interleave runs the statements a in a transaction A and, while A is open, b in another session
// B; once B has ended or waits for a lock (A's, if the triggers order them), A commits, and B
// ends. So a writer that does not wait for A computes without A's uncommitted change, and one
// that waits sees it; either way the stored readiness must end right.
func interleave(t *testing.T, a []string, b string, args ...any) {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	for i, q := range a {
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			t.Fatalf("A %d: %v", i, err)
		}
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	pid := conn.Conn().PgConn().PID()
	bDone := make(chan error, 1)
	go func() {
		_, err := conn.Exec(ctx, b, args...)
		bDone <- err
	}()
	// Until B has ended (its result is in the buffered channel) or waits for a lock.
	for deadline := time.Now().Add(10 * time.Second); len(bDone) == 0; time.Sleep(5 * time.Millisecond) {
		var waiting bool
		// Asked in A's own session (a third connection could wait for the pool; pg_blocking_pids
		// reads the lock table, not a snapshot).
		if err := tx.QueryRow(ctx, `SELECT cardinality(pg_blocking_pids($1)) > 0`, pid).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("B neither ended nor waited for a lock in 10 s")
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("A commit: %v", err)
	}
	if err := <-bDone; err != nil {
		t.Fatalf("B: %v", err)
	}
}

// Races an outside audit found (migration 0024), each run in the order that lost the update:
//   - a variant moves under a parent (the service's FOR SHARE on the new parent, then the update)
//     while the parent loses or gains a value or an attribute the variant inherits;
//   - an input type becomes localizable while a family or a channel starts requiring it (on a
//     channel without locales, a localizable input type asks for nothing).
func TestReadinessRacesOfParentsAndInputTypes(t *testing.T) {
	t.Parallel()
	// Every statement starts with p: t the tenant, v the variant, pb its new parent, it the input
	// type, at the attribute.
	with := "WITH p AS (SELECT $1::text AS t, $2::uuid AS v, $3::uuid AS pb, $4::uuid AS it, $5::uuid AS at) "
	moveV := []string{
		with + `SELECT 1 FROM products, p WHERE tenant_id = p.t AND uuid = p.pb FOR SHARE OF products`,
		with + `UPDATE products SET parent_uuid = p.pb, updated_at = now() FROM p WHERE tenant_id = p.t AND uuid = p.v`,
	}
	for _, sc := range []struct {
		name          string
		a             []string
		b             string
		value, linked bool // the new parent's value of the input type, its link of the attribute, before
	}{
		{"variant moves while its new parent loses the required value", moveV,
			with + `DELETE FROM product_input_values USING p WHERE tenant_id = p.t AND product_uuid = p.pb AND input_type_uuid = p.it`, true, true},
		{"variant moves while its new parent gains the required value", moveV,
			with + `INSERT INTO product_input_values (tenant_id, uuid, product_uuid, input_type_uuid, value, created_at, updated_at)
			 SELECT t, gen_random_uuid(), pb, it, '"2"', now(), now() FROM p`, false, true},
		{"variant moves while its new parent gains the required attribute", moveV,
			with + `INSERT INTO product_attributes (tenant_id, uuid, product_uuid, attribute_uuid, created_at, updated_at)
			 SELECT t, gen_random_uuid(), pb, at, now(), now() FROM p`, true, false},
		{"variant moves while its new parent loses the required attribute", moveV,
			with + `DELETE FROM product_attributes USING p WHERE tenant_id = p.t AND product_uuid = p.pb AND attribute_uuid = p.at`, true, true},
	} {
		t.Run(sc.name, func(t *testing.T) {
			c, tenant := env.TenantClient(t)
			g := mkGroup(t, c)
			it := mkInputType(t, c, g, false)
			attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
			fam := mkFamily(t, c)
			Want(t, c.Post("/v1/families/"+fam+"/input-types", Body("inputTypeUuid", it, "requirementLevel", "required", "appliesTo", "variant")), 201)
			Want(t, c.Post("/v1/families/"+fam+"/attributes", Body("attributeUuid", attr, "requirementLevel", "required", "appliesTo", "variant")), 201)
			pa, pb := mkProduct(t, c, "variant_parent", "familyUuid", fam), mkProduct(t, c, "variant_parent", "familyUuid", fam)
			for _, p := range []struct {
				uuid          string
				value, linked bool
			}{{pa, true, true}, {pb, sc.value, sc.linked}} {
				if p.linked {
					Want(t, c.Post("/v1/products/"+p.uuid+"/attributes", Body("attributeUuid", attr)), 201)
				}
				if p.value {
					Want(t, c.Post("/v1/products/"+p.uuid+"/input-values", Body("inputTypeUuid", it, "value", "x")), 201)
				}
			}
			v := mkProduct(t, c, "variant", "familyUuid", fam, "parentUuid", pa)
			activate(t, c, v)
			mkPub(t, c, v, mkChannel(t, c))
			interleave(t, sc.a, sc.b, tenant, v, pb, it, attr)
			wantStoredFresh(t, v)
		})
	}
	for _, link := range []string{"family", "channel"} {
		t.Run("input type becomes localizable while a "+link+" starts requiring it", func(t *testing.T) {
			c, tenant := env.TenantClient(t)
			it := mkInputType(t, c, mkGroup(t, c), false)
			fam, ch := mkFamily(t, c), mkChannel(t, c)
			p := mkProduct(t, c, "simple", "familyUuid", fam)
			activate(t, c, p)
			mkPub(t, c, p, ch)
			with := "WITH p AS (SELECT $1::text AS t, $2::uuid AS it, $3::uuid AS target) "
			b := with + `INSERT INTO family_links (tenant_id, uuid, family_uuid, kind, target_uuid, requirement_level, created_at, updated_at)
				SELECT t, gen_random_uuid(), target, 'input_type', it, 'required', now(), now() FROM p`
			target := fam
			if link == "channel" {
				b = with + `INSERT INTO channel_input_types (tenant_id, uuid, channel_uuid, input_type_uuid, requirement_level, created_at, updated_at)
					SELECT t, gen_random_uuid(), target, it, 'required', now(), now() FROM p`
				target = ch
			}
			interleave(t, []string{with + `UPDATE input_types SET is_localizable = true, updated_at = now() FROM p WHERE tenant_id = p.t AND uuid = p.it`}, b, tenant, it, target)
			wantStoredFresh(t, p)
		})
	}
}

// TestConcurrentRequirementWrites: writers of the same family's and the same channel's
// requirements at once (the demo seeder links a family's attributes, input types and asset types
// in parallel) all succeed: they queue on the family's / channel's readiness lock instead of
// deadlocking on it, and the stored readiness ends equal to a fresh computation.
func TestConcurrentRequirementWrites(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam, ch := mkFamily(t, c), mkChannel(t, c)
	g := mkGroup(t, c)
	p := mkProduct(t, c, "simple", "familyUuid", fam)
	activate(t, c, p)
	mkPub(t, c, p, ch)
	const n = 8
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
		famIT, chIT := mkInputType(t, c, g, false), mkInputType(t, c, g, false)
		wg.Add(3)
		go func() {
			defer wg.Done()
			Want(t, c.Post("/v1/families/"+fam+"/attributes", Body("attributeUuid", attr, "requirementLevel", "required")), 201)
		}()
		go func() {
			defer wg.Done()
			Want(t, c.Post("/v1/families/"+fam+"/input-types", Body("inputTypeUuid", famIT, "requirementLevel", "required")), 201)
		}()
		go func() {
			defer wg.Done()
			Want(t, c.Post("/v1/channels/"+ch+"/input-types", Body("inputTypeUuid", chIT, "requirementLevel", "required")), 201)
		}()
	}
	wg.Wait()
	wantStoredFresh(t, p)
	WantUUIDs(t, c, "/v1/products?notReadyChannelUuids[eq]="+ch+"&uuids[eq]="+p, false, p)
}

// TestLifecycleMoveTakesTheFamilyLockFirst: a product's lifecycle move takes its family's
// readiness lock before it locks the product, the order of a change of the family's requirements
// (the family's lock, then its products). Taken the other way round, the move held the product
// while it waited for the family, and the change held the family while it waited for the product:
// a deadlock (TestReadinessUnderConcurrentWrites met it under load as 503s after the retries).
// Here a transaction holds the family's lock exclusively, as a requirement change does, while the
// move waits for it; the product must still be free to lock (NOWAIT).
func TestLifecycleMoveTakesTheFamilyLockFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, tenant := env.TenantClient(t)
	fam := mkFamily(t, c)
	p := mkProduct(t, c, "simple", "familyUuid", fam)
	activate(t, c, p)
	mkPub(t, c, p, mkChannel(t, c))

	a, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Rollback(ctx) //nolint:errcheck
	if _, err := a.Exec(ctx, `SELECT readiness_lock($1, 'family', ARRAY[$2::uuid], true)`, tenant, fam); err != nil {
		t.Fatal(err)
	}
	moved := make(chan Resp, 1)
	go func() {
		moved <- c.Patch("/v1/products/"+p+"/actions/lifecycle", Body("transition", "deactivate"))
	}()
	// Wait until the move waits for the family's lock.
	waiting := `SELECT count(*) FROM pg_locks l, hashtextextended('catalogd:readiness:family:' || $1 || ':' || $2, 0) k
		WHERE l.locktype = 'advisory' AND NOT l.granted
		  AND l.classid = ((k >> 32) & 4294967295)::bigint::oid AND l.objid = (k & 4294967295)::bigint::oid`
	for deadline := time.Now().Add(10 * time.Second); ; {
		var n int
		if err := pool.QueryRow(ctx, waiting, tenant, fam).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		select {
		case r := <-moved:
			t.Fatalf("the move ended (%d) without waiting for the family's lock held by another transaction", r.Status)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the move never waited for the family's lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := a.Exec(ctx, `SELECT 1 FROM products WHERE tenant_id = $1 AND uuid = $2 FOR NO KEY UPDATE NOWAIT`, tenant, p); err != nil {
		t.Fatalf("the product is locked by the move while it waits for its family's lock: %v", err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	Want(t, <-moved, 200)
	wantStoredFresh(t, p)
}

// The statement triggers of the big tables (products, product_publications) find the rows a
// statement changed without joining the transition tables: PL/pgSQL keeps such a query's plan
// for the connection, made for the sizes of its first call, and a join planned for one row is a
// nested loop over every pair when the same connection later updates 100 000 (migration 0042:
// over 60 s where 2 s will do). A trigger written with that join again fails here; the others
// (on small tables: input types, categories, terms, brands, locales) may keep it.
func TestBigTablesTriggersJoinNoTransitionTables(t *testing.T) {
	rows, err := pool.Query(context.Background(), `
		SELECT DISTINCT c.relname, p.proname, p.prosrc
		FROM pg_trigger g
		JOIN pg_class c ON c.oid = g.tgrelid
		JOIN pg_proc p ON p.oid = g.tgfoid
		WHERE NOT g.tgisinternal AND c.relname IN ('products', 'product_publications')
		  AND (g.tgoldtable IS NOT NULL OR g.tgnewtable IS NOT NULL)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var table, fn, src string
		if err := rows.Scan(&table, &fn, &src); err != nil {
			t.Fatal(err)
		}
		n++
		if transitionJoin.MatchString(src) {
			t.Errorf("trigger function %s (on %s) joins its transition tables: %s", fn, table, transitionJoin.FindString(src))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 4 {
		t.Fatalf("%d trigger functions with transition tables on products and product_publications, want at least 4", n)
	}
}

// transitionJoin matches a join of the transition tables "changed" and "before" in either order.
var transitionJoin = regexp.MustCompile(`(?is)\b(changed|before)\s+\w+\s+(LEFT\s+|INNER\s+)?JOIN\s+(changed|before)\b`)
