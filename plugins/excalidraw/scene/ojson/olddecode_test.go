package ojson

// The decoder as it was before its rewrite for speed: FuzzDecodeSame
// checks that the new one agrees with it.

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dshgo/dsh/internal/testcorpus"
)

// oldDecode is the decoder before the rewrite, kept to compare against. one JSON value. Strings must be valid UTF-8 (lone
// surrogate escapes become U+FFFD, as Go strings cannot hold them).
func oldDecode(data []byte, lim Limits) (any, error) {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = defaultMaxBytes
	}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = defaultMaxDepth
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, &Error{Code: ErrTooLarge, Detail: strconv.Itoa(len(data)) + " bytes, limit " + strconv.FormatInt(lim.MaxBytes, 10)}
	}
	d := &oldDecoder{data: data, maxDepth: lim.MaxDepth, keys: make(map[string]string, 64)}
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, d.fail(ErrSyntax, "data after the value")
	}
	return v, nil
}

type oldDecoder struct {
	data     []byte
	pos      int
	maxDepth int
	path     []string // for error pointers
	// keys interns member names: a drawing repeats the same thirty names
	// in every element, and one string each saves most of the oldDecoder's
	// allocations.
	keys map[string]string
}

// key reads a member name, interned.
func (d *oldDecoder) key() (string, error) {
	start := d.pos + 1
	for i := start; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			raw := d.data[start:i]
			if k, ok := d.keys[string(raw)]; ok {
				d.pos = i + 1
				return k, nil
			}
			break
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	k, err := d.str()
	if err != nil {
		return "", err
	}
	if len(d.keys) < 4096 {
		d.keys[k] = k
	}
	return k, nil
}

func (d *oldDecoder) fail(code error, detail string) *Error {
	var b strings.Builder
	for _, p := range d.path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return &Error{Code: code, Offset: d.pos, Pointer: b.String(), Detail: detail}
}

func (d *oldDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *oldDecoder) value(depth int) (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.fail(ErrSyntax, "unexpected end of input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	}
	return nil, d.fail(ErrSyntax, "unexpected character "+strconv.QuoteRune(rune(d.data[d.pos])))
}

func (d *oldDecoder) literal(lit string) error {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		return d.fail(ErrSyntax, "invalid literal")
	}
	d.pos += len(lit)
	return nil
}

func (d *oldDecoder) object(depth int) (any, error) {
	if depth > d.maxDepth {
		return nil, d.fail(ErrTooDeep, "limit "+strconv.Itoa(d.maxDepth))
	}
	d.pos++ // {
	o := NewSized(8)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return o, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail(ErrSyntax, "expected a member name")
		}
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		if unsafeKeys[k] {
			return nil, d.fail(ErrUnsafeKey, strconv.Quote(k))
		}
		if o.Has(k) {
			return nil, d.fail(ErrDuplicateKey, strconv.Quote(k))
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail(ErrSyntax, "expected ':'")
		}
		d.pos++
		d.skipSpace()
		d.path = append(d.path, k)
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.path = d.path[:len(d.path)-1]
		o.keys = append(o.keys, k)
		o.vals = append(o.vals, v)
		o.appended()
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.fail(ErrSyntax, "unterminated object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return o, nil
		default:
			return nil, d.fail(ErrSyntax, "expected ',' or '}'")
		}
	}
}

func (d *oldDecoder) array(depth int) (any, error) {
	if depth > d.maxDepth {
		return nil, d.fail(ErrTooDeep, "limit "+strconv.Itoa(d.maxDepth))
	}
	d.pos++ // [
	a := make([]any, 0, 4)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return a, nil
	}
	for i := 0; ; i++ {
		d.skipSpace()
		d.path = append(d.path, strconv.Itoa(i))
		v, err := d.value(depth)
		if err != nil {
			return nil, err
		}
		d.path = d.path[:len(d.path)-1]
		a = append(a, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.fail(ErrSyntax, "unterminated array")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return a, nil
		default:
			return nil, d.fail(ErrSyntax, "expected ',' or ']'")
		}
	}
}

