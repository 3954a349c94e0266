package loader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dshgo/dsh/app/loader"
)

// A plugin's config schema: defaults, bounds and the keys it knows.
var cacheSchema = []byte(`{
	"type": "object",
	"additionalProperties": false,
	"properties": {
		"maxElements": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
		"policy": {"type": "string", "enum": ["lru", "lfu"], "default": "lru"}
	}
}`)

var catalog = loader.MapCatalog{"cache": cacheSchema}

func ExampleParse() {
	data := []byte(`
plugins:
  - name: cache               # id defaults to the plugin name
  - id: big-cache
    name: cache
    config:
      maxElements: 5000       # clamped to the maximum, with a warning
      ttl: 60                 # no longer declared: removed, with a warning
`)
	f, err := loader.Parse("dsh.yaml", data, nil, catalog, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range f.Plugins {
		fmt.Println(e.ID, e.Config["maxElements"], e.Config["policy"])
	}
	// Output:
	// cache 100 lru
	// big-cache 1000 lru
}

func ExampleParse_invalid() {
	data := []byte(`
plugins:
  - name: cache
    config:
      policy: fifo
  - name: cache
`)
	_, err := loader.Parse("dsh.yaml", data, nil, catalog, nil)
	fmt.Println(err)
	// Output:
	// config dsh.yaml: 2 problems: entry "cache" at /plugins/0/config/policy (line 5): value must be one of "lru", "lfu"; entry "cache" at /plugins/1/name (line 6): duplicate id "cache": entries 0 and 1 both use it; give one an explicit id
}

func ExampleDiff() {
	parse := func(src string) *loader.File {
		f, err := loader.Parse("dsh.yaml", []byte(src), nil, catalog, nil)
		if err != nil {
			panic(err)
		}
		return f
	}
	old := parse(`
plugins:
  - {id: a, name: cache}
  - {id: b, name: cache}
  - {id: c, name: cache}
`)
	new := parse(`
plugins:
  - {id: c, name: cache}
  - {id: a, name: cache, config: {maxElements: 10}}
  - {id: d, name: cache, disabled: true}
`)
	for _, c := range loader.Diff(old, new) {
		fmt.Println(c, "config-only:", c.ConfigOnly())
	}
	// Output:
	// unchanged c config-only: false
	// changed a (config) config-only: true
	// added d config-only: false
	// removed b config-only: false
}

func ExampleWatch() {
	dir, err := os.MkdirTemp("", "dsh-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "dsh.yaml")
	if err := os.WriteFile(path, []byte("plugins: [{name: cache}]\n"), 0o600); err != nil {
		panic(err)
	}
	current, err := loader.Load(path, nil, catalog, nil)
	if err != nil {
		panic(err)
	}

	applied := make(chan []loader.Change, 1)
	runtime := loader.ApplierFunc(func(_ context.Context, changes []loader.Change) error {
		applied <- changes
		return nil
	})
	w, err := loader.Watch(context.Background(), current, nil, catalog, runtime, nil,
		loader.WatchOptions{Debounce: 50 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	defer w.Close()

	// An operator edits the file.
	if err := os.WriteFile(path, []byte("plugins: [{name: cache, config: {policy: lfu}}]\n"), 0o600); err != nil {
		panic(err)
	}
	select {
	case changes := <-applied:
		for _, c := range changes {
			fmt.Println(c, c.New.Config["policy"])
		}
	case <-time.After(10 * time.Second):
		fmt.Println("no reload")
	}
	// Output:
	// changed cache (config) lfu
}
