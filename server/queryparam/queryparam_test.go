package queryparam

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/utilities"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

// noFilter is what the generated code passes for a request without path parameters.
var noFilter = &utilities.DoubleArray{Encoding: map[string]int{}, Base: []int(nil), Check: []int(nil)}

func parse(t *testing.T, msg proto.Message, rawQuery string, filter *utilities.DoubleArray) error {
	t.Helper()
	values, err := url.ParseQuery(rawQuery)
	if err != nil {
		t.Fatalf("ParseQuery(%q): %v", rawQuery, err)
	}
	return Parser{}.Parse(msg, values, filter)
}

func wantErr(t *testing.T, err error, field, msg string) {
	t.Helper()
	var de *apierr.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("want *apierr.DecodeError for %q, got %v", field, err)
	}
	if de.Field != field || de.Message != msg {
		t.Errorf("got %q %q, want %q %q", de.Field, de.Message, field, msg)
	}
}

func tsOf(s string) *timestamppb.Timestamp {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return timestamppb.New(t)
}

func TestParseEveryOperatorKind(t *testing.T) {
	q := "uuids[eq]=u1&uuids[eq]=u2&codes[eq]=c1&code[contains]=col&code[starts]=c&code[ends]=r" +
		"&displayNames[eq]=Color&display_name[contains]=ol&displayName[ends]=" + // proto name; empty value
		"&statuses[eq]=draft&statuses[eq]=removed" +
		"&createdAt[min]=2026-01-02T03:04:05Z&createdAt[max]=2026-01-03T00:00:00.123456%2B02:00" +
		"&updatedAt[eq]=2026-01-02T03:04:05.5Z&isRemoved[eq]=true" +
		"&page=2&size=50&include[contents]=1&expand[contents]=false"
	var got catalogv1.ListAttributesRequest
	if err := parse(t, &got, q, noFilter); err != nil {
		t.Fatal(err)
	}
	want := &catalogv1.ListAttributesRequest{
		Uuids:        &catalogv1.StringsFilter{Eq: []string{"u1", "u2"}},
		Codes:        &catalogv1.StringsFilter{Eq: []string{"c1"}},
		Code:         &catalogv1.StringFilter{Contains: proto.String("col"), Starts: proto.String("c"), Ends: proto.String("r")},
		DisplayNames: &catalogv1.StringsFilter{Eq: []string{"Color"}},
		DisplayName:  &catalogv1.StringFilter{Contains: proto.String("ol"), Ends: proto.String("")},
		Statuses:     &catalogv1.StringsFilter{Eq: []string{"draft", "removed"}},
		CreatedAt:    &catalogv1.TimeFilter{Min: tsOf("2026-01-02T03:04:05Z"), Max: tsOf("2026-01-02T22:00:00.123456Z")},
		UpdatedAt:    &catalogv1.TimeFilter{Eq: tsOf("2026-01-02T03:04:05.5Z")},
		IsRemoved:    &catalogv1.BoolFilter{Eq: proto.Bool(true)},
		Page:         proto.Int32(2),
		Size:         proto.Int32(50),
		Include:      &catalogv1.AttributeInclude{Contents: true},
		Expand:       &catalogv1.AttributeInclude{Contents: false},
	}
	if !proto.Equal(&got, want) {
		t.Errorf("got  %v\nwant %v", &got, want)
	}
	// Unset filters stay nil: "no filter", unlike an empty one.
	var empty catalogv1.ListAttributesRequest
	if err := parse(t, &empty, "", noFilter); err != nil || empty.Codes != nil || empty.OrderBy != nil {
		t.Errorf("empty query: %v %v", &empty, err)
	}
}

func TestParseBoolForms(t *testing.T) {
	for in, want := range map[string]bool{"true": true, "1": true, "false": false, "0": false} {
		var got catalogv1.ListLocalesRequest
		if err := parse(t, &got, "isDefault[eq]="+in, noFilter); err != nil {
			t.Fatal(err)
		}
		if got.IsDefault == nil || got.IsDefault.Eq == nil || *got.IsDefault.Eq != want {
			t.Errorf("%s → %v", in, got.IsDefault)
		}
	}
	for _, in := range []string{"yes", "TRUE", "True", "", "2", "on"} {
		wantErr(t, parse(t, &catalogv1.ListLocalesRequest{}, "isDefault[eq]="+in, noFilter), "isDefault[eq]", "must be true or false")
	}
}

