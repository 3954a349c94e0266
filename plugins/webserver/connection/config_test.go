package connection

import (
	"testing"
)

func TestConfigDefaults(t *testing.T) {
	c, err := Config{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.SessionTTL != DefaultSessionTTL || c.CookieName != DefaultCookieName ||
		c.LoginPath != DefaultLoginPath || c.LoginLinkTTL != DefaultLoginLinkTTL || len(c.AllowedHosts) != 3 {
		t.Fatalf("defaults not applied: %+v", c)
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []Config{
		{LoginPath: "login"},
		{LoginPath: "/login?x"},
		{CookieName: "a b"},
		{Tokens: []TokenRecord{{Name: "short", SHA256: "abc"}}},
	}
	for i, c := range bad {
		if _, err := c.withDefaults(); err == nil {
			t.Errorf("case %d accepted: %+v", i, c)
		}
	}
}
