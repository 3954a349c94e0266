package loader

import (
	"fmt"
	"strconv"
	"strings"
)

// Problem is one reason a configuration file was rejected. Every problem
// carries a JSON pointer into the file so the operator can find the value
// without guessing which of several similar entries is meant.
type Problem struct {
	// EntryID is the id of the plugin entry the problem belongs to; empty for
	// problems outside plugin entries (YAML syntax, the host section).
	EntryID string
	// Pointer is an RFC 6901 JSON pointer into the file, for example
	// /plugins/1/config/maxElements; empty when the whole file is at fault.
	Pointer string
	// Line is the 1-based line of the value (or of its nearest ancestor that
	// is written in the file); 0 when unknown.
	Line int
	// Message says what is wrong, in terms of the value rather than the schema.
	Message string
}

// String renders the problem as `entry "id" at /pointer (line N): message`,
// leaving out whatever is unknown.
func (p Problem) String() string {
	var b strings.Builder
	if p.EntryID != "" {
		b.WriteString("entry ")
		b.WriteString(strconv.Quote(p.EntryID))
	}
	if p.Pointer != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("at ")
		b.WriteString(p.Pointer)
	}
	if p.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "(line %d)", p.Line)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Error rejects a configuration file. It lists every problem found rather
// than only the first, so an operator fixes a file in one round trip instead
// of one edit per mistake.
type Error struct {
	// Path is the file that was rejected.
	Path     string
	Problems []Problem
}

// Error returns all problems on one line, which keeps the message intact in
// line-oriented logs.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("config")
	if e.Path != "" {
		b.WriteByte(' ')
		b.WriteString(e.Path)
	}
	switch len(e.Problems) {
	case 0:
		b.WriteString(": invalid")
		return b.String()
	case 1:
		b.WriteString(": ")
		b.WriteString(e.Problems[0].String())
		return b.String()
	}
	fmt.Fprintf(&b, ": %d problems: ", len(e.Problems))
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// EntryIDs returns the distinct non-empty entry ids named by the problems,
// in order of first appearance; handy as a structured log field.
func (e *Error) EntryIDs() []string {
	seen := make(map[string]bool)
	var ids []string
	for _, p := range e.Problems {
		if p.EntryID == "" || seen[p.EntryID] {
			continue
		}
		seen[p.EntryID] = true
		ids = append(ids, p.EntryID)
	}
	return ids
}

// Pointers returns the distinct non-empty pointers named by the problems,
// in order of first appearance; handy as a structured log field.
func (e *Error) Pointers() []string {
	seen := make(map[string]bool)
	var ptrs []string
	for _, p := range e.Problems {
		if p.Pointer == "" || seen[p.Pointer] {
			continue
		}
		seen[p.Pointer] = true
		ptrs = append(ptrs, p.Pointer)
	}
	return ptrs
}
