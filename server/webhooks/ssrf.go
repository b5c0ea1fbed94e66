package webhooks

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// MaxURLLength is the maximum length of a target URL, in characters.
const MaxURLLength = 2048

// ErrBlocked is wrapped by every error of the Guard (errors.Is(err, ErrBlocked)).
var ErrBlocked = errors.New("webhook target not allowed")

// blockedError carries a client-safe message and unwraps to ErrBlocked.
type blockedError struct{ msg string }

func (e *blockedError) Error() string { return e.msg }
func (e *blockedError) Unwrap() error { return ErrBlocked }

func blocked(format string, args ...any) error {
	return &blockedError{msg: fmt.Sprintf(format, args...)}
}

// PrivateTargetsHint ends the refusal of a loopback or private address (the ranges AllowPrivate
// opens), on create/update and at dial time: a developer whose receiver runs on their own machine
// learns which setting opens it.
const PrivateTargetsHint = "a receiver on this machine or a private network needs catalogd started with " +
	"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true (local development and tests only)"

// Guard is the SSRF policy for webhook targets. The zero value is the production policy;
// AllowPrivate (CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS) opens loopback and private ranges for
// local development and tests, never link-local or metadata addresses.
//
// LoopbackOnly (catalogd mock) allows loopback targets and nothing else: not private ranges, not
// public addresses. A mock accepts any token, so it must not be a way to make requests elsewhere.
type Guard struct{ AllowPrivate, LoopbackOnly bool }

// CheckURL validates a target URL on create/update: http or https only, no userinfo, a host,
// at most 2048 characters, no numeric host in a non-dotted-quad form (decimal, hex, octal or
// short forms such as "2130706433", "0x7f.1", "0177.0.0.1", "127.1"), and, when the host is an
// IP literal, the address policy of CheckIP. The error message is safe to return to the client.
// Host names are not resolved here: the dialer checks every resolved address (see Control).
func (g Guard) CheckURL(raw string) error {
	if raw == "" {
		return blocked("targetUrl is required")
	}
	if utf8.RuneCountInString(raw) > MaxURLLength {
		return blocked("targetUrl must be at most %d characters", MaxURLLength)
	}
	if strings.TrimSpace(raw) != raw {
		return blocked("targetUrl must not have leading or trailing whitespace")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return blocked("targetUrl is not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return blocked("targetUrl must use http or https")
	}
	if u.Opaque != "" {
		return blocked("targetUrl must be an absolute URL of the form %s://host/path", u.Scheme)
	}
	if u.User != nil {
		return blocked("targetUrl must not contain user information (user:password@)")
	}
	host := u.Hostname()
	if host == "" {
		return blocked("targetUrl must have a host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return blocked("targetUrl has an invalid port")
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return blocked("targetUrl has an invalid port")
	}
	if strings.HasPrefix(u.Host, "[") { // IPv6 literal
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is6() || ip.Zone() != "" {
			return blocked("targetUrl has an invalid IPv6 address")
		}
		return g.CheckIP(ip)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !ip.Is4() {
			return blocked("targetUrl has an invalid host")
		}
		return g.CheckIP(ip)
	}
	if err := checkHostName(host); err != nil {
		return err
	}
	// A mock's target is a loopback address or localhost (the dialer checks what it resolves to).
	if name := strings.TrimSuffix(strings.ToLower(host), "."); g.LoopbackOnly && name != "localhost" && !strings.HasSuffix(name, ".localhost") {
		return blocked("targetUrl host %s is not allowed (catalogd mock sends webhooks to loopback addresses only: 127.0.0.1, [::1] or localhost)", host)
	}
	return nil
}

// checkHostName accepts a DNS name (letters, digits, '-', '_' and non-ASCII for IDNs) and refuses
// anything a resolver or URL parser could read as an IPv4 address in a non-dotted-quad form.
func checkHostName(host string) error {
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if name == "" || len(name) > 253 {
		return blocked("targetUrl has an invalid host")
	}
	labels := strings.Split(name, ".")
	// As in the WHATWG URL host parser: a host whose last label is a number is an IPv4 address;
	// every such form that is not a plain dotted quad (already parsed above) is refused.
	if isNumericLabel(labels[len(labels)-1]) {
		return blocked("targetUrl host must be a domain name or an IPv4 address in dotted-quad form")
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return blocked("targetUrl has an invalid host")
		}
		for _, r := range l {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r >= 0x80 && r != utf8.RuneError:
			default:
				return blocked("targetUrl has an invalid host")
			}
		}
	}
	return nil
}

