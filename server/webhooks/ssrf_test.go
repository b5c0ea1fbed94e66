package webhooks_test

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/webhooks"
)

// urlPolicy of one address or URL: refused always, refused unless AllowPrivate, or allowed.
type urlPolicy int

const (
	polAllowed urlPolicy = iota
	polPrivateOnly
	polNever
)

var guardIPCases = []struct {
	ip   string
	want urlPolicy
}{
	// loopback
	{"127.0.0.1", polPrivateOnly},
	{"127.255.255.254", polPrivateOnly},
	{"::1", polPrivateOnly},
	{"::ffff:127.0.0.1", polPrivateOnly},
	// private
	{"10.0.0.1", polPrivateOnly},
	{"172.16.5.4", polPrivateOnly},
	{"172.31.255.255", polPrivateOnly},
	{"192.168.1.1", polPrivateOnly},
	{"fc00::1", polPrivateOnly},
	{"fd12:3456::1", polPrivateOnly},
	{"::ffff:10.1.2.3", polPrivateOnly},
	// link-local and metadata: never, even with AllowPrivate
	{"169.254.169.254", polNever},
	{"169.254.0.1", polNever},
	{"::ffff:169.254.169.254", polNever},
	{"64:ff9b::a9fe:a9fe", polNever}, // NAT64 169.254.169.254
	{"2002:a9fe:a9fe::1", polNever},  // 6to4 169.254.169.254
	{"fe80::1", polNever},
	{"febf::1", polNever},
	{"fd00:ec2::254", polNever},
	// unspecified, CGNAT, multicast, broadcast, reserved
	{"0.0.0.0", polNever},
	{"0.1.2.3", polNever},
	{"::", polNever},
	{"::ffff:0.0.0.0", polNever},
	{"100.64.0.1", polNever},
	{"100.127.255.254", polNever},
	{"224.0.0.1", polNever},
	{"239.255.255.250", polNever},
	{"ff02::1", polNever},
	{"ff05::1:3", polNever},
	{"255.255.255.255", polNever},
	{"240.0.0.1", polNever},
	// documentation, benchmarking, other special IPv6
	{"192.0.2.1", polNever},
	{"198.51.100.7", polNever},
	{"203.0.113.9", polNever},
	{"198.18.0.1", polNever},
	{"192.0.0.8", polNever},
	{"2001:db8::1", polNever},
	{"2001::1", polNever},  // Teredo
	{"::7f00:1", polNever}, // IPv4-compatible (deprecated)
	{"100::1", polNever},   // discard-only
	{"fec0::1", polNever},  // site-local (deprecated)
	// NAT64 and 6to4 are judged as their IPv4 address
	{"64:ff9b::7f00:1", polPrivateOnly},
	{"2002:0a00:0001::1", polPrivateOnly},
	{"64:ff9b::5db8:d822", polAllowed},
	// public
	{"93.184.216.34", polAllowed},
	{"8.8.8.8", polAllowed},
	{"1.1.1.1", polAllowed},
	{"172.32.0.1", polAllowed},
	{"100.128.0.1", polAllowed},
	{"169.255.0.1", polAllowed},
	{"::ffff:93.184.216.34", polAllowed},
	{"2606:2800:220:1:248:1893:25c8:1946", polAllowed},
	{"2a00:1450:4001:80e::200e", polAllowed},
}

func TestCheckIP(t *testing.T) {
	for _, tc := range guardIPCases {
		ip := netip.MustParseAddr(tc.ip)
		for _, allowPrivate := range []bool{false, true} {
			err := webhooks.Guard{AllowPrivate: allowPrivate}.CheckIP(ip)
			wantOK := tc.want == polAllowed || tc.want == polPrivateOnly && allowPrivate
			if wantOK && err != nil {
				t.Errorf("CheckIP(%s) AllowPrivate=%v: %v, want allowed", tc.ip, allowPrivate, err)
			}
			if !wantOK {
				if err == nil {
					t.Errorf("CheckIP(%s) AllowPrivate=%v allowed, want refused", tc.ip, allowPrivate)
				} else if !errors.Is(err, webhooks.ErrBlocked) {
					t.Errorf("CheckIP(%s): error %v does not wrap ErrBlocked", tc.ip, err)
				}
			}
		}
	}
	if err := (webhooks.Guard{AllowPrivate: true}).CheckIP(netip.Addr{}); err == nil {
		t.Error("CheckIP(zero Addr) allowed")
	}
	if err := (webhooks.Guard{AllowPrivate: true}).CheckIP(netip.MustParseAddr("fe80::1%eth0")); err == nil {
		t.Error("CheckIP(zoned) allowed")
	}
}

