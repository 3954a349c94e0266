package service

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Validate checks a complete .excalidraw document under the service's
// limits (contract 4.5). It never touches the store and never fails:
// problems, including undecodable input, are diagnostics.
func (s *Service) Validate(doc json.RawMessage) scene.Report {
	return scene.ValidateBytes(doc, s.limits)
}
