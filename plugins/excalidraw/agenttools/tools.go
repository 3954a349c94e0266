package agenttools

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
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

// Tools returns the five tool definitions bound to svc.
func Tools(svc *service.Service) []tools.Tool {
	h := handlers{svc: svc}
	return []tools.Tool{
		{
			Name: ListTool, Description: listDescription, InputSchema: marshal(listSchema()),
			Annotations: tools.Annotations{Title: "List Excalidraw scenes", ReadOnly: true, Idempotent: true},
			Handler:     h.list, InvalidArgumentsCode: invalidArguments,
		},
		{
			Name: ReadTool, Description: readDescription, InputSchema: marshal(readSchema()),
			Annotations: tools.Annotations{Title: "Read an Excalidraw scene", ReadOnly: true, Idempotent: true},
			Handler:     h.read, InvalidArgumentsCode: invalidArguments,
		},
		{
			// Not idempotent: a second create of the same name is
			// already_exists, not the first result again.
			Name: CreateTool, Description: createDescription, InputSchema: marshal(createSchema()),
			Annotations: tools.Annotations{Title: "Create an Excalidraw scene"},
			Handler:     h.create, InvalidArgumentsCode: invalidArguments,
		},
		{
			// Destructive because delete operations remove elements;
			// idempotent only when the caller supplies request_id, which
			// an annotation cannot express, so it says false.
			Name: ApplyTool, Description: applyDescription, InputSchema: marshal(applySchema()),
			Annotations: tools.Annotations{Title: "Edit an Excalidraw scene", Destructive: true},
			Handler:     h.apply, InvalidArgumentsCode: invalidArguments,
		},
		{
			Name: ValidateTool, Description: validateDescription, InputSchema: marshal(validateSchema()),
			Annotations: tools.Annotations{Title: "Validate an Excalidraw document", ReadOnly: true, Idempotent: true},
			Handler:     h.validate, InvalidArgumentsCode: invalidArguments,
		},
	}
}
