package connection

import "testing"

func TestParseOriginCanonical(t *testing.T) {
	cases := map[string]string{
		"http://127.0.0.1:7420":   "http://127.0.0.1:7420",
		"HTTP://LocalHost:7420/":  "http://localhost:7420",
		"http://example.com:80":   "http://example.com",
		"https://example.com:443": "https://example.com",
		"http://[::1]:80":         "http://[::1]",
		"http://[::1]:7420":       "http://[::1]:7420",
	}
	for in, want := range cases {
		got, _, err := parseOrigin(in)
		if err != nil || got != want {
			t.Errorf("parseOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestParseOriginRejectsNonOrigins(t *testing.T) {
	for _, in := range []string{"", "null", "ftp://x", "http://", "http://a/b", "http://u:p@a", "http://a?x=1", "//a"} {
		if _, _, err := parseOrigin(in); err == nil {
			t.Errorf("parseOrigin(%q) accepted a non-origin", in)
		}
	}
}

func TestOriginSetMembershipAndHosts(t *testing.T) {
	set, err := newOriginSet("http://127.0.0.1:7420", "https://dsh.example")
	if err != nil {
		t.Fatal(err)
	}
	if !set.has("http://127.0.0.1:7420") || !set.has("https://dsh.example:443") {
		t.Error("configured origins not recognised")
	}
	if set.has("http://127.0.0.1:7421") || set.has("null") || set.has("http://evil.example") {
		t.Error("foreign origin accepted")
	}
	if !set.hosts.allows("dsh.example") || !set.hosts.allows("127.0.0.1:7420") {
		t.Error("origin hosts not allowed as Host values")
	}
	if set.hosts.allows("127.0.0.1:9") {
		t.Error("origin with explicit port must not allow other ports")
	}
}
