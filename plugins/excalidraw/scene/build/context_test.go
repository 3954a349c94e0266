package build

import (
	"testing"
	"time"
)

func TestContextDefaults(t *testing.T) {
	var c Context
	if c.random() == nil {
		t.Fatal("no default random source")
	}
	before := time.Now().UnixMilli()
	if now := c.nowMillis(); now < before || now > time.Now().UnixMilli() {
		t.Fatalf("default clock %d", now)
	}
	c.Now = func() time.Time { return time.UnixMilli(42) }
	if c.nowMillis() != 42 {
		t.Fatal("Now ignored")
	}
}
