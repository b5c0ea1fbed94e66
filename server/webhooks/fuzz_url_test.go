package webhooks

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckURL feeds arbitrary target URLs to the create/update check, with the production policy
// and with private targets allowed. Properties: never a panic; a refusal wraps ErrBlocked (a 400
// for the service) with a message that is valid UTF-8 and does not echo the URL; an accepted URL
// parses, is absolute http or https with a host and no userinfo, at most MaxURLLength characters,
// without surrounding whitespace, and an IP-literal host passes CheckIP (never loopback, private,
// link-local or metadata under the production policy). Seeds: testdata/fuzz/FuzzCheckURL.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://hooks.example.com/x", "http://example.com:8080/a?b=c#d", "https://user:pw@example.com/",
		"http://127.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://[::1]/", "http://[fe80::1%25eth0]/",
		"http://169.254.169.254/latest/meta-data", "http://[::ffff:127.0.0.1]/", "ftp://example.com/", "https:example.com",
		"https://", " https://example.com", "https://example.com:0/", "https://example.com:99999/", "https://exa\x00mple.com/",
		"https://例え.jp/", "https://xn--r8jz45g.jp/", "http://10.0.0.1:80/", "https://" + strings.Repeat("a", 2100) + ".com/",
		"http://[::]/", "http://0/", "http://localhost/", "HTTPS://EXAMPLE.COM/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, g := range []Guard{{}, {AllowPrivate: true}} {
			err := g.CheckURL(raw)
			if err != nil {
				if !errors.Is(err, ErrBlocked) {
					t.Fatalf("%q: error %v does not wrap ErrBlocked", raw, err)
				}
				if msg := err.Error(); !utf8.ValidString(msg) || (len(raw) > 8 && strings.Contains(msg, raw)) {
					t.Fatalf("%q: message %q echoes the URL or is not UTF-8", raw, msg)
				}
				continue
			}
			u, perr := url.Parse(raw)
			switch {
			case perr != nil:
				t.Fatalf("%q accepted but does not parse: %v", raw, perr)
			case u.Scheme != "http" && u.Scheme != "https":
				t.Fatalf("%q accepted with scheme %q", raw, u.Scheme)
			case u.User != nil:
				t.Fatalf("%q accepted with userinfo", raw)
			case u.Hostname() == "" || u.Opaque != "":
				t.Fatalf("%q accepted without a host", raw)
			case utf8.RuneCountInString(raw) > MaxURLLength || strings.TrimSpace(raw) != raw:
				t.Fatalf("%q accepted: too long or surrounding whitespace", raw)
			}
			if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
				if g.CheckIP(ip) != nil {
					t.Fatalf("%q accepted although its address is refused", raw)
				}
				if !g.AllowPrivate && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()) {
					t.Fatalf("%q accepted by the production policy", raw)
				}
			}
		}
	})
}