func TestCheckURL(t *testing.T) {
	cases := []struct {
		url  string
		want urlPolicy
	}{
		{"https://example.com/hook", polAllowed},
		{"http://example.com", polAllowed},
		{"https://hooks.example.co.uk:8443/a/b?c=d&e=f", polAllowed},
		{"https://EXAMPLE.com./hook", polAllowed},
		{"https://my_host.example.com/hook", polAllowed},
		{"https://bücher.example/hook", polAllowed},
		{"http://93.184.216.34/", polAllowed},
		{"http://93.184.216.34:8080/hook", polAllowed},
		{"http://[2606:2800:220:1:248:1893:25c8:1946]/hook", polAllowed},
		{"HTTPS://example.com/hook", polAllowed},
		{"https://1.2.3.4.example.com/", polAllowed},
		{"https://0x.example.com/", polAllowed},

		{"http://127.0.0.1/", polPrivateOnly},
		{"http://127.0.0.1:8080/hook", polPrivateOnly},
		{"http://[::1]/", polPrivateOnly},
		{"http://[::1]:9000/x", polPrivateOnly},
		{"http://[::ffff:127.0.0.1]/", polPrivateOnly},
		{"http://10.0.0.1/", polPrivateOnly},
		{"http://172.16.5.4/", polPrivateOnly},
		{"http://192.168.1.1/", polPrivateOnly},
		{"http://[fc00::1]/", polPrivateOnly},

		{"http://169.254.169.254/latest/meta-data/", polNever},
		{"http://[::ffff:169.254.169.254]/", polNever},
		{"http://[fd00:ec2::254]/", polNever},
		{"http://100.64.0.1/", polNever},
		{"http://0.0.0.0/", polNever},
		{"http://[::]/", polNever},
		{"http://224.0.0.1/", polNever},
		{"http://255.255.255.255/", polNever},
		{"http://[fe80::1]/", polNever},
		{"http://[fe80::1%25eth0]/", polNever},
		// numeric hosts not in dotted-quad form
		{"http://2130706433/", polNever},
		{"http://0x7f000001/", polNever},
		{"http://0X7F000001/", polNever},
		{"http://0x7f.1/", polNever},
		{"http://0x7f.0.0.1/", polNever},
		{"http://0177.0.0.1/", polNever},
		{"http://127.1/", polNever},
		{"http://127.0.1/", polNever},
		{"http://127.0.0.1./", polNever},
		{"http://017700000001/", polNever},
		{"http://1.2.3.4.5/", polNever},
		{"http://93.184.216.034/", polNever},
		{"http://example.0x10/", polNever},
		// schemes
		{"ftp://example.com/", polNever},
		{"file:///etc/passwd", polNever},
		{"gopher://example.com/", polNever},
		{"javascript:alert(1)", polNever},
		{"ws://example.com/", polNever},
		{"//example.com/hook", polNever},
		{"/hook", polNever},
		{"example.com/hook", polNever},
		{"http:example.com", polNever},
		// userinfo, host, port, form
		{"http://u:p@example.com/", polNever},
		{"http://u@example.com/", polNever},
		{"http://@example.com/", polNever},
		{"http:///hook", polNever},
		{"http://", polNever},
		{"https://:443/", polNever},
		{"http://example.com:0/", polNever},
		{"http://example.com:65536/", polNever},
		{"http://example.com:/", polNever},
		{"http://exa mple.com/", polNever},
		{"http://exa$mple.com/", polNever},
		{"http://example..com/", polNever},
		{"http://" + strings.Repeat("a", 64) + ".com/", polNever},
		{" https://example.com/", polNever},
		{"https://example.com/\n", polNever},
		{"", polNever},
		{"https://example.com/" + strings.Repeat("a", 2048-len("https://example.com/")), polAllowed},
		{"https://example.com/" + strings.Repeat("a", 2049-len("https://example.com/")), polNever},
	}
	for _, tc := range cases {
		for _, allowPrivate := range []bool{false, true} {
			err := webhooks.Guard{AllowPrivate: allowPrivate}.CheckURL(tc.url)
			wantOK := tc.want == polAllowed || tc.want == polPrivateOnly && allowPrivate
			name := tc.url
			if len(name) > 60 {
				name = name[:60] + "…"
			}
			if wantOK && err != nil {
				t.Errorf("CheckURL(%q) AllowPrivate=%v: %v, want allowed", name, allowPrivate, err)
			}
			if !wantOK {
				if err == nil {
					t.Errorf("CheckURL(%q) AllowPrivate=%v allowed, want refused", name, allowPrivate)
				} else if !errors.Is(err, webhooks.ErrBlocked) {
					t.Errorf("CheckURL(%q): error %v does not wrap ErrBlocked", name, err)
				} else if !strings.HasPrefix(err.Error(), "targetUrl") && !strings.HasPrefix(err.Error(), "address") {
					t.Errorf("CheckURL(%q): error %q is not a client message", name, err)
				}
			}
		}
	}
}

