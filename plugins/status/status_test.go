package status_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/status"
	"github.com/dshgo/dsh/plugins/tools"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestStatusToolWithoutWebServer(t *testing.T) {
	rt := app.New(app.Options{})
	defer rt.Dispose(context.Background())
	reg := tools.NewRegistry(nil)
	if err := rt.Root().Provide(tools.ServiceName, reg); err != nil {
		t.Fatal(err)
	}
	s, err := rt.Root().Plugin(status.Plugin, app.Config{"title": "t1", "includeEffects": true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AwaitActive(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := reg.Call(context.Background(), "dsh_status", json.RawMessage(`{}`))
	var rep status.Report
	if !res.OK || json.Unmarshal(res.JSON, &rep) != nil {
		t.Fatalf("call: %s", res.JSON)
	}
	if rep.Title != "t1" || rep.Services[tools.ServiceName] == 0 {
		t.Fatalf("report %+v", rep)
	}
	var found bool
	for _, sc := range rep.Scopes {
		if sc.Name == "status" && strings.Contains(strings.Join(sc.Effects, ","), "tool dsh_status") {
			found = true
		}
		if sc.Name == "status/inject" && sc.State != app.StatePending {
			t.Fatalf("web part is %s without a web server", sc.State)
		}
	}
	if !found {
		t.Fatalf("status scope with its tool effect not listed: %+v", rep.Scopes)
	}
	if res := reg.Call(context.Background(), "dsh_status", json.RawMessage(`{"x":1}`)); res.OK {
		t.Fatal("extra argument accepted")
	}
	if err := s.Dispose(context.Background()); err != nil {
		t.Fatal(err)
	}
	if reg.Len() != 0 {
		t.Fatal("tool survived dispose")
	}
}
