package draw

// ink is the stroke of every node and the colour of its text: roles
// differ by fill, so a diagram keeps to a few stroke colours and its text
// reads on every fill.
const ink = "#1e1e1e"

// Role is how a node of a role is coloured: Excalidraw's palette.
type Role struct {
	Fill, Stroke string
	Dashed       bool
}

// Roles are the node roles a diagram may name, with their colours. A
// role not listed draws as a plain box. start and end (a state diagram's
// dots) and bar (a fork or join) are filled; choice is a diamond's.
var Roles = map[string]Role{
	"primary":   {Fill: "#a5d8ff", Stroke: ink},
	"secondary": {Fill: "#d0bfff", Stroke: ink},
	"service":   {Fill: "#a5d8ff", Stroke: ink},
	"database":  {Fill: "#b2f2bb", Stroke: ink},
	"storage":   {Fill: "#b2f2bb", Stroke: ink},
	"queue":     {Fill: "#ffd8a8", Stroke: ink},
	"external":  {Fill: "#ffec99", Stroke: ink},
	"user":      {Fill: "#eebefa", Stroke: ink},
	"success":   {Fill: "#b2f2bb", Stroke: ink},
	"warning":   {Fill: "#ffec99", Stroke: ink},
	"danger":    {Fill: "#ffc9c9", Stroke: ink},
	"muted":     {Fill: "#e9ecef", Stroke: ink},
	"note":      {Fill: "#fff9db", Stroke: ink, Dashed: true},
	"choice":    {Fill: "#fff3bf", Stroke: ink},
	"start":     {Fill: "#1e1e1e", Stroke: ink},
	"end":       {Fill: "#1e1e1e", Stroke: ink},
	"bar":       {Fill: "#1e1e1e", Stroke: ink},
}

// roleStyle colours an input by its node's role.
func roleStyle(in map[string]any, role string) {
	r, ok := Roles[role]
	if !ok {
		return
	}
	in["backgroundColor"] = r.Fill
	in["fillStyle"] = "solid"
	in["strokeColor"] = r.Stroke
	if r.Dashed {
		in["strokeStyle"] = "dashed"
	}
}
