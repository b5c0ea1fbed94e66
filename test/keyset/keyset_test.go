package keyset

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

var names = []string{"Red shoe", "Blue shoe", "Green hat", "red shoe", "Blue shoe"}

// mkProducts makes 25 products p00…p24, created in a shuffled code order (10 of them by one bulk,
// so with ties on createdAt), with repeated display names; every third is activated. It returns
// their uuids by code.
func mkProducts(t *testing.T, c *Client) map[string]string {
	t.Helper()
	codes := make([]string, 25)
	for i := range codes {
		codes[i] = fmt.Sprintf("p%02d", i)
	}
	rand.New(rand.NewPCG(15, 3)).Shuffle(len(codes), func(i, j int) { codes[i], codes[j] = codes[j], codes[i] })
	body := func(i int) map[string]any {
		return Body("code", codes[i], "kind", "simple", "displayName", names[i%len(names)])
	}
	var bulk []any
	for i := range 10 {
		bulk = append(bulk, body(i))
	}
	made := Want(t, c.Post("/v1/products/bulk", bulk), 201).Objs()
	for i := 10; i < len(codes); i++ {
		made = append(made, Want(t, c.Post("/v1/products", body(i)), 201).Obj())
	}
	out := map[string]string{}
	for i, p := range made {
		out[Str(p, "code")] = Str(p, "uuid")
		if i%3 == 0 {
			Want(t, c.Patch("/v1/products/"+Str(p, "uuid")+"/actions/lifecycle", Body("transition", "activate")), 200)
		}
	}
	return out
}

// offset is the whole list at path (with the query parameters q) as one offset page.
func offset(t *testing.T, c *Client, path string, q ...string) []string {
	t.Helper()
	r := Want(t, c.Get(path+Q(append(slices.Clone(q), "size", "100")...)), 200)
	WantNextCursor(t, path+" in one page", r.Obj()["pagination"].(map[string]any), false)
	return UUIDsOf(r.Items())
}

// walk lists path page by page from its first page, each next one by the previous page's
// nextCursor, and checks every page's pagination (the count of the first page on every page).
// between, when given, runs after each page but the last (and the pagination then is only checked
// for its page numbers: the rows it adds are not counted).
func walk(t *testing.T, c *Client, path string, size int, between func(page int, last map[string]any), q ...string) []string {
	t.Helper()
	var out []string
	total, cursor := 0, ""
	for page := 1; ; page++ {
		args := append(slices.Clone(q), "size", strconv.Itoa(size))
		if cursor != "" {
			args = append(args, "cursor", cursor)
		}
		r := Want(t, c.Get(path+Q(args...)), 200)
		p := r.Obj()["pagination"].(map[string]any)
		if page == 1 {
			total = int(p["totalItems"].(float64))
		}
		what := fmt.Sprintf("%s%s page %d", path, Q(q...), page)
		if between == nil {
			WantPagination(t, what, r, page, size, total, (total+size-1)/size)
		} else if p["page"] != float64(page) || p["totalItems"] != float64(total) {
			t.Errorf("%s: pagination %v, want page %d and the first page's totalItems %d", what, p, page, total)
		}
		out = append(out, UUIDsOf(r.Items())...)
		next, _ := p["nextCursor"].(string)
		if next == "" {
			return out
		}
		if len(r.Items()) != size || page > 50 {
			t.Fatalf("%s: %d items and a next cursor", what, len(r.Items()))
		}
		if between != nil {
			between(page, r.Items()[size-1])
		}
		cursor = next
	}
}

func TestWalkEqualsOffsetListing(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	mkProducts(t, c)
	for _, q := range [][]string{
		nil, // createdAt ascending (ties within the bulk), then uuid
		{"displayName[order]", "desc", "createdAt[order]", "asc"},
		{"status[order]", "asc", "displayName[order]", "desc", "createdAt[order]", "desc"},
		{"code[order]", "desc"},
		{"displayName[contains]", "shoe", "statuses[eq]", "draft", "code[order]", "desc"},
		{"displayNames[eq]", "Blue shoe", "displayNames[eq]", "Green hat", "updatedAt[order]", "desc"},
	} {
		want := offset(t, c, "/v1/products", q...)
		if len(want) < 5 {
			t.Fatalf("%v: only %d products", q, len(want))
		}
		for _, size := range []int{1, 3, 25} {
			if got := walk(t, c, "/v1/products", size, nil, q...); !slices.Equal(got, want) {
				t.Errorf("%v: the walk by %d listed\n%v\nthe offset listing\n%v", q, size, got, want)
			}
		}
	}
	if n := len(offset(t, c, "/v1/products")); n != 25 {
		t.Errorf("%d products", n)
	}
	// An offset page carries the cursor of the page after it too; a page past the end has none.
	r := Want(t, c.Get("/v1/products"+Q("page", "3", "size", "4", "code[order]", "asc")), 200)
	WantPagination(t, "page 3", r, 3, 4, 25, 7)
	next := Str(r.Obj()["pagination"].(map[string]any), "nextCursor")
	r = Want(t, c.Get("/v1/products"+Q("cursor", next, "size", "4", "code[order]", "asc")), 200)
	WantPagination(t, "after page 3", r, 4, 4, 25, 7)
	if got := Str(r.Items()[0], "code"); got != "p12" {
		t.Errorf("the page after page 3 starts at %s, want p12", got)
	}
	WantPagination(t, "past the end", Want(t, c.Get("/v1/products"+Q("page", "9", "size", "4")), 200), 9, 4, 25, 7)
}

