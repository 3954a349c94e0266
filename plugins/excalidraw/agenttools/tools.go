package agenttools

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// Tool names (contract section 4).
const (
	ListTool     = "excalidraw_scene_list"
	ReadTool     = "excalidraw_scene_read"
	CreateTool   = "excalidraw_scene_create"
	ApplyTool    = "excalidraw_scene_apply"
	ValidateTool = "excalidraw_scene_validate"
)

// invalidArguments is the code for arguments that fail a schema. The
// contract has no separate code for bad tool arguments: a malformed call
// is an invalid operation, the same code the service gives for a bad
// value it finds itself.
const invalidArguments = string(sceneerr.InvalidOperation)

// Option adjusts the tools [Tools] returns.
type Option func(*options)

type options struct {
	limits  func() scene.Limits
	baseURL string
}

// WithBaseURL makes the links export returns absolute: base (the host's
// URL, no trailing slash) before each path.
func WithBaseURL(base string) Option {
	return func(o *options) { o.baseURL = base }
}

// WithLimits tells the tools which limits the service enforces, so that
// their argument limits (see createLimits) refuse an oversized call
// with the same limit before any per-element work. limits is called on
// every call, so a plugin whose limits change at runtime passes a function
// that reads the current ones; it must be cheap and safe for concurrent
// use. Zero fields take scene's defaults, as in the service.
//
// Without it the tools assume the highest limits any configuration allows
// (scene.Limits.ForReading): they then never refuse a call the service
// would accept, but catch early only what no configuration accepts.
func WithLimits(limits func() scene.Limits) Option {
	return func(o *options) { o.limits = limits }
}

// Tools returns the tool definitions bound to svc: the contract's five
// (excalidraw_scene_*), the engine's element-level tools, history,
// rendering, and the board and folder tools.
func Tools(svc *service.Service, opts ...Option) []tools.Tool {
	o := options{limits: func() scene.Limits { return scene.Limits{}.ForReading() }}
	for _, opt := range opts {
		opt(&o)
	}
	h := handlers{svc: svc}
	lim := func() scene.Limits { return o.limits().Effective() }
	ts := append(append(append(contractTools(h, lim), elementTools(svc, lim)...), historyTools(svc)...), renderTools(svc, o.baseURL)...)
	ts = append(append(append(ts, diagramTools(svc)...), craftTools(svc)...), boardTools(svc)...)
	listOptionsShort(ts)
	markBoards(ts)
	return ts
}

// contractTools are the five tools of the capability contract.
func contractTools(h handlers, lim limitsFunc) []tools.Tool {
	return []tools.Tool{
		{
			Name: ListTool, Description: listDescription, InputSchema: marshal(listSchema()),
			Annotations: tools.Annotations{Title: "List scenes", ReadOnly: true, Idempotent: true},
			Handler:     tools.Typed(h.list), InvalidArgumentsCode: invalidArguments,
		},
		{
			Name: ReadTool, Description: readDescription, InputSchema: marshal(readSchema()),
			Annotations: tools.Annotations{Title: "Read a scene", ReadOnly: true, Idempotent: true},
			Handler:     tools.Typed(h.read), InvalidArgumentsCode: invalidArguments,
		},
		{
			// Not idempotent: a second create of the same name is
			// already_exists, not the first result again.
			Name: CreateTool, Description: createDescription, InputSchema: marshal(createSchema()),
			Annotations: tools.Annotations{Title: "Create a scene"},
			Handler:     tools.Typed(h.create), InvalidArgumentsCode: invalidArguments,
			ArgumentLimits: createLimits(lim),
		},
		{
			// Destructive because delete operations remove elements;
			// idempotent only when the caller supplies request_id, which
			// an annotation cannot express, so it says false.
			Name: ApplyTool, Description: applyDescription, InputSchema: marshal(applySchema()),
			ListedSchema: marshal(applyListedSchema()),
			Annotations:  tools.Annotations{Title: "Edit a scene", Destructive: true},
			Handler:      tools.Typed(h.apply), InvalidArgumentsCode: invalidArguments,
			ArgumentLimits: applyLimits(), Refuse: staleRefusal(h.svc),
		},
		{
			Name: ValidateTool, Description: validateDescription, InputSchema: marshal(validateSchema()),
			Annotations: tools.Annotations{Title: "Validate a document", ReadOnly: true, Idempotent: true},
			Handler:     tools.Typed(h.validate), InvalidArgumentsCode: invalidArguments,
		},
	}
}

// createLimits are create's argument limits. The registry checks them on
// the raw arguments before the schema (a oneOf per element) is validated,
// which for 100,000 elements takes seconds. Each is a limit the service
// would refuse the result for anyway, so the refusal has that limit's code
// and details {limit, max, actual} (and the pointer counted), as the
// service's has:
//
//   - the arguments' bytes against maxSceneBytes (too_large): a create's
//     elements and files reach the scene whole (MCP clients send compact
//     JSON), with what the builder adds to each element, so arguments
//     longer than a scene may be cannot make one that fits;
//   - the elements against maxElements (too_many_elements): each input
//     element is at least one element of the scene (a label adds one), so
//     actual is a lower bound of what the scene would have;
//   - the files against maxFiles (too_large).
//
// Each Max reads lim on every call, so changed limits apply at once.
func createLimits(lim func() scene.Limits) []tools.ArgumentLimit {
	return []tools.ArgumentLimit{
		sceneBytesLimit(lim),
		{
			Pointer: "/elements", Code: string(sceneerr.TooManyElements), Name: string(sceneerr.MaxElements), Unit: "elements",
			Max: func() int64 { return int64(lim().MaxElements) },
		},
		{
			Pointer: "/files", Code: string(sceneerr.MaxFiles.Code()), Name: string(sceneerr.MaxFiles), Unit: "attachments",
			Max: func() int64 { return int64(lim().MaxFiles) },
		},
	}
}

// applyLimits are apply's: the operations against the contract's 500, with
// invalid_operation, the code the service gives for it. The arguments'
// bytes are left to the registry's bound: an apply's result is not made of
// its arguments (500 updates may rewrite one text 500 times), and a large
// batch of deletes must stay possible under a lowered maxSceneBytes, the
// way back under it.
func applyLimits() []tools.ArgumentLimit {
	return []tools.ArgumentLimit{{
		Pointer: "/operations", Code: invalidArguments, Name: "maxOperations", Unit: "operations",
		Max: func() int64 { return service.MaxOperations },
	}}
}

// sceneBytesLimit bounds the arguments' length by maxSceneBytes.
func sceneBytesLimit(lim func() scene.Limits) tools.ArgumentLimit {
	return tools.ArgumentLimit{
		Code: string(sceneerr.MaxSceneBytes.Code()), Name: string(sceneerr.MaxSceneBytes), Unit: "bytes",
		Max: func() int64 { return lim().MaxSceneBytes },
	}
}
