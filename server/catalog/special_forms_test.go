package catalog

import (
	"regexp"
	"testing"

	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/fields"
)

// The patterns the OpenAPI document states for the special forms (fields.PatternOf) never refuse a
// value the service accepts, and refuse values the service refuses for their syntax: a client that
// validates against the document is not stricter than the service.
func TestSpecialFormPatternsAgreeWithTheService(t *testing.T) {
	cases := []struct {
		name    string
		pattern string
		accepts func(string) bool
		values  []string
	}{
		{"locale code", fields.LocaleCodePattern, func(s string) bool { return canonicalLocale(s) != "" },
			[]string{"en", "en-US", "en_us", "de-CH-1996", "zh-Hant-TW", "sr-Latn", "es-419", "x-private", "i-klingon",
				"en-US-u-co-phonebk", "", "en-", "-en", "en US", "en--US", "english-language-tag", "en-US\x00", "ü", "123", "*"}},
		{"sha-256", fields.SHA256HexPattern, isSHA256Hex,
			[]string{"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
				"E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855",
				"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85", "g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", ""}},
		{"media type", fields.MediaTypePattern, func(s string) bool { _, err := blobstore.CanonicalContentType(s); return err == nil },
			[]string{"image/jpeg", "application/pdf", "text/plain; charset=utf-8", "application/vnd.api+json", " image/png ",
				"IMAGE/PNG", "image", "image/", "/png", "*/*", "image/*", "image/png/x", "image png", "ïmage/png", ""}},
	}
	for _, c := range cases {
		re := regexp.MustCompile(c.pattern)
		refused := 0
		for _, v := range c.values {
			ok, match := c.accepts(v), re.MatchString(v)
			if ok && !match {
				t.Errorf("%s %q: the service accepts it, the pattern %s refuses it", c.name, v, c.pattern)
			}
			if !match {
				refused++
			}
		}
		if refused == 0 {
			t.Errorf("%s: the pattern refuses none of the samples", c.name)
		}
	}
	// Each pattern refuses a value of each kind the service refuses for its syntax.
	for pattern, bad := range map[string][]string{
		fields.LocaleCodePattern: {"en US", "en--US", "", "*"},
		fields.SHA256HexPattern:  {"abc", "g3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		fields.MediaTypePattern:  {"image", "image/", "image png", ""},
	} {
		for _, v := range bad {
			if regexp.MustCompile(pattern).MatchString(v) {
				t.Errorf("pattern %s accepts %q", pattern, v)
			}
		}
	}
}
