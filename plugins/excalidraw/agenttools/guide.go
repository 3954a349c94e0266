package agenttools

import _ "embed"

// guide is the agent guide read_me returns (and MCP clients can read as a
// resource): which tool for what, the selector, the options and the
// envelope, the lint codes, the errors, and every field of the element
// input, the detail the tool descriptions leave out to keep tools/list
// small.
//
//go:embed guide.md
var guide string

// Guide is the agent guide, Markdown.
func Guide() string { return guide }
