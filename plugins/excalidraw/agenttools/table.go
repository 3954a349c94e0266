package agenttools

import (
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// SetTableTool is the table planner's name.
const SetTableTool = "set_table"

// tableTools is set_table: a table drawn, or re-planned in place, from
// its header and rows.
func tableTools(svc *service.Service) []tools.Tool {
	h := elementHandlers{svc: svc}
	row := `{"type":"array","minItems":1,"maxItems":` + strconv.Itoa(service.MaxTableColumns) + `,"items":{"type":"string","maxLength":10000}}`
	return []tools.Tool{{
		Name:        SetTableTool,
		Description: "Draw a table from a header and rows of text, cells sized to fit; table: its id re-plans it.",
		InputSchema: writeSchema(nil,
			`"table":{"type":"string","maxLength":64}`,
			`"header":`+row,
			`"rows":{"type":"array","maxItems":`+strconv.Itoa(service.MaxTableCells)+`,"items":`+row+`}`,
			`"align":{"type":"array","maxItems":`+strconv.Itoa(service.MaxTableColumns)+`,"items":{"enum":["left","center","right"]}}`,
			`"at":{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":`+sNum+`,"y":`+sNum+`}}`,
			`"maxColumnWidth":{"type":"number","minimum":40,"maximum":2000}`),
		// Listed without the bounds the call is checked against (read_me
		// tells them).
		ListedSchema: writeSchema(nil, `"table":{"type":"string"}`, `"header":{"type":"array","items":{"type":"string"}}`,
			`"rows":{"type":"array","items":{"type":"array","items":{"type":"string"}}}`,
			`"align":{"type":"array","items":{"enum":["left","center","right"]}}`,
			`"at":{"type":"object","additionalProperties":false,"properties":{"x":{"type":"number"},"y":{"type":"number"}}}`,
			`"maxColumnWidth":{"type":"number"}`),
		Annotations:          tools.Annotations{Title: "Set a table", Destructive: true},
		Handler:              edit[service.SetTable](h),
		InvalidArgumentsCode: invalidArguments,
	}}
}
