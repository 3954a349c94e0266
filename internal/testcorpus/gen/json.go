package gen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// obj is a JSON object that keeps its members in the order they were
// set, as Excalidraw writes them.
type obj struct {
	keys []string
	vals []any
}

func newObj() *obj { return &obj{} }

// set replaces a member in place or appends it.
func (o *obj) set(k string, v any) *obj {
	for i, kk := range o.keys {
		if kk == k {
			o.vals[i] = v
			return o
		}
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	return o
}

func (o *obj) get(k string) any {
	for i, kk := range o.keys {
		if kk == k {
			return o.vals[i]
		}
	}
	return nil
}

func (o *obj) del(k string) *obj {
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i], o.vals[i+1:]...)
			return o
		}
	}
	return o
}

func (o *obj) str(k string) string { s, _ := o.get(k).(string); return s }

func (o *obj) num(k string) float64 {
	switch v := o.get(k).(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return 0
}

// encode writes v the way JSON.stringify(v, null, 2) does, which is how
// Excalidraw saves a scene (with no newline at the end; editors that
// save through a text file API add one).
func encode(v any, newline bool) []byte {
	var b strings.Builder
	write(&b, v, 0)
	if newline {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func write(b *strings.Builder, v any, depth int) {
	nl := func(d int) {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", d))
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(number(x))
	case string:
		quote(b, x)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			write(b, e, depth+1)
		}
		nl(depth)
		b.WriteByte(']')
	case *obj:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			quote(b, k)
			b.WriteString(": ")
			write(b, x.vals[i], depth+1)
		}
		nl(depth)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("gen: cannot encode a %T", v))
	}
}

// number prints a float as JavaScript does for the values the generator
// makes (rounded, well within ±1e21 and never under 1e-6 in magnitude).
func number(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null" // what JSON.stringify writes for NaN and ±Infinity
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// quote escapes a string as JSON.stringify does: only the quote, the
// backslash and control characters; everything else is written as is.
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&15])
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