func TestParseMalformedValues(t *testing.T) {
	cases := []struct{ q, field, msg string }{
		{"page=abc", "page", "must be an integer from -2147483648 to 2147483647"},
		{"page=1.5", "page", "must be an integer from -2147483648 to 2147483647"},
		{"size=2147483648", "size", "must be an integer from -2147483648 to 2147483647"},
		{"size=", "size", "must be an integer from -2147483648 to 2147483647"},
		{"page=%201", "page", "must be an integer from -2147483648 to 2147483647"},
		{"createdAt[min]=2026-01-02", "createdAt[min]", msgDateTime},
		{"createdAt[min]=2026-01-02T03:04:05", "createdAt[min]", msgDateTime},
		{"createdAt[max]=2026-01-02T03:04:05+02:00", "createdAt[max]", msgDateTime}, // unescaped + is a space
		{"updatedAt[eq]=yesterday", "updatedAt[eq]", msgDateTime},
		{"isRemoved[eq]=maybe", "isRemoved[eq]", msgBool},
		{"include[contents]=yes", "include[contents]", msgBool},
		{"code[contains]=%FF", "code[contains]", "invalid UTF-8"},
		{"codes[eq]=a&codes[eq]=%C3", "codes[eq]", "invalid UTF-8"},
	}
	for _, c := range cases {
		wantErr(t, parse(t, &catalogv1.ListAttributesRequest{}, c.q, noFilter), c.field, c.msg)
	}
	// Enums (the transition of a lifecycle request, given as a query parameter for the test).
	var tr catalogv1.TransitionAttributeRequest
	if err := parse(t, &tr, "transition=unpublish", noFilter); err != nil || tr.Transition != catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_UNPUBLISH {
		t.Errorf("enum: %v %v", tr.Transition, err)
	}
	for _, in := range []string{"2", "unspecified", "Publish", "bogus", "ATTRIBUTE_TRANSITION_RESTORE"} {
		wantErr(t, parse(t, &catalogv1.TransitionAttributeRequest{}, "transition="+in, noFilter), "transition", "must be one of: publish, unpublish, remove, restore")
	}
}

func TestParseUnknownKeys(t *testing.T) {
	cases := []struct{ q, field, msg string }{
		{"foo=1", "foo", msgUnknown},
		{"codes[eqq]=a", "codes[eqq]", "unknown operator; use codes[eq]"},
		{"code[eq]=a", "code[eq]", "unknown operator; use code[contains], code[starts], code[ends]"},
		{"createdAt[after]=2026-01-02T03:04:05Z", "createdAt[after]", "unknown operator; use createdAt[eq], createdAt[min], createdAt[max]"},
		{"codess[eq]=a", "codess[eq]", msgUnknown},
		{"page[eq]=1", "page[eq]", "takes no operator"},
		{"codes=a", "codes", "needs an operator: codes[eq]"},
		{"include=contents", "include", "needs an operator: include[contents]"},
		{"include[contents]x=1", "include[contents]x", msgUnknown},
		{"codes[eq=a", "codes[eq", msgUnknown},
		{"codes]=a", "codes]", msgUnknown},
		{"codes[eq][x]=a", "codes[eq][x]", msgUnknown},
		{"[eq]=a", "[eq]", msgUnknown},
		{"codes[]=a", "codes[]", msgUnknown},
		{"orderBy=code", "orderBy", msgUnknown},
		{"order_by[field]=code", "order_by[field]", msgUnknown},
		{"Page=1", "Page", msgUnknown},
		{"codes.eq=a", "codes.eq", msgUnknown},
	}
	for _, c := range cases {
		wantErr(t, parse(t, &catalogv1.ListAttributesRequest{}, c.q, noFilter), c.field, c.msg)
	}
	wantErr(t, parse(t, &catalogv1.ListAttributesRequest{}, "co%FFde=1", noFilter), "co\uFFFDde", msgUnknown)
	// Deterministic: the first bad key in byte order.
	wantErr(t, parse(t, &catalogv1.ListAttributesRequest{}, "zzz=1&aaa=1&page=1", noFilter), "aaa", msgUnknown)
}

