package webserver

import (
	"testing"
	"time"
)

func TestConfigDefaults(t *testing.T) {
	c := Config{}.withDefaults()
	if c.Listen != "127.0.0.1:7420" || c.MaxBodyBytes != 8<<20 || c.DrainTimeout != 5*time.Second ||
		c.ShutdownTimeout != 10*time.Second || c.ReadHeaderTimeout != 10*time.Second || c.LoginCommand != "dsh login" {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestConfigKeepsExplicitValues(t *testing.T) {
	in := Config{Listen: "127.0.0.1:0", MaxBodyBytes: 1, DrainTimeout: time.Millisecond, ShutdownTimeout: time.Millisecond, ReadHeaderTimeout: time.Millisecond, LoginCommand: "dsh login --config x.yaml"}
	if got := in.withDefaults(); got != in {
		t.Fatalf("got %+v", got)
	}
}