// Rows inserted behind the walk's position are not listed again, rows inserted ahead are listed
// once, and the walk neither skips nor repeats a row; removing the row a cursor was made after
// does not lose the position.
func TestWalkUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	ids := mkProducts(t, c)

	// Default order: what is created during the walk comes after every row, once.
	var added []string
	got := walk(t, c, "/v1/products", 3, func(page int, _ map[string]any) {
		if page == 2 || page == 5 {
			added = append(added, Str(Want(t, c.Post("/v1/products", Body("code", fmt.Sprintf("x%d", page), "kind", "simple")), 201).Obj(), "uuid"))
		}
	})
	if want := offset(t, c, "/v1/products"); !slices.Equal(got, want) || !slices.Equal(want[len(want)-2:], added) {
		t.Errorf("walk with inserts listed\n%v\nthe listing afterwards is\n%v (inserted %v)", got, want, added)
	}

	// Code order: an insert behind the position is never listed, one ahead is listed once; the row
	// the next cursor was made after is removed.
	q := []string{"code[order]", "asc"}
	var behind string
	got = walk(t, c, "/v1/products", 3, func(page int, last map[string]any) {
		if page != 2 {
			return
		}
		if Str(last, "code") != "p05" {
			t.Fatalf("page 2 ends at %s", Str(last, "code"))
		}
		behind = Str(Want(t, c.Post("/v1/products", Body("code", "p01a", "kind", "simple")), 201).Obj(), "uuid")
		Want(t, c.Post("/v1/products", Body("code", "p05a", "kind", "simple")), 201)
		Want(t, c.Post("/v1/products", Body("code", "p99", "kind", "simple")), 201)
		Want(t, c.Patch("/v1/products/"+ids["p05"]+"/actions/lifecycle", Body("transition", "remove")), 200)
	}, q...)
	want := slices.DeleteFunc(offset(t, c, "/v1/products", q...), func(id string) bool { return id == behind })
	want = slices.Insert(want, 6-1, ids["p05"]) // listed before its removal
	if !slices.Equal(got, want) {
		t.Errorf("walk in code order with writes listed\n%v\nwant\n%v", got, want)
	}
	if len(got) != 25+2+2 || slices.Contains(got, behind) {
		t.Errorf("walk in code order: %d rows (want 29), the row inserted behind listed: %v", len(got), slices.Contains(got, behind))
	}
}

// tamper flips one bit of a cursor's bytes, keeping it base64url.
func tamper(t *testing.T, cursor string, at int) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		t.Fatalf("cursor %q is not base64url: %v", cursor, err)
	}
	b[(at+len(b))%len(b)] ^= 4
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestCursorRefused(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	mkProducts(t, c)
	first := Want(t, c.Get("/v1/products"+Q("size", "2", "statuses[eq]", "draft")), 200)
	cursor := Str(first.Obj()["pagination"].(map[string]any), "nextCursor")
	ok := Want(t, c.Get("/v1/products"+Q("statuses[eq]", "draft", "cursor", cursor, "size", "5")), 200)
	WantPagination(t, "another size", ok, 2, 5, 16, 4)

	for what, q := range map[string][]string{
		"last byte changed":  {"statuses[eq]", "draft", "cursor", tamper(t, cursor, -1)},
		"first byte changed": {"statuses[eq]", "draft", "cursor", tamper(t, cursor, 0)},
		"tag changed":        {"statuses[eq]", "draft", "cursor", tamper(t, cursor, 5)},
		"value changed":      {"statuses[eq]", "draft", "cursor", tamper(t, cursor, -20)},
		"not base64url":      {"statuses[eq]", "draft", "cursor", cursor + "!"},
		"empty":              {"statuses[eq]", "draft", "cursor", ""},
		"other filters":      {"statuses[eq]", "active", "cursor", cursor},
		"no filters":         {"cursor", cursor},
		"other order":        {"statuses[eq]", "draft", "code[order]", "desc", "cursor", cursor},
	} {
		Problem(t, what, c.Get("/v1/products"+Q(q...)), 400, "VALIDATION_FAILED", "cursor")
	}
	WantProblem(t, c.Get("/v1/attributes"+Q("cursor", cursor)), 400, "VALIDATION_FAILED", "cursor")
	WantProblem(t, c.Get("/v1/products"+Q("statuses[eq]", "draft", "cursor", cursor, "page", "2")), 400, "VALIDATION_FAILED", "page")
	long := make([]byte, 4097)
	for i := range long {
		long[i] = 'A'
	}
	WantProblem(t, c.Get("/v1/products"+Q("cursor", string(long))), 400, "VALIDATION_FAILED", "cursor")

	// A sub-resource list's cursor continues the same parent's list only.
	a := Str(Want(t, c.Post("/v1/attributes", Body("code", "color")), 201).Obj(), "uuid")
	b := Str(Want(t, c.Post("/v1/attributes", Body("code", "size")), 201).Obj(), "uuid")
	for _, attr := range []string{a, b} {
		for i := range 3 {
			Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", fmt.Sprintf("t%d", i))), 201)
		}
	}
	r := Want(t, c.Get("/v1/attributes/"+a+"/terms"+Q("size", "2")), 200)
	terms := Str(r.Obj()["pagination"].(map[string]any), "nextCursor")
	Want(t, c.Get("/v1/attributes/"+a+"/terms"+Q("cursor", terms)), 200)
	WantProblem(t, c.Get("/v1/attributes/"+b+"/terms"+Q("cursor", terms)), 400, "VALIDATION_FAILED", "cursor")
}

