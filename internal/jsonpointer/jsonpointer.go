// Package jsonpointer is the one escaping of JSON pointer (RFC 6901)
// reference tokens: "~" is written "~0" and "/" is written "~1". The
// host's configuration loader, the tools registry and the Excalidraw
// plugin all point at values with it, so a pointer one of them writes is
// one the others read.
package jsonpointer

import "strings"

var (
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// Escape makes a member name one reference token.
func Escape(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return escaper.Replace(name)
}

// Unescape returns the member name a reference token stands for.
func Unescape(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return unescaper.Replace(token)
}
