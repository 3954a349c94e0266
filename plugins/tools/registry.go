package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
)

// entry is one registration. Its pointer identity distinguishes a tool
// from a later re-registration under the same name, which is what lets an
// unregister function remove exactly its own registration.
type entry struct {
	desc    Descriptor
	schema  *jsonschema.Schema // the published schema, compiled
	fast    *jsonschema.Schema // schema with dispatched unions; nil: none
	handler Handler
	refuse  func(context.Context, json.RawMessage) error // Tool.Refuse
	// noArgs is the canonical arguments of a call that gives none (blank
	// or {}) when the schema accepts that, so such a call (a status, a
	// list) is not validated each time; nil when it does not.
	noArgs      json.RawMessage
	invalidCode string
	limits      []argLimit
	board       string // Tool.BoardArgument
}

// Registry holds the tools currently offered to agents. It is safe for
// concurrent use; calls never hold a lock while a handler runs.
type Registry struct {
	log *zap.Logger

	mu    sync.RWMutex
	tools map[string]*entry
	// instructions are the plugins' texts for MCP's initialize
	// (AddInstructions), in order.
	instructions []*instruction

	maxArgBytes atomic.Int64                 // see SetMaxArgumentBytes
	metrics     atomic.Pointer[callMetrics]  // see Instrument (metrics.go)
	tracer      atomic.Pointer[trace.Tracer] // see Trace (access.go)
	access      *zap.Logger                  // one line per call (access.go)

	subs subscribers
}

// NewRegistry returns an empty registry. A nil logger disables logging.
func NewRegistry(log *zap.Logger) *Registry {
	if log == nil {
		log = zap.NewNop()
	}
	r := &Registry{
		log:   log.Named("tools"),
		tools: make(map[string]*entry),
	}
	r.access = r.log.Named("access")
	r.maxArgBytes.Store(DefaultMaxArgumentBytes)
	return r
}

// Register adds t and returns the function that removes it again, meant to
// be recorded as a plugin effect. All problems with t (bad name, missing
// description or handler, schema that is not valid JSON, does not compile,
// is not object-rooted or lacks "additionalProperties": false, an argument
// limit without Max or with a malformed pointer, or a name that is already
// taken) are returned as errors; Register never panics on plugin input.
//
// The returned function is idempotent and only ever removes this
// registration: if the name was unregistered and registered again by
// someone else, calling it again leaves the newer tool alone.
func (r *Registry) Register(t Tool) (unregister func(), err error) {
	if err := checkTool(t); err != nil {
		return nil, fmt.Errorf("tools: register %q: %w", t.Name, err)
	}
	cs, err := compileSchema(t.Name, t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tools: register %q: %w", t.Name, err)
	}
	listed := cs.raw
	if len(t.ListedSchema) > 0 {
		ls, err := compileSchema(t.Name, t.ListedSchema)
		if err != nil {
			return nil, fmt.Errorf("tools: register %q: listed schema: %w", t.Name, err)
		}
		listed = ls.raw
	}
	limits, err := compileLimits(t.ArgumentLimits)
	if err != nil {
		return nil, fmt.Errorf("tools: register %q: %w", t.Name, err)
	}
	code := strings.TrimSpace(t.InvalidArgumentsCode)
	if code == "" {
		code = CodeInvalidArguments
	}
	e := &entry{
		desc: Descriptor{
			Name:        t.Name,
			Description: t.Description,
			InputSchema: listed,
			Annotations: t.Annotations,
		},
		schema:      cs.schema,
		fast:        cs.fast,
		handler:     t.Handler,
		refuse:      t.Refuse,
		invalidCode: code,
		limits:      limits,
		board:       t.BoardArgument,
	}
	if r.validateFast(e, map[string]any{}) == nil {
		if c, err := encodeCanonical(map[string]any{}); err == nil {
			e.noArgs = c
		}
	}

	r.mu.Lock()
	if _, taken := r.tools[t.Name]; taken {
		r.mu.Unlock()
		return nil, fmt.Errorf("tools: register %q: %w", t.Name, ErrDuplicate)
	}
	r.tools[t.Name] = e
	r.mu.Unlock()

	r.log.Debug("tool registered", zap.String("tool", t.Name))
	r.subs.notify(r.log)
	return func() { r.remove(e) }, nil
}

// remove deletes e if, and only if, it is still the registration for its
// name.
func (r *Registry) remove(e *entry) {
	r.mu.Lock()
	if r.tools[e.desc.Name] != e {
		r.mu.Unlock()
		return
	}
	delete(r.tools, e.desc.Name)
	r.mu.Unlock()

	r.log.Debug("tool unregistered", zap.String("tool", e.desc.Name))
	r.subs.notify(r.log)
}

// List returns descriptors of all registered tools sorted by name.
func (r *Registry) List() []Descriptor {
	entries := r.snapshot()
	out := make([]Descriptor, len(entries))
	for i, e := range entries {
		out[i] = e.desc.clone()
	}
	return out
}

// Lookup returns the descriptor of the named tool.
func (r *Registry) Lookup(name string) (Descriptor, bool) {
	e, ok := r.get(name)
	if !ok {
		return Descriptor{}, false
	}
	return e.desc.clone(), true
}

// Len reports how many tools are registered.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.tools)
}

func (r *Registry) get(name string) (*entry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	return e, ok
}

// snapshot returns the current entries sorted by name. Entries are
// immutable, so the slice can be used without holding the lock.
func (r *Registry) snapshot() []*entry {
	r.mu.RLock()
	out := make([]*entry, 0, len(r.tools))
	for _, e := range r.tools {
		out = append(out, e)
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b *entry) int { return strings.Compare(a.desc.Name, b.desc.Name) })
	return out
}
