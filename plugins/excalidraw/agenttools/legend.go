package agenttools

import (
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// SetLegendTool draws or re-draws a legend.
const SetLegendTool = "set_legend"

// legendMembers are set_legend's own members: the entries or the
// profile, a title, a place, or the legend to draw again.
var legendMembers = []string{
	`"legend":{"type":"string","maxLength":64}`,
	`"entries":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["label"],"properties":{"label":{"type":"string"},"kind":{"enum":["box","line"]},` +
		`"stroke":{"type":"string"},"fill":{"type":"string"},"strokeStyle":{"enum":["solid","dashed","dotted"]},"role":{"type":"string"}}}}`,
	`"fromProfile":{"type":"boolean"}`,
	`"title":{"type":"string"}`,
	`"at":{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":` + sNum + `,"y":` + sNum + `}}`,
}

func legendTools(svc *service.Service) []tools.Tool {
	h := elementHandlers{svc: svc}
	return []tools.Tool{{Name: SetLegendTool,
		Description: "Draw a legend (swatches and labels in a box) from entries or fromProfile:true; legend:id redraws one in place.",
		InputSchema: writeSchema(nil, legendMembers...),
		ListedSchema: writeSchema(nil, `"legend":{"type":"string"}`,
			`"entries":{"type":"array","items":{"type":"object","description":"{label, kind: box|line, fill, stroke, strokeStyle, role}"}}`,
			`"fromProfile":{"type":"boolean"}`, `"title":{"type":"string"}`, `"at":{"type":"object","description":"{x, y}"}`),
		Annotations: tools.Annotations{Title: "Set a legend"}, Handler: edit[service.SetLegend](h),
		InvalidArgumentsCode: invalidArguments}}
}
