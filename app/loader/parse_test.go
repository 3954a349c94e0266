package loader

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

const counterSchema = `{
	"type": "object",
	"additionalProperties": false,
	"properties": {
		"maxElements": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
		"mode": {"type": "string", "enum": ["fast", "safe"], "default": "safe"},
		"store": {
			"type": "object",
			"additionalProperties": false,
			"properties": {
				"dir": {"type": "string", "default": "/var/lib/dsh"},
				"sync": {"type": "boolean", "default": false}
			}
		}
	}
}`

const webSchema = `{
	"type": "object",
	"required": ["port"],
	"properties": {"port": {"type": "integer", "minimum": 1, "maximum": 65535}}
}`

const hostSchema = `{
	"type": "object",
	"additionalProperties": false,
	"properties": {
		"name": {"type": "string", "default": "dsh"},
		"workers": {"type": "integer", "minimum": 1, "maximum": 64, "default": 4}
	}
}`

func testCatalog() MapCatalog {
	return MapCatalog{
		"counter": []byte(counterSchema),
		"web":     []byte(webSchema),
		"free":    nil,
	}
}

func parseString(t *testing.T, src string) (*File, error, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zap.DebugLevel)
	f, err := Parse("dsh.yaml", []byte(src), []byte(hostSchema), testCatalog(), zap.New(core))
	return f, err, logs
}

func mustParse(t *testing.T, src string) (*File, *observer.ObservedLogs) {
	t.Helper()
	f, err, logs := parseString(t, src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f, logs
}

func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %T %v", err, err)
	}
	return e.Problems
}

func findProblem(t *testing.T, err error, ptr string) Problem {
	t.Helper()
	probs := problemsOf(t, err)
	for _, p := range probs {
		if p.Pointer == ptr {
			return p
		}
	}
	t.Fatalf("no problem at %s; got %v", ptr, probs)
	return Problem{}
}

func TestParseFillsDefaultsClampsAndRemovesUnknownKeys(t *testing.T) {
	f, logs := mustParse(t, `
host:
  workers: 100
  oldSetting: yes
plugins:
  - name: counter
    config:
      maxElements: 5000
      store:
        sync: true
        compress: true
      removedOption: 1
`)
	wantHost := map[string]any{"name": "dsh", "workers": int64(64)}
	if !reflect.DeepEqual(f.Host, wantHost) {
		t.Errorf("host = %#v, want %#v", f.Host, wantHost)
	}
	want := Entry{ID: "counter", Name: "counter", Config: map[string]any{
		"maxElements": int64(1000),
		"mode":        "safe",
		"store":       map[string]any{"dir": "/var/lib/dsh", "sync": true},
	}}
	if len(f.Plugins) != 1 || !reflect.DeepEqual(f.Plugins[0], want) {
		t.Fatalf("plugins = %#v\nwant %#v", f.Plugins, want)
	}

	warnings := logs.FilterLevelExact(zap.WarnLevel).All()
	type warning struct{ entry, pointer string }
	got := map[warning]string{}
	for _, w := range warnings {
		ctx := w.ContextMap()
		entry, _ := ctx["entry"].(string)
		got[warning{entry, ctx["pointer"].(string)}] = w.Message
		if ctx["path"] != "dsh.yaml" {
			t.Errorf("warning without path: %v", ctx)
		}
	}
	wantWarnings := []warning{
		{"", "/host/workers"},
		{"", "/host/oldSetting"},
		{"counter", "/plugins/0/config/maxElements"},
		{"counter", "/plugins/0/config/store/compress"},
		{"counter", "/plugins/0/config/removedOption"},
	}
	for _, w := range wantWarnings {
		if _, ok := got[w]; !ok {
			t.Errorf("missing warning %+v; got %v", w, got)
		}
	}
	if len(warnings) != len(wantWarnings) {
		t.Errorf("got %d warnings, want %d: %v", len(warnings), len(wantWarnings), got)
	}
	if msg := got[warning{"counter", "/plugins/0/config/maxElements"}]; !strings.Contains(msg, "clamped") {
		t.Errorf("clamp warning message %q", msg)
	}
}

