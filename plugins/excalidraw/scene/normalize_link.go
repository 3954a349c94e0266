package scene

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// maxLinkRounds bounds fixedLink. normalizeLink is not idempotent (it
// decodes one level of &#NN; entities and escapes double quotes, so
// "&#34;" becomes `"` and then "&quot;"), so restore would change such a
// link again on every load; a few rounds reach its fixed point.
const maxLinkRounds = 8

// fixedLink applies restore's normalizeLink until the link no longer
// changes: "" means null (restore turns an empty result into null on the
// next load). A link that does not settle becomes "about:blank", which
// does.
func fixedLink(link string) string {
	for range maxLinkRounds {
		next := normalizeLink(link)
		if next == link || next == "" {
			return next
		}
		link = next
	}
	return "about:blank"
}

// normalizeLink is restore's data/url.ts normalizeLink: trimmed, double
// quotes escaped, then @braintree/sanitize-url 6.0.2's sanitizeUrl.
func normalizeLink(link string) string {
	link = trimJS(link)
	if link == "" {
		return link
	}
	return sanitizeURL(strings.ReplaceAll(link, `"`, "&quot;"))
}

// sanitizeUrl's patterns. In JavaScript `&#(\w+)(^\w|;)?` can only match
// `;` after the digits (`^` is the start of the input), and `.` stops at
// line terminators, of which only U+2028 and U+2029 survive the control
// character removal.
var (
	htmlEntity     = regexp.MustCompile(`&#(\w+);?`)
	htmlCtrlEntity = regexp.MustCompile(`&([nN][eE][wW][lL][iI][nN][eE]|[tT][aA][bB]);`)
	ctrlCharacters = regexp.MustCompile(`[\x00-\x1F\x7F-\x9F\x{2000}-\x{200D}\x{FEFF}]`)
	urlScheme      = regexp.MustCompile(`^[^\x{2028}\x{2029}]+(:|&colon;)`)
)

// jsWhitespace is what String#trim removes.
const jsWhitespace = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

// sanitizeURL is sanitizeUrl: decode numeric entities, strip control
// characters, and replace a javascript:, data: or vbscript: URL with
// about:blank.
func sanitizeURL(url string) string {
	s := htmlEntity.ReplaceAllStringFunc(url, decodeEntity)
	s = htmlCtrlEntity.ReplaceAllString(s, "")
	s = ctrlCharacters.ReplaceAllString(s, "")
	s = trimJS(s)
	if s == "" {
		return "about:blank"
	}
	if s[0] == '.' || s[0] == '/' {
		return s
	}
	scheme := urlScheme.FindString(s)
	if scheme == "" {
		return s
	}
	if dangerousScheme(scheme) {
		return "about:blank"
	}
	return s
}

// dangerousScheme is /^([^\w]*)(javascript|data|vbscript)/i: the scheme,
// after any non-word characters, starts with one of the three names, in
// any ASCII case (JavaScript's non-Unicode case folding leaves other
// characters alone, unlike Go's (?i)).
func dangerousScheme(scheme string) bool {
	rest := strings.TrimLeftFunc(scheme, func(r rune) bool { return !isWordChar(r) })
	if len(rest) > 10 {
		rest = rest[:10]
	}
	rest = strings.ToLower(rest) // the prefix kept is ASCII word characters or a cut rune
	return strings.HasPrefix(rest, "javascript") || strings.HasPrefix(rest, "data") || strings.HasPrefix(rest, "vbscript")
}

func isWordChar(r rune) bool {
	return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

// decodeEntity is String.fromCharCode(Number(digits)) for "&#digits;":
// Number reads decimal, 0x, 0o and 0b forms and exponents; anything else
// is NaN, which becomes U+0000. The code unit is taken modulo 2^16; a lone
// surrogate, which a Go string cannot hold, becomes U+FFFD.
func decodeEntity(m string) string {
	digits := strings.TrimSuffix(strings.TrimPrefix(m, "&#"), ";")
	unit := uint16(0)
	if f := numberJS(digits); !math.IsNaN(f) && !math.IsInf(f, 0) {
		unit = uint16(int64(math.Mod(math.Trunc(f), 65536)))
	}
	if utf16.IsSurrogate(rune(unit)) {
		return "\uFFFD"
	}
	return string(rune(unit))
}

// numberJS is Number(s) for the word characters \w+ can match.
func numberJS(s string) float64 {
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			n, err := strconv.ParseUint(s[2:], base, 64)
			if err != nil {
				return math.NaN()
			}
			return float64(n)
		}
	}
	if s == "Infinity" {
		return math.Inf(1)
	}
	for _, c := range s {
		if (c < '0' || c > '9') && c != 'e' && c != 'E' {
			return math.NaN()
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return math.NaN()
	}
	return f
}

// trimJS is String#trim: JavaScript's white space and line terminators.
func trimJS(s string) string { return strings.Trim(s, jsWhitespace) }
