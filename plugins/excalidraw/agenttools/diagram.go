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
	UpdateDiagramTool = "update_diagram"
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
		{Name: UpdateDiagramTool, Description: "Re-plan a diagram create_diagram drew (diagram: its id) to a new description, given whole as to create_diagram: drawn nodes stay put (moved ones too), new ones are placed beside them, edges re-routed.",
			InputSchema: writeSchema([]string{"diagram"}, append([]string{`"diagram":{"type":"string","maxLength":64}`}, updateMembers()...)...),
			ListedSchema: writeSchema([]string{"diagram"}, `"diagram":{"type":"string"}`, `"mermaid":{"type":"string"}`, `"direction":{"enum":["TB","LR","BT","RL"]}`,
				`"nodes":{"type":"array","description":"as in create_diagram"}`, `"edges":{"type":"array","description":"as in create_diagram"}`, `"groups":{"type":"array","description":"as in create_diagram"}`,
				`"nodeGap":{"type":"number"}`, `"rankGap":{"type":"number"}`),
			Annotations: tools.Annotations{Title: "Update a diagram", Destructive: true}, Handler: edit[service.UpdateDiagram](h),
			InvalidArgumentsCode: invalidArguments},
	}
}

// updateMembers are create_diagram's members but its place: a diagram
// re-planned stays where it is.
func updateMembers() []string {
	var out []string
	for _, m := range diagramMembers() {
		if !strings.HasPrefix(m, `"at":`) {
			out = append(out, m)
		}
	}
	return out
}
