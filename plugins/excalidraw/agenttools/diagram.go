package agenttools

import (
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// The diagram planners' names.
const (
	CreateDiagramTool = "create_diagram"
)

// Bounds of a described diagram: nodes and edges in one call.
const (
	maxDiagramNodes = 2000
	maxDiagramEdges = 4000
)

// diagramMembers are the members of a diagram's description: Mermaid
// text, or nodes, edges and groups, with a direction, a place and
// spacing.
func diagramMembers() []string {
	shapes := make([]string, len(diagram.Shapes))
	for i, s := range diagram.Shapes {
		shapes[i] = string(s)
	}
	heads := []string{"none"}
	for _, h := range diagram.Arrowheads {
		heads = append(heads, string(h))
	}
	str := `{"type":"string"}`
	head := `{"enum":["` + strings.Join(heads, `","`) + `"]}`
	return []string{
		`"mermaid":{"type":"string","maxLength":200000,"description":"flowchart, sequenceDiagram, classDiagram, stateDiagram or erDiagram text, instead of nodes/edges/groups"}`,
		`"direction":{"enum":["TB","LR","BT","RL"]}`,
		`"nodes":{"type":"array","maxItems":` + strconv.Itoa(maxDiagramNodes) + `,"items":{"type":"object","additionalProperties":false,"required":["id"],"properties":{"id":` + str +
			`,"label":` + str + `,"shape":{"enum":["` + strings.Join(shapes, `","`) + `"]},"role":{"type":"string","description":"primary, service, database, queue, external, user, note, warning…"},"group":` + str +
			`,"fields":{"type":"array","items":` + str + `}}}}`,
		`"edges":{"type":"array","maxItems":` + strconv.Itoa(maxDiagramEdges) + `,"items":{"type":"object","additionalProperties":false,"required":["from","to"],"properties":{"from":` + str + `,"to":` + str +
			`,"label":` + str + `,"line":{"enum":["solid","dashed","thick","invisible"]},"start":` + head + `,"end":` + head + `,"startLabel":` + str + `,"endLabel":` + str + `}}}`,
		`"groups":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["id"],"properties":{"id":` + str + `,"label":` + str + `,"parent":` + str + `}}}`,
		`"at":{"type":"object","additionalProperties":false,"required":["x","y"],"properties":{"x":` + sNum + `,"y":` + sNum + `}}`,
		`"nodeGap":{"type":"number","minimum":10,"maximum":400}`,
		`"rankGap":{"type":"number","minimum":10,"maximum":400}`,
	}
}

// diagramTools are the planners: the diagram is described, dsh places it.
func diagramTools(svc *service.Service) []tools.Tool {
	h := elementHandlers{svc: svc}
	return []tools.Tool{
		{Name: CreateDiagramTool, Description: "Draw a diagram from nodes, edges and groups, or Mermaid: dsh sizes, lays out and routes it (elbow arrows around boxes), beside the content or at `at`. Describe, don't place.",
			InputSchema: writeSchema(nil, diagramMembers()...),
			Annotations: tools.Annotations{Title: "Create a diagram"}, Handler: edit[service.CreateDiagram](h),
			InvalidArgumentsCode: invalidArguments},
	}
}
