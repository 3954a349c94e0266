package health_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/dshgo/dsh/plugins/health"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// A check's name is unique; a panicking check fails rather than taking
// the probe down; a coded error shows its client message, not its cause;
// a check unregistered is no longer run.
func TestRegistry(t *testing.T) {
	reg := health.New()
	ok := func(context.Context) error { return nil }
	unregister, err := reg.Register(health.Check{Name: "a", Probe: ok})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Register(health.Check{Name: "a", Probe: ok}); err == nil {
		t.Fatal("a second check named a was registered")
	}
	if _, err := reg.Register(health.Check{Name: "b", Probe: func(context.Context) error { panic("boom") }}); err != nil {
		t.Fatal(err)
	}
	secret := errors.New("dial postgres://dsh:s3cret@db/dsh")
	if _, err := reg.Register(health.Check{Name: "c", Probe: func(context.Context) error {
		return apierr.New(http.StatusServiceUnavailable, "down", "the database does not answer").Wrap(secret)
	}}); err != nil {
		t.Fatal(err)
	}

	results, ready := reg.Run(context.Background())
	want := []health.Result{{Name: "a", OK: true}, {Name: "b", Reason: "the check failed unexpectedly"}, {Name: "c", Reason: "the database does not answer"}}
	if ready || len(results) != len(want) {
		t.Fatalf("ready %v, %+v", ready, results)
	}
	for i := range want {
		if results[i] != want[i] {
			t.Fatalf("result %d: %+v, want %+v", i, results[i], want[i])
		}
	}

	unregister()
	results, _ = reg.Run(context.Background())
	if len(results) != 2 || results[0].Name != "b" {
		t.Fatalf("a unregistered: %+v", results)
	}
}
