package mermaid

import "github.com/dshgo/dsh/plugins/excalidraw/diagram"

// parseSequence reads a sequenceDiagram. Not written yet.
func parseSequence(src string) (*diagram.Sequence, error) {
	return nil, &Error{Line: 1, Column: 1, Message: "sequenceDiagram is not supported yet"}
}
