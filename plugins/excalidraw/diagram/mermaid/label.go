package mermaid

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// text turns a label as written into the text it shows: markdown
// backticks dropped, <br> and \n as line breaks, entity codes decoded,
// simple formatting tags dropped, each line trimmed.
func text(raw string) string {
	s := strings.TrimSpace(raw)
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		s = s[1 : len(s)-1]
	}
	s = strings.ReplaceAll(s, `\n`, "\n")
	s = tags(s)
	s = icons(s)
	s = entities(s)
	if strings.Contains(s, "\n") {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		s = strings.Join(lines, "\n")
	}
	return strings.TrimSpace(s)
}

// icons drops Font Awesome icons (fa:fa-car, fab:fa-github and the other
// prefixes) and the space after each: a label here is text.
func icons(s string) string {
	if !strings.Contains(s, ":fa-") {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.Index(s, ":fa-")
		if i < 0 {
			break
		}
		start := i - 1
		for start >= 0 && s[start] >= 'a' && s[start] <= 'z' {
			start--
		}
		start++
		prefix := s[start:i]
		end := i + len(":fa-")
		for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= '0' && s[end] <= '9' || s[end] == '-') {
			end++
		}
		wordStart := start == 0 || s[start-1] == ' ' || s[start-1] == '\n'
		if !wordStart || !iconPrefixes[prefix] || end == i+len(":fa-") {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:start])
		s = strings.TrimPrefix(s[end:], " ")
	}
	b.WriteString(s)
	return b.String()
}

var iconPrefixes = map[string]bool{"fa": true, "fab": true, "fas": true, "far": true, "fal": true, "fad": true, "fak": true}

// inlineTags are the formatting tags dropped from labels (the text stays).
var inlineTags = map[string]bool{
	"b": true, "i": true, "u": true, "s": true, "em": true, "strong": true,
	"small": true, "big": true, "code": true, "sub": true, "sup": true,
	"span": true, "mark": true, "del": true, "ins": true,
}

// tags replaces <br>, <br/> and <br /> (any case) by a line break and
// drops the inline formatting tags; anything else stays as written.
func tags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s[:min(len(s), 14)], '>')
		if j < 0 {
			b.WriteByte('<')
			s = s[1:]
			continue
		}
		// <name>, </name>, <name/> or <name />: nothing else is a tag.
		name := strings.ToLower(s[1:j])
		closing := strings.HasPrefix(name, "/")
		name = strings.TrimPrefix(name, "/")
		selfClosing := strings.HasSuffix(name, "/")
		name = strings.TrimRight(strings.TrimSuffix(name, "/"), " ")
		if strings.TrimLeft(name, "abcdefghijklmnopqrstuvwxyz") != "" || name == "" {
			name = ""
		}
		switch {
		case name == "br" && !closing:
			b.WriteByte('\n')
		case inlineTags[name] && !selfClosing:
		default:
			b.WriteByte('<')
			s = s[1:]
			continue
		}
		s = s[j+1:]
	}
}

// named are the entity names decoded in labels: HTML's, as Mermaid
// writes them (#quot;) or as HTML does (&quot;).
var named = map[string]string{
	"quot": `"`, "amp": "&", "lt": "<", "gt": ">", "apos": "'", "nbsp": "\u00a0",
	"num": "#", "semi": ";", "colon": ":", "comma": ",", "period": ".",
	"lpar": "(", "rpar": ")", "lsqb": "[", "rsqb": "]", "lbrack": "[", "rbrack": "]",
	"lcub": "{", "rcub": "}", "lbrace": "{", "rbrace": "}", "vert": "|", "verbar": "|",
	"excl": "!", "quest": "?", "commat": "@", "dollar": "$", "percnt": "%",
	"ast": "*", "plus": "+", "equals": "=", "lowbar": "_", "grave": "`",
	"tilde": "~", "sol": "/", "bsol": `\`, "hyphen": "-", "dash": "-",
	"copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–",
	"laquo": "«", "raquo": "»", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
	"hearts": "♥", "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓", "harr": "↔",
	"lArr": "⇐", "rArr": "⇒", "hArr": "⇔", "times": "×", "divide": "÷", "deg": "°",
	"plusmn": "±", "middot": "·", "bull": "•", "euro": "€", "pound": "£", "yen": "¥",
	"cent": "¢", "sect": "§", "para": "¶", "micro": "µ", "ne": "≠", "le": "≤",
	"ge": "≥", "infin": "∞", "check": "✓", "cross": "✗", "star": "☆", "starf": "★",
}

// entities decodes #name; #123; #x7b; and the same with &.
func entities(s string) string {
	if !strings.ContainsAny(s, "#&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "#&")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s[:min(len(s), 34)], ';')
		if j > 1 {
			if r, ok := entity(s[1:j]); ok {
				b.WriteString(r)
				s = s[j+1:]
				continue
			}
		}
		b.WriteByte(s[0])
		s = s[1:]
	}
}

func entity(name string) (string, bool) {
	if v, ok := named[name]; ok {
		return v, true
	}
	digits, base := name, 10
	if strings.HasPrefix(name, "#") { // &#123;
		digits = name[1:]
	}
	if strings.HasPrefix(digits, "x") || strings.HasPrefix(digits, "X") {
		digits, base = digits[1:], 16
	}
	if digits == "" {
		return "", false
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || n == 0 || !utf8.ValidRune(rune(n)) {
		return "", false
	}
	return string(rune(n)), true
}
