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

// Instructions is what an MCP client is told when it connects
// (initialize's instructions): where to start. It is short, because it
// sits in every session's context; read_me holds the rest.
const Instructions = "Excalidraw boards: call read_me once first: which tool for what, the target selector, " +
	"write options and the answer, lint codes, errors. Describe diagrams, tables, stacks and slides " +
	"(create_diagram, set_table, create_stack, layout_frames) rather than placing shapes; " +
	"read lint.new in each answer and render to look at the result."
