package mermaid

import "github.com/dshgo/dsh/plugins/excalidraw/diagram"

// parseER reads an erDiagram. Not written yet.
func parseER(src string) (*diagram.Graph, error) {
	return nil, &Error{Line: 1, Column: 1, Message: "erDiagram is not supported yet"}
}