func TestParseTypeErrorPointsIntoTheFile(t *testing.T) {
	_, err, _ := parseString(t, `
plugins:
  - name: counter
    config:
      maxElements: lots
`)
	p := findProblem(t, err, "/plugins/0/config/maxElements")
	if p.EntryID != "counter" || p.Line != 5 || !strings.Contains(p.Message, "integer") {
		t.Fatalf("got %+v", p)
	}
	if msg := err.Error(); !strings.Contains(msg, `entry "counter" at /plugins/0/config/maxElements (line 5)`) {
		t.Fatalf("error text %q does not name entry, pointer and line", msg)
	}
}

func TestParseReportsEveryProblemAtOnce(t *testing.T) {
	_, err, _ := parseString(t, `
plugins:
  - name: counter
    config:
      mode: turbo
  - id: site
    name: web
    config: {}
  - name: web
    config:
      port: "80"
`)
	probs := problemsOf(t, err)
	wants := map[string]string{
		"/plugins/0/config/mode": "counter",
		"/plugins/1/config":      "site", // required port missing
		"/plugins/2/config/port": "web",
	}
	for ptr, id := range wants {
		if p := findProblem(t, err, ptr); p.EntryID != id {
			t.Errorf("%s: entry %q, want %q", ptr, p.EntryID, id)
		}
	}
	if len(probs) != len(wants) {
		t.Errorf("got %d problems, want %d: %v", len(probs), len(wants), probs)
	}
}

func TestParseDuplicateIDs(t *testing.T) {
	_, err, _ := parseString(t, `
plugins:
  - name: counter
  - id: other
    name: counter
  - name: counter
`)
	p := findProblem(t, err, "/plugins/2/name")
	if p.EntryID != "counter" || !strings.Contains(p.Message, "entries 0 and 2") {
		t.Fatalf("got %+v", p)
	}
	_, err, _ = parseString(t, "plugins:\n  - {id: a, name: counter}\n  - {id: a, name: web, config: {port: 1}}\n")
	if p := findProblem(t, err, "/plugins/1/id"); !strings.Contains(p.Message, `duplicate id "a"`) {
		t.Fatalf("got %+v", p)
	}
}

func TestParseUnknownPlugin(t *testing.T) {
	_, err, _ := parseString(t, "plugins:\n  - name: counter\n  - name: nosuch\n")
	p := findProblem(t, err, "/plugins/1/name")
	if p.EntryID != "nosuch" || p.Message != `unknown plugin "nosuch"` || p.Line != 3 {
		t.Fatalf("got %+v", p)
	}
	if _, err := Parse("x", []byte("plugins: [{name: counter}]"), nil, nil, nil); err == nil {
		t.Fatal("a nil catalog knows no plugins")
	}
}

func TestParseYAMLSyntaxError(t *testing.T) {
	_, err, _ := parseString(t, "plugins:\n  - name: counter\n    config: {maxElements: 3\n")
	probs := problemsOf(t, err)
	if len(probs) != 1 || probs[0].Line == 0 || !strings.Contains(probs[0].Message, "YAML syntax error") {
		t.Fatalf("got %v", probs)
	}
	if !strings.Contains(err.Error(), "(line ") {
		t.Fatalf("error text %q has no line", err.Error())
	}
}

func TestParseIDRules(t *testing.T) {
	f, _ := mustParse(t, "plugins:\n  - name: counter\n  - {id: counter.2, name: counter, disabled: true}\n")
	if f.Plugins[0].ID != "counter" || f.Plugins[1].ID != "counter.2" || !f.Plugins[1].Disabled {
		t.Fatalf("got %+v", f.Plugins)
	}
	cases := map[string]string{
		"plugins:\n  - {id: Bad_ID, name: counter}\n": "/plugins/0/id",
		"plugins:\n  - {id: 7, name: counter}\n":      "/plugins/0/id",
		"plugins:\n  - {id: '', name: counter}\n":     "/plugins/0/id",
	}
	for src, ptr := range cases {
		_, err, _ := parseString(t, src)
		findProblem(t, err, ptr)
	}
	cat := MapCatalog{"@scope/Plugin": nil}
	_, err := Parse("x", []byte("plugins:\n  - name: '@scope/Plugin'\n"), nil, cat, nil)
	if p := findProblem(t, err, "/plugins/0/name"); !strings.Contains(p.Message, "add an id") {
		t.Fatalf("got %+v", p)
	}
	if _, err := Parse("x", []byte("plugins:\n  - {id: scoped, name: '@scope/Plugin'}\n"), nil, cat, nil); err != nil {
		t.Fatalf("explicit id: %v", err)
	}
}

