package store

import (
	"testing"
	"time"
)

func TestOptionsDefaults(t *testing.T) {
	in := Options{Dir: "x", Codec: jsonCodec{}}
	o := in.withDefaults()
	if o.MaxSceneBytes != 32<<20 || o.LockTimeout != 5*time.Second || o.StaleLockAge != 30*time.Second ||
		o.KeepBackups != DefaultKeepBackups || o.FS == nil || o.Logger == nil || o.Now == nil {
		t.Fatalf("%+v", o)
	}
	if in.FS != nil || in.Logger != nil {
		t.Fatal("caller's options mutated")
	}
	kept := Options{MaxSceneBytes: 10, LockTimeout: time.Second, StaleLockAge: time.Minute, KeepBackups: -1}.withDefaults()
	if kept.MaxSceneBytes != 10 || kept.LockTimeout != time.Second || kept.StaleLockAge != time.Minute || kept.KeepBackups != -1 {
		t.Fatalf("%+v", kept)
	}
}
