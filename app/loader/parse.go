package loader

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"

	"go.uber.org/zap"
)

// idPattern keeps ids usable as log fields, metric labels and path segments
// without quoting.
var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,63}$`)

// entryFields are the keys a plugin entry may have. Unknown keys are
// problems rather than warnings: a misspelt "disable: true" silently
// ignored would start a plugin the operator meant to stop.
var entryFields = map[string]bool{"id": true, "name": true, "disabled": true, "config": true}

// Load reads the file at path and parses it; see Parse.
func Load(path string, hostSchema []byte, cat Catalog, log *zap.Logger) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loader: %w", err)
	}
	return Parse(path, data, hostSchema, cat, log)
}

// Parse parses the YAML configuration in data (read from path, which is
// used only for messages and File.Path), normalizes the host section against
// hostSchema and each entry's config against its plugin's schema, and
// validates the result. An empty hostSchema accepts any host section as
// written.
//
// Every problem found is reported at once in an *Error; the file is either
// accepted whole or rejected whole, so a half-valid file never runs.
func Parse(path string, data []byte, hostSchema []byte, cat Catalog, log *zap.Logger) (*File, error) {
	log = moduleLogger(log)
	doc, probs := decodeYAML(data)
	if len(probs) > 0 {
		return nil, &Error{Path: path, Problems: probs}
	}
	p := &parser{log: log.With(zap.String("path", path)), cat: cat, lines: doc.lines}
	f := p.file(doc.value, hostSchema)
	if len(p.problems) > 0 {
		return nil, &Error{Path: path, Problems: p.problems}
	}
	f.Path = path
	f.sum = sha256.Sum256(data)
	log.Debug("parsed config", zap.String("path", path), zap.Int("entries", len(f.Plugins)))
	return f, nil
}

type parser struct {
	log      *zap.Logger
	cat      Catalog
	lines    map[string]int
	problems []Problem
}

// fail records a problem, locating it on the line of its pointer or of the
// nearest ancestor written in the file (a missing key has no line itself).
func (p *parser) fail(entryID, ptr, format string, args ...any) {
	p.problems = append(p.problems, Problem{EntryID: entryID, Pointer: ptr, Line: p.line(ptr), Message: fmt.Sprintf(format, args...)})
}

func (p *parser) line(ptr string) int {
	for {
		if l, ok := p.lines[ptr]; ok {
			return l
		}
		parent, ok := parentPointer(ptr)
		if !ok {
			return 0
		}
		ptr = parent
	}
}

func (p *parser) file(root any, hostSchema []byte) *File {
	if root == nil {
		root = map[string]any{}
	}
	m, ok := root.(map[string]any)
	if !ok {
		p.fail("", "", "the file must be a mapping with host and plugins sections")
		return nil
	}
	for _, key := range slices.Sorted(maps.Keys(m)) {
		if key != "host" && key != "plugins" {
			p.fail("", childPointer("", key), "unknown section %q; the file has only host and plugins", key)
		}
	}
	return &File{Host: p.host(m["host"], hostSchema), Plugins: p.entries(m["plugins"])}
}

func (p *parser) host(raw any, schema []byte) map[string]any {
	const ptr = "/host"
	if raw == nil {
		raw = map[string]any{}
	}
	m, ok := raw.(map[string]any)
	if !ok {
		p.fail("", ptr, "host must be a mapping")
		return nil
	}
	if len(schema) == 0 {
		return m
	}
	cs, err := compileSchema(schema)
	if err != nil {
		p.fail("", ptr, "the host schema is invalid: %v", err)
		return nil
	}
	return p.config(cs, m, "", ptr)
}

// config normalizes and validates one config object.
func (p *parser) config(cs *compiledSchema, m map[string]any, entryID, ptr string) map[string]any {
	n := &normalizer{schema: cs, log: p.log, entry: entryID}
	v := n.normalize(m, ptr)
	for _, prob := range validate(cs, v, entryID, ptr) {
		p.fail(prob.EntryID, prob.Pointer, "%s", prob.Message)
	}
	out, _ := v.(map[string]any)
	return out
}

func (p *parser) entries(raw any) []Entry {
	const ptr = "/plugins"
	if raw == nil {
		return []Entry{}
	}
	list, ok := raw.([]any)
	if !ok {
		p.fail("", ptr, "plugins must be a list of entries")
		return nil
	}
	out := make([]Entry, 0, len(list))
	firstIndex := make(map[string]int, len(list))
	for i, item := range list {
		e, idPtr, ok := p.entry(i, item)
		if !ok {
			continue
		}
		if first, dup := firstIndex[e.ID]; dup {
			p.fail(e.ID, idPtr, "duplicate id %q: entries %d and %d both use it; give one an explicit id", e.ID, first, i)
			continue
		}
		firstIndex[e.ID] = i
		out = append(out, e)
	}
	return out
}

// entry parses the i-th plugin entry; idPtr is where its id came from (the
// name when the id is defaulted), for problems about the id. ok is false
// when the entry has no usable id; other problems are recorded but still
// return the entry so that duplicate ids are reported alongside them.
func (p *parser) entry(i int, raw any) (e Entry, idPtr string, ok bool) {
	ptr := indexPointer("/plugins", i)
	m, isMap := raw.(map[string]any)
	if !isMap {
		p.fail("", ptr, "a plugin entry must be a mapping with at least a name")
		return Entry{}, "", false
	}
	for _, key := range slices.Sorted(maps.Keys(m)) {
		if !entryFields[key] {
			p.fail(idOf(m), childPointer(ptr, key), "unknown field %q; an entry has id, name, disabled and config", key)
		}
	}
	e.Name, ok = m["name"].(string)
	if !ok || e.Name == "" {
		p.fail(idOf(m), childPointer(ptr, "name"), "name must be the name of a plugin")
		return Entry{}, "", false
	}
	e.ID, idPtr = e.Name, childPointer(ptr, "name")
	if rawID, has := m["id"]; has {
		idPtr = childPointer(ptr, "id")
		if e.ID, ok = rawID.(string); !ok {
			p.fail("", idPtr, "id must be a string")
			return Entry{}, "", false
		}
	}
	if !idPattern.MatchString(e.ID) {
		if m["id"] == nil {
			p.fail(e.ID, idPtr, "the entry has no id and its plugin name %q is not a valid id; add an id of 1-64 characters from a-z, 0-9, '_', '.', '-' starting with a letter or digit", e.Name)
		} else {
			p.fail(e.ID, idPtr, "id %q is not valid; use 1-64 characters from a-z, 0-9, '_', '.', '-' starting with a letter or digit", e.ID)
		}
	}
	if d, has := m["disabled"]; has && d != nil {
		if e.Disabled, ok = d.(bool); !ok {
			p.fail(e.ID, childPointer(ptr, "disabled"), "disabled must be true or false")
		}
	}
	e.Config = p.entryConfig(e, m["config"], childPointer(ptr, "config"), childPointer(ptr, "name"))
	return e, idPtr, true
}

func (p *parser) entryConfig(e Entry, raw any, ptr, namePtr string) map[string]any {
	if raw == nil {
		raw = map[string]any{}
	}
	m, ok := raw.(map[string]any)
	if !ok {
		p.fail(e.ID, ptr, "config must be a mapping")
		return nil
	}
	var schema []byte
	if p.cat != nil {
		schema, ok = p.cat.ConfigSchema(e.Name)
	}
	if p.cat == nil || !ok {
		p.fail(e.ID, namePtr, "unknown plugin %q", e.Name)
		return nil
	}
	if len(schema) == 0 {
		return m
	}
	cs, err := compileSchema(schema)
	if err != nil {
		p.fail(e.ID, namePtr, "plugin %q declares an invalid config schema: %v", e.Name, err)
		return nil
	}
	return p.config(cs, m, e.ID, ptr)
}

// idOf names an entry in problems found before its id is settled.
func idOf(m map[string]any) string {
	if id, ok := m["id"].(string); ok {
		return id
	}
	name, _ := m["name"].(string)
	return name
}
