package agenttools

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/tools"
)

// boardArgument is the argument that names the board a tool acts on.
const boardArgument = "name"

// markBoards tells the registry which tools name a board (those whose
// schema has a top-level "name" string), so their access lines show it.
func markBoards(ts []tools.Tool) {
	for i := range ts {
		var s struct {
			Properties map[string]struct {
				Type string `json:"type"`
			} `json:"properties"`
		}
		if json.Unmarshal(ts[i].InputSchema, &s) != nil {
			continue
		}
		if p, ok := s.Properties[boardArgument]; ok && p.Type == "string" {
			ts[i].BoardArgument = boardArgument
		}
	}
}
