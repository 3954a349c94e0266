package connection

import "testing"

func TestHostMatcherDefaults(t *testing.T) {
	m, err := newHostMatcher(defaultHosts)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"localhost", "localhost:7420", "127.0.0.1:1", "[::1]:7420", "[::1]", "LOCALHOST:80"} {
		if !m.allows(h) {
			t.Errorf("default matcher rejected %q", h)
		}
	}
	for _, h := range []string{"", "evil.example", "evil.example:7420", "127.0.0.2:7420", "localhost.:7420", "localhost.evil.example"} {
		if m.allows(h) {
			t.Errorf("default matcher allowed %q", h)
		}
	}
}

func TestHostMatcherExactPort(t *testing.T) {
	m, err := newHostMatcher([]string{"dsh.internal:8443"})
	if err != nil {
		t.Fatal(err)
	}
	if !m.allows("dsh.internal:8443") {
		t.Error("exact host:port rejected")
	}
	if m.allows("dsh.internal:8444") || m.allows("dsh.internal") {
		t.Error("other port or no port must be rejected for an exact entry")
	}
}

func TestHostMatcherRejectsEmptyEntry(t *testing.T) {
	if _, err := newHostMatcher([]string{"  "}); err == nil {
		t.Fatal("want error for empty entry")
	}
}