func TestParseGivenTwice(t *testing.T) {
	cases := []struct{ q, field string }{
		{"page=1&page=2", "page"},
		{"code[contains]=a&code[contains]=b", "code[contains]"},
		{"isRemoved[eq]=true&isRemoved[eq]=true", "isRemoved[eq]"},
		{"createdAt[min]=2026-01-02T03:04:05Z&createdAt[min]=2026-01-02T03:04:05Z", "createdAt[min]"},
		// The same field under its JSON and its proto name (the later key in byte order is named).
		{"display_name[contains]=b&displayName[contains]=a", "display_name[contains]"},
		{"display_names[eq]=a&displayNames[eq]=b", "display_names[eq]"},
		{"code[order]=asc&code[order]=desc", "code[order]"},
	}
	for _, c := range cases {
		wantErr(t, parse(t, &catalogv1.ListAttributesRequest{}, c.q, noFilter), c.field, msgTwice)
	}
}

func TestParseSingleOrder(t *testing.T) {
	for _, c := range []struct{ q, field string }{
		{"code[order]=asc", "code"},
		{"displayName[order]=DESC", "displayName"},
		{"display_name[order]=Desc", "displayName"},
		{"status[order]=asc", "status"}, // an order field that is not a filter field
	} {
		var got catalogv1.ListAttributesRequest
		if err := parse(t, &got, c.q, noFilter); err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if len(got.OrderBy) != 1 || got.OrderBy[0].Field != c.field {
			t.Errorf("%s → %v", c.q, got.OrderBy)
		}
	}
	var got catalogv1.ListAttributesRequest
	_ = parse(t, &got, "createdAt[order]=desc", noFilter)
	if len(got.OrderBy) != 1 || got.OrderBy[0].Direction != catalogv1.SortDirection_SORT_DIRECTION_DESC {
		t.Errorf("direction: %v", got.OrderBy)
	}
}

func TestParseOrderErrors(t *testing.T) {
	orderable := "cannot be ordered; orderable fields: code, displayName, status, createdAt, updatedAt"
	cases := []struct {
		msg       proto.Message
		q, field  string
		wantError string
	}{
		{&catalogv1.ListAttributesRequest{}, "uuid[order]=asc", "uuid[order]", orderable},
		{&catalogv1.ListAttributesRequest{}, "isRemoved[order]=asc", "isRemoved[order]", orderable},
		{&catalogv1.ListAttributesRequest{}, "Code[order]=asc", "Code[order]", orderable},
		{&catalogv1.ListLocalesRequest{}, "status[order]=asc", "status[order]", "cannot be ordered; orderable fields: code, displayName, createdAt, updatedAt"},
		{&catalogv1.ListAttributesRequest{}, "code[order]=up", "code[order]", msgOrderValue},
		{&catalogv1.ListAttributesRequest{}, "code[order]=", "code[order]", msgOrderValue},
		{&catalogv1.ListAttributesRequest{}, "code[order]=ascending", "code[order]", msgOrderValue},
		// A request without order_by takes no [order] at all.
		{&catalogv1.GetAttributeRequest{}, "code[order]=asc", "code[order]", msgUnknown},
	}
	for _, c := range cases {
		wantErr(t, parse(t, c.msg, c.q, noFilter), c.field, c.wantError)
	}
}

func TestParseSeveralOrdersNeedTheMiddleware(t *testing.T) {
	err := parse(t, &catalogv1.ListAttributesRequest{}, "code[order]=asc&createdAt[order]=desc", noFilter)
	if !errors.Is(err, ErrOrderNotPreserved) {
		t.Errorf("got %v", err)
	}
	// A client-made __order is refused unless it is exactly the [order] keys present.
	for _, q := range []string{
		"__order=code[order]",
		"code[order]=asc&__order=code[order]",
		"code[order]=asc&createdAt[order]=desc&__order=code[order]",
		"code[order]=asc&createdAt[order]=desc&__order=code[order]&__order=code[order]",
		"code[order]=asc&createdAt[order]=desc&__order=code[order]&__order=page",
	} {
		wantErr(t, parse(t, &catalogv1.ListAttributesRequest{}, q, noFilter), OrderKey, msgUnknown)
	}
}