func (d *oldDecoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return nil, d.fail(ErrSyntax, "invalid number")
	}
	if d.data[d.pos] == '0' {
		d.pos++
	} else if d.data[d.pos] >= '1' && d.data[d.pos] <= '9' {
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
	} else {
		return nil, d.fail(ErrSyntax, "invalid number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		n := d.pos
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
		if d.pos == n {
			return nil, d.fail(ErrSyntax, "invalid number")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		n := d.pos
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
		if d.pos == n {
			return nil, d.fail(ErrSyntax, "invalid number")
		}
	}
	return json.Number(d.data[start:d.pos]), nil
}

func (d *oldDecoder) str() (string, error) {
	d.pos++ // opening quote
	start := d.pos
	// Fast path: no escapes, valid UTF-8.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if !utf8.Valid(s) {
				return "", d.fail(ErrSyntax, "invalid UTF-8 in string")
			}
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.fail(ErrSyntax, "control character in string")
		}
		d.pos++
	}
	var b []byte
	b = append(b, d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if !utf8.Valid(b) {
				return "", d.fail(ErrSyntax, "invalid UTF-8 in string")
			}
			return string(b), nil
		case c < 0x20:
			return "", d.fail(ErrSyntax, "control character in string")
		case c != '\\':
			b = append(b, c)
			d.pos++
			continue
		}
		d.pos++
		if d.pos >= len(d.data) {
			break
		}
		e := d.data[d.pos]
		d.pos++
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.fail(ErrSyntax, "invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					save := d.pos
					d.pos += 2
					if lo, ok := d.hex4(); ok {
						if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
							r2 = dec
						} else {
							d.pos = save
						}
					} else {
						d.pos = save
					}
				}
				r = r2
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", d.fail(ErrSyntax, "invalid escape")
		}
	}
	return "", d.fail(ErrSyntax, "unterminated string")
}

func (d *oldDecoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := d.data[d.pos+i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	d.pos += 4
	return r, true
}

// sameDecode fails unless Decode and oldDecode agree on data: the same
// error (code, offset, pointer, detail) or the same value, members in the
// same order and numbers as written.
func sameDecode(t *testing.T, data []byte) {
	t.Helper()
	lim := Limits{MaxBytes: 1 << 24, MaxDepth: 20}
	for _, caches := range []bool{false, true} {
		a, errA := decode(data, lim, caches)
		b, errB := oldDecode(data, lim)
		same(t, data, a, b, errA, errB)
	}
}

func same(t *testing.T, data []byte, a, b any, errA, errB error) {
	t.Helper()
	if (errA == nil) != (errB == nil) || (errA != nil && errA.Error() != errB.Error()) {
		t.Fatalf("errors differ on %q:\nnew %v\nold %v", data, errA, errB)
	}
	if errA != nil {
		if !reflect.DeepEqual(errA, errB) {
			t.Fatalf("errors differ on %q:\nnew %#v\nold %#v", data, errA, errB)
		}
		return
	}
	ea, _ := Marshal(a)
	eb, _ := Marshal(b)
	if !bytes.Equal(ea, eb) || !Equal(a, b, true) {
		t.Fatalf("values differ on %q:\nnew %s\nold %s", data, ea, eb)
	}
	checkTags(t, a)
}

// checkTags checks the decoded objects' invariants: a tag per key from
// tagsFrom members, and every member found by Get.
func checkTags(t *testing.T, v any) {
	switch x := v.(type) {
	case *Object:
		if (len(x.keys) >= tagsFrom) != (x.tags != nil) || (x.tags != nil && len(x.tags) != len(x.keys)) {
			t.Fatalf("%d keys, %d tags", len(x.keys), len(x.tags))
		}
		for i, k := range x.keys {
			for _, probe := range []string{k, k + "x", k[:len(k)/2], "type"} {
				if x.find(probe) != slices.Index(x.keys, probe) {
					t.Fatalf("%q found at %d in %q", probe, x.find(probe), x.keys)
				}
			}
			checkTags(t, x.vals[i])
		}
	case []any:
		for _, e := range x {
			checkTags(t, e)
		}
	}
}

func TestDecodeSameOnCorpus(t *testing.T) {
	for _, f := range testcorpus.Files(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameDecode(t, data)
		// and some damaged versions of it
		for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 2} {
			if cut > 0 {
				sameDecode(t, data[:cut])
			}
		}
	}
}

func FuzzDecodeSame(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2,{"b":"c"}],"d":null}`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, `{"x":[{"constructor":1}]}`,
		`{"a~/b":[0,{"c":[1,2,{"d":"\u0000"}]}]}`, `[1,2,3,4,5,6,7,8,9,10,11,{"x":01}]`, `-0`, `999`, `1000`, `-12`, `12.5e3`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":1}`, `{"a\u0062":1,"ab":2}`, `{"__proto\u005f_":1}`,
		`{"k":"esc\"ape\\d\n","k2":"` + strings.Repeat("x", 300) + `"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameDecode(t, data) })
}
