package agenttools

import (
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// CreateStackTool is the stack planner's name.
const CreateStackTool = "create_stack"

// The listed forms of the planners' ids and at: calls are checked
// against the full ones.
const (
	listedIDs = `"ids":{"type":"array","items":{"type":"string"}}`
	listedAt  = `"at":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}}}`
)

// stackTools is create_stack: a column or row that keeps its gaps.
func stackTools(svc *service.Service) []tools.Tool {
	h := elementHandlers{svc: svc}
	point := `{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":` + sNum + `,"y":` + sNum + `}}`
	return []tools.Tool{
		{Name: CreateStackTool, Description: "Stack elements (ids/target and/or new elements) in a column or row, gap apart, kept so as items grow, shrink, come or go. stack: <id> adds to one.",
			InputSchema: writeSchema(nil, sIDs, sTarget,
				`"elements":{"type":"array","minItems":1,"maxItems":1000,"items":{"type":"object"}}`,
				`"stack":{"type":"string","maxLength":64}`,
				`"direction":{"enum":["column","row"]}`, `"align":{"enum":["start","center","end"]}`,
				`"gap":{"type":"number","minimum":0,"maximum":10000}`, `"at":`+point),
			ListedSchema: writeSchema(nil, listedIDs, sTarget, `"elements":{"type":"array","items":{"type":"object"}}`, `"stack":{"type":"string"}`,
				`"direction":{"enum":["column","row"]}`, `"align":{"enum":["start","center","end"]}`, `"gap":{"type":"number"}`, listedAt),
			Annotations: tools.Annotations{Title: "Create a stack"}, Handler: edit[service.CreateStack](h),
			InvalidArgumentsCode: invalidArguments},
	}
}