// serve runs a request through PreserveOrder into a handler that parses the query as the
// generated gateway code does (req.ParseForm, then the parser with req.Form).
func serve(t *testing.T, target string, msg proto.Message) (error, *http.Request) {
	t.Helper()
	var perr error
	var seen *http.Request
	h := PreserveOrder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r
		if err := r.ParseForm(); err != nil {
			perr = err
			return
		}
		perr = Parser{}.Parse(msg, r.Form, noFilter)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, target, nil))
	return perr, seen
}

func orderOf(r *catalogv1.ListAttributesRequest) []string {
	var out []string
	for _, o := range r.OrderBy {
		out = append(out, o.Field+" "+o.Direction.String())
	}
	return out
}

func TestOrderSequencePreservedByMiddleware(t *testing.T) {
	cases := []struct {
		target string
		want   []string
	}{
		{"/v1/attributes?createdAt[order]=desc&size=5&code[order]=ASC", []string{"createdAt SORT_DIRECTION_DESC", "code SORT_DIRECTION_ASC"}},
		{"/v1/attributes?code[order]=asc&createdAt[order]=desc", []string{"code SORT_DIRECTION_ASC", "createdAt SORT_DIRECTION_DESC"}},
		{"/v1/attributes?updatedAt%5Border%5D=asc&status[order]=desc&displayName[order]=asc&code[order]=desc",
			[]string{"updatedAt SORT_DIRECTION_ASC", "status SORT_DIRECTION_DESC", "displayName SORT_DIRECTION_ASC", "code SORT_DIRECTION_DESC"}},
		// A client's own __order (here trying to reverse the order) is dropped.
		{"/v1/attributes?__order=code[order]&__order=status[order]&status[order]=asc&code[order]=desc",
			[]string{"status SORT_DIRECTION_ASC", "code SORT_DIRECTION_DESC"}},
		{"/v1/attributes?%5F%5Forder=x&code[order]=asc", []string{"code SORT_DIRECTION_ASC"}},
	}
	for _, c := range cases {
		var got catalogv1.ListAttributesRequest
		err, r := serve(t, c.target, &got)
		if err != nil {
			t.Fatalf("%s: %v", c.target, err)
		}
		if o := orderOf(&got); !slices.Equal(o, c.want) {
			t.Errorf("%s:\ngot  %v\nwant %v", c.target, o, c.want)
		}
		if r.RequestURI != c.target {
			t.Errorf("RequestURI changed to %q", r.RequestURI)
		}
	}
}

func TestPreserveOrderLeavesOtherRequestsAlone(t *testing.T) {
	in := httptest.NewRequest(http.MethodGet, "/v1/attributes?codes[eq]=a&code[order]=asc&page=1", nil)
	var out *http.Request
	PreserveOrder(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { out = r })).ServeHTTP(httptest.NewRecorder(), in)
	if out != in {
		t.Error("a request with fewer than two [order] keys and no __order must pass unchanged")
	}

	in = httptest.NewRequest(http.MethodGet, "/v1/attributes?b[order]=asc&a[order]=desc&x=1", nil)
	PreserveOrder(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { out = r })).ServeHTTP(httptest.NewRecorder(), in)
	if in.URL.RawQuery != "b[order]=asc&a[order]=desc&x=1" {
		t.Errorf("the caller's request was modified: %q", in.URL.RawQuery)
	}
	if got, want := out.URL.Query()[OrderKey], []string{"b[order]", "a[order]"}; !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", OrderKey, got, want)
	}
}

func TestPreserveOrderWithFormAlreadyParsed(t *testing.T) {
	in := httptest.NewRequest(http.MethodGet, "/v1/attributes?updatedAt[order]=asc&code[order]=desc&__order=evil", nil)
	if err := in.ParseForm(); err != nil { // an outer middleware parsed it first
		t.Fatal(err)
	}
	var got catalogv1.ListAttributesRequest
	var perr error
	PreserveOrder(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		perr = Parser{}.Parse(&got, r.Form, noFilter)
	})).ServeHTTP(httptest.NewRecorder(), in)
	if perr != nil {
		t.Fatal(perr)
	}
	if o := orderOf(&got); !slices.Equal(o, []string{"updatedAt SORT_DIRECTION_ASC", "code SORT_DIRECTION_DESC"}) {
		t.Errorf("got %v", o)
	}
}