func TestCheckURLMessages(t *testing.T) {
	g := webhooks.Guard{}
	for url, want := range map[string]string{
		"ftp://example.com/":      "http or https",
		"http://u:p@example.com/": "user information",
		"http:///x":               "must have a host",
		"http://2130706433/":      "dotted-quad",
		"http://127.0.0.1/":       "loopback",
		"http://169.254.169.254/": "link-local",
		"https://example.com/" + strings.Repeat("a", 2100): "at most 2048 characters",
	} {
		if err := g.CheckURL(url); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckURL(%.40q) = %v, want a message containing %q", url, err, want)
		}
	}
	// A loopback or private address names the setting that opens it; an address it never opens
	// does not.
	for _, url := range []string{"http://127.0.0.1:8080/hook", "http://[::1]/", "http://10.0.0.1/", "http://[fd12::1]/"} {
		if err := g.CheckURL(url); err == nil || !strings.Contains(err.Error(), "CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true") {
			t.Errorf("CheckURL(%s) = %v, want a message naming CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true", url, err)
		}
	}
	for _, url := range []string{"http://169.254.169.254/", "http://[fe80::1]/", "http://0.0.0.0/"} {
		if err := g.CheckURL(url); err == nil || strings.Contains(err.Error(), "CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS") {
			t.Errorf("CheckURL(%s) = %v, want a refusal that does not offer CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS", url, err)
		}
	}
	// The length limit counts characters, not bytes.
	u := "https://example.com/" + strings.Repeat("é", 2048-len("https://example.com/"))
	if err := g.CheckURL(u); err != nil {
		t.Errorf("CheckURL(2048 characters, more bytes) = %v, want allowed", err)
	}
}

// Control refuses the resolved address at dial time, so a name that resolves to a refused
// address cannot be reached whatever the URL said.
func TestControlDial(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	d := net.Dialer{Timeout: 2 * time.Second, Control: webhooks.Guard{}.Control}
	for _, addr := range []string{ln.Addr().String(), net.JoinHostPort("localhost", port)} {
		c, err := d.Dial("tcp", addr)
		if err == nil {
			c.Close()
			t.Fatalf("dial %s with the guard succeeded, want refused", addr)
		}
		if !errors.Is(err, webhooks.ErrBlocked) {
			t.Fatalf("dial %s: error %v does not wrap ErrBlocked", addr, err)
		}
		if !strings.Contains(err.Error(), "(loopback): "+webhooks.PrivateTargetsHint) {
			t.Errorf("dial %s: error %v does not name CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS", addr, err)
		}
	}
	d.Control = webhooks.Guard{AllowPrivate: true}.Control
	c, err := d.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("dial with AllowPrivate: %v", err)
	}
	c.Close()

	g := webhooks.Guard{AllowPrivate: true}
	for _, tc := range []struct{ network, addr string }{
		{"udp", "127.0.0.1:53"},
		{"tcp4", "169.254.169.254:80"},
		{"tcp6", "[fd00:ec2::254]:80"},
		{"tcp6", "[::ffff:169.254.169.254]:80"},
		{"tcp", "not-an-address"},
		{"tcp", "example.com:80"},
	} {
		if err := g.Control(tc.network, tc.addr, nil); !errors.Is(err, webhooks.ErrBlocked) {
			t.Errorf("Control(%s, %s) = %v, want ErrBlocked", tc.network, tc.addr, err)
		}
	}
	if err := g.Control("tcp6", "[::1]:80", nil); err != nil {
		t.Errorf("Control(tcp6, [::1]:80) with AllowPrivate = %v", err)
	}
}

// catalogd mock's guard (LoopbackOnly) allows loopback targets and nothing else: not private
// ranges, not public addresses or names, at creation (CheckURL) and at dial time (Control).
func TestLoopbackOnly(t *testing.T) {
	g := webhooks.Guard{AllowPrivate: true, LoopbackOnly: true}
	for _, ok := range []string{"http://127.0.0.1:9/hook", "http://127.5.6.7/hook", "http://[::1]:8080/x", "http://localhost:3000/hook",
		"http://api.localhost/hook"} {
		if err := g.CheckURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://10.0.0.1/hook", "http://192.168.1.1/hook", "http://8.8.8.8/hook", "https://example.com/hook",
		"http://[fd00::1]/hook", "http://[2606:4700::1]/hook", "http://169.254.169.254/"} {
		if err := g.CheckURL(bad); !errors.Is(err, webhooks.ErrBlocked) {
			t.Errorf("%s: %v, want ErrBlocked", bad, err)
		}
	}
	for _, tc := range []struct {
		addr string
		ok   bool
	}{{"127.0.0.1:80", true}, {"[::1]:80", true}, {"10.1.2.3:80", false}, {"93.184.216.34:443", false}} {
		err := g.Control("tcp", tc.addr, nil)
		if (err == nil) != tc.ok {
			t.Errorf("Control(%s) = %v, want allowed %v", tc.addr, err, tc.ok)
		}
	}
}