// Lists of other families walk the same way: a tenant's top-level list, a sub-resource list and
// the global event type catalog.
func TestEveryListWalks(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	attr := ""
	for i := range 7 {
		a := Want(t, c.Post("/v1/attributes", Body("code", fmt.Sprintf("a%d", i), "displayName", names[i%len(names)])), 201).Obj()
		if i == 0 {
			attr = Str(a, "uuid")
		}
	}
	for i := range 8 {
		Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", fmt.Sprintf("t%d", i), "position", i%3)), 201)
	}
	for _, l := range []struct {
		path string
		q    []string
	}{
		{"/v1/attributes", []string{"displayName[order]", "asc"}},
		{"/v1/attributes/" + attr + "/terms", []string{"position[order]", "desc", "code[order]", "asc"}},
		{"/v1/attributes/" + attr + "/terms", nil},
		{"/v1/webhook-event-types", []string{"name[starts]", "product.", "name[order]", "desc"}},
	} {
		want := offset(t, c, l.path, l.q...)
		if got := walk(t, c, l.path, 3, nil, l.q...); len(want) < 7 || !slices.Equal(got, want) {
			t.Errorf("%s%s: the walk listed\n%v\nthe offset listing\n%v", l.path, Q(l.q...), got, want)
		}
	}
}

func TestGRPCWalk(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	c := env.ClientFor(t, tenant)
	mkProducts(t, c)
	want := offset(t, c, "/v1/products", "displayName[order]", "desc")
	ctx := GRPCContext(t, tenant)
	pc := pb.NewProductServiceClient(env.GRPC)
	order := []*pb.OrderBy{{Field: "displayName", Direction: pb.SortDirection_SORT_DIRECTION_DESC}}
	req := &pb.ListProductsRequest{OrderBy: order, Size: new(int32(3))}
	var got []string
	var cursors []string
	for page := int32(1); ; page++ {
		res, err := pc.ListProducts(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Items {
			got = append(got, p.Uuid)
		}
		pg := res.Pagination
		if pg.Page != page || pg.TotalItems != 25 || pg.TotalPages != 9 || (pg.NextCursor == nil) != (page == 9) {
			t.Fatalf("page %d: pagination %v", page, pg)
		}
		if pg.NextCursor == nil {
			break
		}
		cursors = append(cursors, pg.GetNextCursor())
		req.Cursor = pg.NextCursor
	}
	if !slices.Equal(got, want) {
		t.Errorf("gRPC walk listed\n%v\nthe REST offset listing\n%v", got, want)
	}
	// A gRPC cursor is a REST cursor.
	r := Want(t, c.Get("/v1/products"+Q("displayName[order]", "desc", "size", "3", "cursor", cursors[2])), 200)
	if !slices.Equal(UUIDsOf(r.Items()), want[9:12]) {
		t.Errorf("REST page after the gRPC cursor of page 3: %v, want %v", UUIDsOf(r.Items()), want[9:12])
	}
	_, err := pc.ListProducts(ctx, &pb.ListProductsRequest{OrderBy: order, Cursor: new(tamper(t, cursors[0], -3))})
	WantGRPC(t, "tampered cursor", err, codes.InvalidArgument, "VALIDATION_FAILED", "cursor")
	_, err = pc.ListProducts(ctx, &pb.ListProductsRequest{Cursor: new(cursors[0])})
	WantGRPC(t, "cursor of another order", err, codes.InvalidArgument, "VALIDATION_FAILED", "cursor")
	_, err = pc.ListProducts(ctx, &pb.ListProductsRequest{OrderBy: order, Cursor: new(cursors[0]), Page: new(int32(2))})
	WantGRPC(t, "cursor with page", err, codes.InvalidArgument, "VALIDATION_FAILED", "page")
}
