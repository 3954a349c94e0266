package agenttools

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

var bg = context.Background()

// env is a registry holding the five tools over a service on a fresh
// drawings directory.
type env struct {
	reg   *tools.Registry
	dir   string
	close func()
}

func newEnv(t testing.TB, lim scene.Limits) *env {
	t.Helper()
	return newEnvAt(t, filepath.Join(t.TempDir(), "drawings"), lim)
}

// newEnvAt is newEnv on dir, which may hold scenes already (written by an
// earlier env, perhaps under other limits). The service closes when the
// test ends, or earlier through close.
func newEnvAt(t testing.TB, dir string, lim scene.Limits) *env {
	t.Helper()
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: lim, LockTimeout: 5 * time.Second,
		Rand: rand.New(rand.NewPCG(1, 2)), Fonts: editor.Fonts(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return &env{reg: registry(t, svc), dir: dir, close: func() { svc.Close() }}
}

// registry is a registry holding the tools over svc.
func registry(t testing.TB, svc *service.Service) *tools.Registry {
	t.Helper()
	reg := tools.NewRegistry(nil)
	for _, tool := range Tools(svc) {
		if _, err := reg.Register(tool); err != nil {
			t.Fatalf("register %s: %v", tool.Name, err)
		}
	}
	return reg
}

// call runs a tool and checks the result is the JSON it claims to be.
func (e *env) call(t testing.TB, name, args string) tools.Result {
	t.Helper()
	res := e.reg.Call(bg, name, json.RawMessage(args))
	if !json.Valid(res.JSON) {
		t.Fatalf("%s: result is not JSON: %s", name, res.JSON)
	}
	return res
}

// ok runs a tool that must succeed and returns its result object.
func (e *env) ok(t testing.TB, name, args string) map[string]any {
	t.Helper()
	res := e.call(t, name, args)
	if !res.OK {
		t.Fatalf("%s(%s) failed: %s", name, args, res.JSON)
	}
	obj, _ := res.Value().(map[string]any)
	if obj == nil || obj["ok"] != true {
		t.Fatalf("%s: want an object with ok:true, got %s", name, res.JSON)
	}
	return obj
}

// fail runs a tool that must fail with code and returns the error object.
func (e *env) fail(t testing.TB, name, args, code string) map[string]any {
	t.Helper()
	res := e.call(t, name, args)
	if res.OK {
		t.Fatalf("%s(%s): want %s, got success %s", name, args, code, res.JSON)
	}
	obj, _ := res.Value().(map[string]any)
	eo, _ := obj["error"].(map[string]any)
	if obj["ok"] != false || eo == nil {
		t.Fatalf("%s: failure not shaped {ok:false,error}: %s", name, res.JSON)
	}
	if eo["code"] != code {
		t.Fatalf("%s(%s): want code %s, got %s", name, args, code, res.JSON)
	}
	if m, _ := eo["message"].(string); m == "" {
		t.Fatalf("%s: error without message: %s", name, res.JSON)
	}
	return eo
}

func (e *env) fileBytes(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.dir, name+".excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantKeys checks obj has every key.
func wantKeys(t testing.TB, what string, obj map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s: missing %q in %v", what, k, obj)
		}
	}
}

// num reads a JSON number from a decoded result.
func num(t testing.TB, v any) int64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("not a number: %#v", v)
	}
	i, err := n.Int64()
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// flow creates a scene with two shapes joined by an arrow.
const flowElements = `[{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Start"}},` +
	`{"type":"ellipse","id":"b","x":400,"y":0,"width":120,"height":80},` +
	`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}]`

func (e *env) createFlow(t testing.TB, name string) map[string]any {
	t.Helper()
	return e.ok(t, CreateTool, `{"name":"`+name+`","elements":`+flowElements+`}`)
}
