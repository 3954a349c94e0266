package tools

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
)

// Annotations are hints about a tool's behaviour that clients may use to
// decide on confirmation prompts. They are advisory only: nothing in this
// package enforces them.
type Annotations struct {
	Title       string
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Handler runs a tool. args has already been validated against the tool's
// input schema and re-encoded canonically, so it is exactly the value that
// passed validation (a blank request arrives as {}).
//
// The returned value is marshalled with encoding/json. Return an *Error for
// failures the agent should see by code; any other error is reported as
// "internal_error" and only logged.
//
// Handlers are rarely written against raw arguments: [Typed] makes one
// from a function of a Go type the arguments decode into.
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is a registration request.
type Tool struct {
	// Name is ^[a-zA-Z0-9_.-]{1,64}$ so it is valid for every MCP client
	// and safe to embed in logs and file names.
	Name string
	// Description tells the model what the tool does; it is required
	// because a tool without one is practically never chosen correctly.
	Description string
	// InputSchema is a JSON Schema (draft 2020-12 unless "$schema" says
	// otherwise). The root must be {"type":"object", ...,
	// "additionalProperties": false} so that typos in argument names are
	// rejected instead of silently ignored.
	InputSchema json.RawMessage
	// ListedSchema, if set, is the schema clients are shown instead of
	// InputSchema, which still checks every call: a shorter one, where a
	// member's full rules are told elsewhere (a guide tool) and listing
	// them with every tool would cost each client's context more than
	// they help. It is held to InputSchema's rules (object-rooted,
	// additionalProperties false) and should admit every call InputSchema
	// admits.
	ListedSchema json.RawMessage
	Annotations  Annotations
	Handler      Handler
	// InvalidArgumentsCode is the error code used when arguments fail the
	// schema; it defaults to "invalid_arguments".
	InvalidArgumentsCode string
	// ArgumentLimits bound the raw arguments (their length, the size of
	// arrays in them) and are checked before decoding and schema
	// validation, so an oversized call is refused with the limit's own
	// code before any per-item work; see [ArgumentLimit].
	ArgumentLimits []ArgumentLimit
	// Refuse, if set, is a cheap look at the raw arguments run after
	// ArgumentLimits and before they are decoded or checked against the
	// schema: an error it returns is the call's answer, as the handler's
	// would be, and nil lets the call go on. It is for a refusal that
	// needs no more than a field or two (a write based on a revision that
	// is no longer the current one), so it costs no schema pass over a
	// large payload; it must return nil whenever it is in doubt, and
	// arguments it cannot read are the schema's to refuse.
	Refuse func(ctx context.Context, args json.RawMessage) error
	// BoardArgument names the top-level string argument that says which
	// board (the plugin's resource) a call acts on, "name" say; the
	// call's access line shows its value as "board". Empty: none.
	BoardArgument string
}

// Descriptor is the public, handler-free view of a registered tool.
// InputSchema is a whitespace-free copy of the schema it lists (the
// tool's ListedSchema, else its InputSchema) with the author's key order
// preserved.
type Descriptor struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	Annotations Annotations
}

// clone returns a Descriptor that shares no memory with d, so callers can
// not corrupt the registry by mutating a returned schema.
func (d Descriptor) clone() Descriptor {
	d.InputSchema = append(json.RawMessage(nil), d.InputSchema...)
	return d
}

// Registration errors. They are wrapped with the tool name, so use
// errors.Is to branch on them.
var (
	ErrInvalidName   = errors.New("invalid tool name")
	ErrNoDescription = errors.New("tool description is required")
	ErrNoHandler     = errors.New("tool handler is required")
	ErrInvalidSchema = errors.New("invalid input schema")
	ErrDuplicate     = errors.New("tool already registered")
)

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)

// ValidName reports whether name is acceptable as a tool name.
func ValidName(name string) bool {
	return toolNameRE.MatchString(name)
}

// checkTool validates everything about t except its schema.
func checkTool(t Tool) error {
	if !ValidName(t.Name) {
		return ErrInvalidName
	}
	if strings.TrimSpace(t.Description) == "" {
		return ErrNoDescription
	}
	if t.Handler == nil {
		return ErrNoHandler
	}
	return nil
}
