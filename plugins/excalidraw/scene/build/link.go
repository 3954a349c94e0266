package build

import (
	"errors"
	"strings"
)

// normalizeLink returns the link as Excalidraw's restore would store it,
// or an error for links that restore would rewrite beyond recognition.
//
// restore passes every link through normalizeLink (trim, `"` → %22) and
// @braintree/sanitize-url, which decodes HTML character references, drops
// control characters and replaces javascript:, data: and vbscript: links
// with about:blank. The builder applies the harmless steps itself and
// refuses input that the others would change, so what it writes is
// already restore's output. An empty link is no link (null).
func normalizeLink(p *string) (any, error) {
	if p == nil {
		return nil, nil
	}
	link := strings.TrimFunc(*p, isJSSpace)
	if link == "" {
		return nil, nil
	}
	link = strings.ReplaceAll(link, `"`, "%22")
	for _, r := range link {
		if isSanitizedAway(r) {
			return nil, errors.New("link contains a control or invisible character")
		}
	}
	lower := strings.ToLower(link)
	if strings.Contains(lower, "&#") || strings.Contains(lower, "&newline;") || strings.Contains(lower, "&tab;") {
		return nil, errors.New("link contains an HTML character reference; write the character itself")
	}
	if hasDangerousScheme(link) {
		return nil, errors.New("javascript:, data: and vbscript: links are not allowed")
	}
	return link, nil
}

// isJSSpace is the whitespace JavaScript's String#trim removes.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isSanitizedAway is sanitize-url's control-character class.
func isSanitizedAway(r rune) bool {
	return r <= 0x1f || (r >= 0x7f && r <= 0x9f) || (r >= 0x2000 && r <= 0x200d) || r == 0xfeff
}

// hasDangerousScheme mirrors sanitize-url: a link that is not relative and
// has a scheme (anything before a colon) is blocked when, after leading
// non-word characters, it starts with javascript, data or vbscript.
func hasDangerousScheme(link string) bool {
	if link[0] == '.' || link[0] == '/' || !strings.Contains(link, ":") {
		return false
	}
	rest := strings.TrimLeftFunc(link, func(r rune) bool { return !isWordChar(r) })
	rest = strings.ToLower(rest)
	for _, bad := range []string{"javascript", "data", "vbscript"} {
		if strings.HasPrefix(rest, bad) {
			return true
		}
	}
	return false
}

// isWordChar is JavaScript's \w (ASCII only).
func isWordChar(r rune) bool {
	return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}
