package queryparam

import (
	"errors"
	"net/url"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
)

// FuzzParse feeds arbitrary query strings to the parser for a few list requests. Properties: it
// never panics; a refusal is an *apierr.DecodeError naming the parameter in valid UTF-8 (it goes
// into a protobuf string) or ErrOrderNotPreserved; what it accepts is a message that the gRPC hop
// can carry (proto.Marshal succeeds: every string valid UTF-8), and parsing the same query again
// gives the same message. Seeds: testdata/fuzz/FuzzParse (they run in plain go test).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "page=2&size=20", "code[contains]=col&statuses[eq]=draft&code[order]=asc",
		"uuids[eq]=a&uuids[eq]=b", "createdAt[min]=2026-01-02T03:04:05Z", "isRemoved[eq]=true",
		"include[contents]=true&expand[contents]=1", "code%5Border%5D=desc&createdAt[order]=asc&__order=code%5Border%5D&__order=createdAt%5Border%5D",
		"code[contains]=%FF%FE", "code[contains]=%00", "%ff[eq]=x", "code[[eq]]=x", "code[]=x", "[eq]=x", "code[eq=x",
		"size=99999999999999999999", "page=-1", "createdAt[eq]=0000-00-00", "code[contains]=a;b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		values, err := url.ParseQuery(raw)
		if err != nil {
			return // the gateway refuses these before the parser
		}
		for _, newMsg := range []func() proto.Message{
			func() proto.Message { return &pb.ListAttributesRequest{} },
			func() proto.Message { return &pb.ListProductsRequest{} },
			func() proto.Message { return &pb.ListWebhookEventTypesRequest{} },
		} {
			m := newMsg()
			err := Parser{}.Parse(m, values, nil)
			if err != nil {
				var de *apierr.DecodeError
				switch {
				case errors.As(err, &de):
					if !utf8.ValidString(de.Field) || de.Message == "" {
						t.Fatalf("decode error %q: field not valid UTF-8 or no message", de.Error())
					}
				case errors.Is(err, ErrOrderNotPreserved):
				default:
					t.Fatalf("%q: error %T %v is not a DecodeError", raw, err, err)
				}
				continue
			}
			if _, err := proto.Marshal(m); err != nil {
				t.Fatalf("%q: accepted a message the gRPC hop cannot carry: %v", raw, err)
			}
			again := newMsg()
			if err := (Parser{}).Parse(again, values, nil); err != nil || !proto.Equal(m, again) {
				t.Fatalf("%q: a second parse differs: %v", raw, err)
			}
		}
	})
}