func TestOrderedKeys(t *testing.T) {
	got := OrderedKeys("a=1&b%5Border%5D=2&a=3&c;d=4&%zz=1&&e&=5&f+g=6")
	want := []string{"a", "b[order]", "e", "", "f g"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := OrderedKeys(""); len(got) != 0 {
		t.Errorf("empty: %q", got)
	}
}

func TestParseSkipsFilteredPaths(t *testing.T) {
	// The generated filter of ListAttributeContents: the path parameter attribute_uuid.
	pathFilter := utilities.NewDoubleArray([][]string{{"attribute_uuid"}})
	for _, q := range []string{"attributeUuid=evil", "attribute_uuid=evil", "attributeUuid=a&attribute_uuid=b"} {
		req := catalogv1.ListAttributeContentsRequest{AttributeUuid: "from-path"}
		if err := parse(t, &req, q+"&uuids[eq]=x", pathFilter); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if req.AttributeUuid != "from-path" || len(req.GetUuids().GetEq()) != 1 {
			t.Errorf("%s: %v", q, &req)
		}
	}
	// Without the filter the same key is a field like any other.
	var req catalogv1.ListAttributeContentsRequest
	if err := parse(t, &req, "attributeUuid=x", noFilter); err != nil || req.AttributeUuid != "x" {
		t.Errorf("unfiltered: %v %v", req.AttributeUuid, err)
	}
	if err := (Parser{}).Parse(&req, url.Values{"page": {"3"}}, nil); err != nil || req.GetPage() != 3 {
		t.Errorf("nil filter: %v %v", req.GetPage(), err)
	}
	// Nested paths: a body field `include` excludes include[contents]; a filter on one
	// operator excludes only that one.
	var g catalogv1.GetAttributeRequest
	if err := parse(t, &g, "include[contents]=true&expand[contents]=true", utilities.NewDoubleArray([][]string{{"include"}})); err != nil {
		t.Fatal(err)
	}
	if g.Include != nil || !g.GetExpand().GetContents() {
		t.Errorf("got %v", &g)
	}
	var l catalogv1.ListAttributesRequest
	if err := parse(t, &l, "code[contains]=a&code[starts]=b", utilities.NewDoubleArray([][]string{{"code", "contains"}})); err != nil {
		t.Fatal(err)
	}
	if l.Code.Contains != nil || l.Code.GetStarts() != "b" {
		t.Errorf("got %v", &l)
	}
	// An unknown key is still an error next to filtered ones.
	wantErr(t, parse(t, &catalogv1.ListAttributeContentsRequest{}, "attributeUuid=a&nope=1", pathFilter), "nope", msgUnknown)
}

// A list of scalars is `name[]` (or its plain name); q and facetSize are plain scalars.
func TestParseScalarLists(t *testing.T) {
	var got catalogv1.ListProductsRequest
	if err := parse(t, &got, "facets[]=brands&facets[]=kinds&q=red+boot&facetSize=5", noFilter); err != nil {
		t.Fatal(err)
	}
	want := &catalogv1.ListProductsRequest{Facets: []string{"brands", "kinds"}, Q: proto.String("red boot"), FacetSize: proto.Int32(5)}
	if !proto.Equal(&got, want) {
		t.Errorf("got %v, want %v", &got, want)
	}
	for query, param := range map[string]string{
		"facets[]=a&facets=b": "facets[]", // the same field twice
		"q[]=x":               "q[]",      // not a list
		"codes[]=x":           "codes[]",  // a filter message, not a list of scalars
		"nope[]=x":            "nope[]",
	} {
		var m catalogv1.ListProductsRequest
		err := parse(t, &m, query, noFilter)
		var de *apierr.DecodeError
		if !errors.As(err, &de) || (de.Field != param && de.Field != "facets") {
			t.Errorf("%s: %v, want a decode error naming %s", query, err, param)
		}
	}
}
