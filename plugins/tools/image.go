package tools

// Image is a picture a tool returns beside its JSON result: MCP sends it
// as image content after the text, so a model can look at what a tool
// drew.
type Image struct {
	MIME string // "image/png"
	Data []byte // the file's bytes (transports encode them)
}

// WithImages is a handler's result with pictures: Value is rendered as the
// result's JSON exactly as a plain value would be, and Images travel next
// to it.
type WithImages struct {
	Value  any
	Images []Image
}