// isNumericLabel reports whether l is a decimal, octal (leading 0) or hexadecimal (0x) number.
func isNumericLabel(l string) bool {
	if l == "" {
		return false
	}
	digits := l
	hex := false
	if len(l) >= 2 && l[0] == '0' && (l[1] == 'x' || l[1] == 'X') {
		digits, hex = l[2:], true
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		switch {
		case c >= '0' && c <= '9':
		case hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}

var (
	// IPv4 ranges refused always.
	v4Always = []struct {
		p     netip.Prefix
		class string
	}{
		{netip.MustParsePrefix("0.0.0.0/8"), "unspecified"},
		{netip.MustParsePrefix("169.254.0.0/16"), "link-local"}, // includes 169.254.169.254 (cloud metadata)
		{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (CGNAT)"},
		{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
		{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
		{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
		{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
		{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
		{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast"},
		{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
		{netip.MustParsePrefix("255.255.255.255/32"), "broadcast"},
		{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	}
	// IPv4 ranges refused unless AllowPrivate.
	v4Private = []struct {
		p     netip.Prefix
		class string
	}{
		{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
		{netip.MustParsePrefix("10.0.0.0/8"), "private"},
		{netip.MustParsePrefix("172.16.0.0/12"), "private"},
		{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	}

	v6GlobalUnicast = netip.MustParsePrefix("2000::/3")
	v6ULA           = netip.MustParsePrefix("fc00::/7")
	v6LinkLocal     = netip.MustParsePrefix("fe80::/10")
	v6SiteLocal     = netip.MustParsePrefix("fec0::/10")
	v6Multicast     = netip.MustParsePrefix("ff00::/8")
	v6AWS           = netip.MustParsePrefix("fd00:ec2::/64") // AWS instance metadata (::254), DNS, NTP
	v6NAT64         = netip.MustParsePrefix("64:ff9b::/96")  // RFC 6052 well-known prefix
	v66to4          = netip.MustParsePrefix("2002::/16")     // RFC 3056: IPv4 in bits 16..47
	// Non-routable or special blocks inside 2000::/3, refused always.
	v6AlwaysInGlobal = []struct {
		p     netip.Prefix
		class string
	}{
		{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments (Teredo, ORCHID, ...)"},
		{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
		{netip.MustParsePrefix("3fff::/20"), "documentation"},
	}
)

// CheckIP applies the address policy. Refused always: unspecified, link-local (including the
// 169.254.169.254 metadata address), CGNAT, multicast, broadcast, reserved, documentation and
// benchmarking ranges, the AWS IPv6 metadata range fd00:ec2::/64, and IPv6 outside 2000::/3 other
// than the cases below. Refused unless AllowPrivate: loopback (127.0.0.0/8, ::1) and private
// (10/8, 172.16/12, 192.168/16, fc00::/7). IPv4-mapped, NAT64 (64:ff9b::/96) and 6to4 addresses
// are judged as their embedded IPv4 address. Zoned addresses are refused.
func (g Guard) CheckIP(ip netip.Addr) error {
	if !ip.IsValid() {
		return blocked("address is not valid")
	}
	if ip.Zone() != "" {
		return blocked("address %s is not allowed (zoned)", ip)
	}
	orig := ip
	if ip.Is4In6() {
		ip = ip.Unmap()
	} else if ip.Is6() {
		switch {
		case v6NAT64.Contains(ip):
			b := ip.As16()
			ip = netip.AddrFrom4([4]byte(b[12:16]))
		case v66to4.Contains(ip):
			b := ip.As16()
			ip = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	if g.LoopbackOnly {
		if ip.IsLoopback() {
			return nil
		}
		return blocked("address %s is not allowed (catalogd mock sends webhooks to loopback addresses only)", orig)
	}
	if class, private := g.classify(ip); class != "" {
		if private {
			if g.AllowPrivate {
				return nil
			}
			return blocked("address %s is not allowed (%s): %s", orig, class, PrivateTargetsHint)
		}
		return blocked("address %s is not allowed (%s)", orig, class)
	}
	return nil
}

// classify returns the refused class of ip ("" when allowed) and whether AllowPrivate opens it.
func (g Guard) classify(ip netip.Addr) (class string, private bool) {
	if ip.Is4() {
		for _, r := range v4Always {
			if r.p.Contains(ip) {
				return r.class, false
			}
		}
		for _, r := range v4Private {
			if r.p.Contains(ip) {
				return r.class, true
			}
		}
		return "", false
	}
	switch {
	case ip.IsUnspecified():
		return "unspecified", false
	case ip.IsLoopback():
		return "loopback", true
	case v6AWS.Contains(ip):
		return "cloud metadata", false
	case v6ULA.Contains(ip):
		return "private", true
	case v6LinkLocal.Contains(ip):
		return "link-local", false
	case v6SiteLocal.Contains(ip):
		return "site-local", false
	case v6Multicast.Contains(ip):
		return "multicast", false
	case !v6GlobalUnicast.Contains(ip):
		return "reserved", false
	}
	for _, r := range v6AlwaysInGlobal {
		if r.p.Contains(ip) {
			return r.class, false
		}
	}
	return "", false
}

// Control is for net.Dialer.Control: it checks the resolved address being dialled, after DNS
// resolution, so a name that resolves (or rebinds) to a refused address cannot be reached.
// Only TCP is allowed.
func (g Guard) Control(network, address string, _ syscall.RawConn) error {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return blocked("network %q is not allowed", network)
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return blocked("address %q is not allowed", address)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return blocked("address %q is not allowed", address)
	}
	return g.CheckIP(ip)
}
