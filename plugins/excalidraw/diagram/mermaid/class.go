package mermaid

import "github.com/dshgo/dsh/plugins/excalidraw/diagram"

// parseClass reads a classDiagram. Not written yet.
func parseClass(src string) (*diagram.Graph, error) {
	return nil, &Error{Line: 1, Column: 1, Message: "classDiagram is not supported yet"}
}
