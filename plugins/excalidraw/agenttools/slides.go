package agenttools

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// LayoutFramesTool is the slide planner's name.
const LayoutFramesTool = "layout_frames"

// frameLayoutTools is layout_frames: frames as slides or sheets of one
// size in a row or grid.
func frameLayoutTools(svc *service.Service) []tools.Tool {
	h := elementHandlers{svc: svc}
	size := `"size":{"anyOf":[{"enum":["` + strings.Join(service.SlidePresets, `","`) + `"]},{"type":"object","additionalProperties":false,"required":["width","height"],"properties":{"width":{"type":"number"},"height":{"type":"number"}}}]}`
	return []tools.Tool{
		{Name: LayoutFramesTool, Description: "Frames as slides or sheets of one size in a row or grid: new slides with their content in one call, or existing frames (ids/target) moved and resized.",
			InputSchema: writeSchema(nil, sIDs, sTarget,
				`"slides":{"type":"array","minItems":1,"maxItems":200,"items":{"type":"object","additionalProperties":false,"properties":{"name":{"type":"string","maxLength":256},"elements":{"type":"array","maxItems":1000,"items":{"type":"object"}}}}}`,
				size, `"layout":{"enum":["row","grid"]}`, `"columns":{"type":"integer","minimum":1,"maximum":100}`,
				`"gap":{"type":"number","minimum":0,"maximum":10000}`,
				`"at":{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":`+sNum+`,"y":`+sNum+`}}`),
			ListedSchema: writeSchema(nil, listedIDs, sTarget,
				`"slides":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"elements":{"type":"array","items":{"type":"object"}}}}}`,
				`"size":{"description":"{width,height} or `+strings.Join(service.SlidePresets, "|")+`"}`, `"layout":{"enum":["row","grid"]}`, `"columns":{"type":"integer"}`, `"gap":{"type":"number"}`, listedAt),
			Annotations: tools.Annotations{Title: "Lay out frames"}, Handler: edit[service.LayoutFrames](h),
			InvalidArgumentsCode: invalidArguments},
	}
}