func TestParseStructureProblems(t *testing.T) {
	cases := []struct{ src, ptr, msg string }{
		{"- a\n- b\n", "", "must be a mapping"},
		{"hosts: {}\n", "/hosts", `unknown section "hosts"`},
		{"host: [1]\n", "/host", "host must be a mapping"},
		{"plugins: {name: counter}\n", "/plugins", "list of entries"},
		{"plugins: [counter]\n", "/plugins/0", "must be a mapping"},
		{"plugins: [{config: {}}]\n", "/plugins/0/name", "name must be"},
		{"plugins: [{name: counter, disable: true}]\n", "/plugins/0/disable", `unknown field "disable"`},
		{"plugins: [{name: counter, disabled: 'no'}]\n", "/plugins/0/disabled", "true or false"},
		{"plugins: [{name: counter, config: [1]}]\n", "/plugins/0/config", "config must be a mapping"},
		{"plugins: [{name: counter, config: {1: x}}]\n", "/plugins/0/config", "must be a string"},
	}
	for _, c := range cases {
		_, err, _ := parseString(t, c.src)
		if p := findProblem(t, err, c.ptr); !strings.Contains(p.Message, c.msg) {
			t.Errorf("%q: got %+v, want message containing %q", c.src, p, c.msg)
		}
	}
}

func TestParseEmptyFileAndSchemalessPlugins(t *testing.T) {
	f, _ := mustParse(t, "")
	if len(f.Plugins) != 0 || f.Host["workers"] != int64(4) || f.Path != "dsh.yaml" {
		t.Fatalf("got %+v", f)
	}
	f, _ = mustParse(t, "plugins:\n  - name: free\n    config: {anything: [1, {x: y}]}\n")
	want := map[string]any{"anything": []any{int64(1), map[string]any{"x": "y"}}}
	if !reflect.DeepEqual(f.Plugins[0].Config, want) {
		t.Fatalf("config = %#v", f.Plugins[0].Config)
	}
	f, err := Parse("x", []byte("host: {whatever: 1}\n"), nil, nil, nil)
	if err != nil || f.Host["whatever"] != int64(1) {
		t.Fatalf("no host schema should accept any host section: %v %+v", err, f)
	}
}

func TestParseMissingConfigGetsDefaults(t *testing.T) {
	f, _ := mustParse(t, "plugins:\n  - name: counter\n  - {id: c2, name: counter, config: ~}\n")
	for _, e := range f.Plugins {
		if e.Config["maxElements"] != int64(100) {
			t.Fatalf("%s: config = %#v", e.ID, e.Config)
		}
	}
}

func TestParseInvalidSchemas(t *testing.T) {
	cat := MapCatalog{"broken": []byte(`{"type": 12}`)}
	_, err := Parse("x", []byte("plugins: [{name: broken}]\n"), nil, cat, nil)
	if p := findProblem(t, err, "/plugins/0/name"); !strings.Contains(p.Message, "invalid config schema") {
		t.Fatalf("got %+v", p)
	}
	_, err = Parse("x", []byte(""), []byte(`{`), nil, nil)
	findProblem(t, err, "/host")
}

func TestLoadReadsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsh.yaml")
	if err := os.WriteFile(path, []byte("plugins:\n  - name: web\n    config: {port: 8080}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, []byte(hostSchema), testCatalog(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path || f.Plugins[0].Config["port"] != int64(8080) {
		t.Fatalf("got %+v", f)
	}
	_, err = Load(filepath.Join(t.TempDir(), "missing.yaml"), nil, nil, nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want ErrNotExist", err)
	}
}
