package product_relations

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// both runs two calls at the same moment and returns their errors.
func both(calls ...func() error) []error {
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, len(calls))
	for i, call := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = call()
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// held runs calls concurrently while a transaction of the test holds the row locks lockSQL takes,
// and releases them only once two backends are waiting behind it (one on the test's locks, the
// other on the first): the requests then really overlap in the database, whatever the timing.
func held(t *testing.T, lockSQL string, args []any, calls ...func() error) []error {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, lockSQL, args...); err != nil {
		t.Fatal(err)
	}
	var me int
	if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&me); err != nil {
		t.Fatal(err)
	}
	done := make(chan []error, 1)
	go func() { done <- both(calls...) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var waiting int
		err := pool.QueryRow(ctx, `WITH first AS (SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)))
			SELECT (SELECT count(*) FROM first) + (SELECT count(*) FROM pg_stat_activity
			WHERE pg_blocking_pids(pid) && ARRAY(SELECT pid FROM first))`, me).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting >= 2 {
			break
		}
		select {
		case errs := <-done:
			t.Fatalf("the requests finished without waiting on each other: %v", errs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the requests did not overlap within 20 s (%d waiting)", waiting)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := tx.Rollback(ctx); err != nil && err != pgx.ErrTxClosed {
		t.Fatal(err)
	}
	return <-done
}

// Two requests relating A→B and B→A by the same two-way type at the same moment leave exactly
// one pair: one succeeds, the other is 409 ALREADY_EXISTS (never a second pair, a deadlock or a
// 500). Two deletes of the pair from both sides at once delete it once: one succeeds, the other
// is 404. Even rounds hold the requests in the database until both wait (a guaranteed overlap);
// odd rounds just fire them together.
func TestConcurrentTwoWay(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := GRPCContext(t, tenant)
	rc := pb.NewProductRelationServiceClient(env.GRPC)
	two := mkType(t, c, "two_way")
	for round := range 20 {
		a, b := mkProduct(t, c), mkProduct(t, c)
		log := NewEventLog(pool, tenant).Skip(t)
		forced := round%2 == 0

		res := make([]*pb.ProductRelation, 2)
		create := func(i int, from, to string) func() error {
			return func() error {
				out, err := rc.CreateProductRelation(ctx, &pb.CreateProductRelationRequest{ProductUuid: from,
					ProductRelation: &pb.ProductRelationCreate{ProductRelationTypeUuid: two, TargetProductUuid: to}})
				res[i] = out.GetProductRelation()
				return err
			}
		}
		var errs []error
		if forced {
			// The inserts' foreign-key checks need the two products: lock them.
			errs = held(t, "SELECT 1 FROM products WHERE tenant_id = $1 AND uuid IN ($2, $3) FOR UPDATE", []any{tenant, a, b},
				create(0, a, b), create(1, b, a))
		} else {
			errs = both(create(0, a, b), create(1, b, a))
		}
		won, lost := 0, 1
		if errs[0] != nil {
			won, lost = 1, 0
		}
		if errs[won] != nil {
			t.Fatalf("round %d: both failed: %v / %v", round, errs[0], errs[1])
		}
		WantGRPC(t, "the loser", errs[lost], codes.AlreadyExists, "ALREADY_EXISTS", "targetProductUuid")
		w := res[won]
		if n := relationRows(t, tenant, "'"+a+"' IN (product_uuid, target_product_uuid)"); n != 2 {
			t.Fatalf("round %d: %d rows between the two products, want exactly one pair", round, n)
		}
		inv := Want(t, c.Get(base(w.TargetProductUuid)+"/"+w.GetInverseRelationUuid()), 200).Obj()
		wantRel(t, "the inverse", inv, w.TargetProductUuid, two, w.ProductUuid, w.Uuid)
		log.Expect(t, "one pair's events", ev("linked", w.ProductUuid, w.Uuid), ev("linked", w.TargetProductUuid, w.GetInverseRelationUuid()))

		del := func(product, id string) func() error {
			return func() error {
				_, err := rc.DeleteProductRelation(ctx, &pb.DeleteProductRelationRequest{ProductUuid: product, ProductRelationUuid: id})
				return err
			}
		}
		if forced {
			// The deletes need the two rows: lock them.
			errs = held(t, "SELECT 1 FROM product_relations WHERE tenant_id = $1 AND uuid IN ($2, $3) FOR UPDATE", []any{tenant, w.Uuid, w.GetInverseRelationUuid()},
				del(w.ProductUuid, w.Uuid), del(w.TargetProductUuid, w.GetInverseRelationUuid()))
		} else {
			errs = both(del(w.ProductUuid, w.Uuid), del(w.TargetProductUuid, w.GetInverseRelationUuid()))
		}
		var ok, notFound int
		for _, err := range errs {
			switch status.Code(err) {
			case codes.OK:
				ok++
			case codes.NotFound:
				notFound++
			default:
				t.Errorf("round %d: concurrent delete: %v", round, err)
			}
		}
		if ok != 1 || notFound != 1 {
			t.Errorf("round %d: concurrent deletes: %d succeeded, %d not found (%v)", round, ok, notFound, errs)
		}
		if n := relationRows(t, tenant, "'"+a+"' IN (product_uuid, target_product_uuid)"); n != 0 {
			t.Errorf("round %d: %d rows left after deleting the pair", round, n)
		}
		log.Expect(t, "the pair's unlink events", ev("unlinked", w.ProductUuid, w.Uuid), ev("unlinked", w.TargetProductUuid, w.GetInverseRelationUuid()))
	}
}
