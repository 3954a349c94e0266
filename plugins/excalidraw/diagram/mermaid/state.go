package mermaid

import "github.com/dshgo/dsh/plugins/excalidraw/diagram"

// parseState reads a stateDiagram. Not written yet.
func parseState(src string) (*diagram.Graph, error) {
	return nil, &Error{Line: 1, Column: 1, Message: "stateDiagram is not supported yet"}
}
