package mcpserve

import (
	"fmt"
	"path"
)

// toolSet is the operator's choice of tools to offer (Options.Tools):
// names or path.Match patterns ("excalidraw_scene_*"). The zero toolSet
// offers every tool.
type toolSet []string

// ValidToolPatterns checks Options.Tools: each a tool name or a
// path.Match pattern.
func ValidToolPatterns(patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil || p == "" {
			return fmt.Errorf("tool pattern %q is malformed", p)
		}
	}
	return nil
}

// offers reports whether the tool called name is offered.
func (s toolSet) offers(name string) bool {
	if len(s) == 0 {
		return true
	}
	for _, p := range s {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}
