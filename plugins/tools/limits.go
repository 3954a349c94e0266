package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.uber.org/zap"
)

// DefaultMaxArgumentBytes is the registry-wide bound on one call's raw
// arguments until [Registry.SetMaxArgumentBytes] says otherwise. Over HTTP
// the request body is bounded before the registry sees it; over stdio
// nothing else is, so this is what keeps a single huge line from being
// decoded and validated.
const DefaultMaxArgumentBytes int64 = 64 << 20

// MaxArgumentBytesLimit names the registry-wide bound in a refusal's
// details (it is the host setting host.mcp.maxArgumentBytes).
const MaxArgumentBytesLimit = "maxArgumentBytes"

// ArgumentLimit is a bound a tool declares on its raw arguments, checked
// by the registry before the arguments are decoded or validated against
// the schema. Schema validation costs time per element (a oneOf per item
// of a large array takes seconds at 100,000 items); a limit costs a length
// comparison, or one skip-scan over the bytes, so a call that is over a
// limit is refused at that cost with the limit's own code instead of after
// the work.
//
// A refusal is an [Error] with Code, a message naming the limit and
// details {"limit": Name, "max": max, "actual": n} (plus "pointer" for a
// count), the shape plugins use for their own limits, so an agent gets the
// same answer whichever check caught the call.
type ArgumentLimit struct {
	// Pointer is what is measured. "" measures the arguments' length in
	// bytes, as received. An RFC 6901 JSON pointer through object members
	// ("/elements", "/scene/files") counts the items of the array, or the
	// members of the object, found there; where the arguments hold
	// something else there, or nothing, there is nothing to count and the
	// schema reports what is wrong.
	Pointer string
	// Max returns the bound. It is called on every call, so a limit that
	// changes at runtime (a plugin's Reconfigure) applies to the next call;
	// keep it cheap (an atomic load). A result <= 0 checks nothing.
	Max func() int64
	// Code is the refusal's error code; default "too_large".
	Code string
	// Name names the limit in the refusal, ideally after the setting that
	// sets it ("maxElements"); default: the pointer, or "maxBytes" for a
	// length.
	Name string
	// Unit says what is counted, for the message ("elements"); default
	// "bytes" for a length and "items" for a count.
	Unit string
}

// ErrInvalidLimit is returned by Register for an ArgumentLimit without Max
// or with a pointer that is not an RFC 6901 JSON pointer.
var ErrInvalidLimit = errors.New("invalid argument limit")

// argLimit is an ArgumentLimit with its defaults filled in and its pointer
// parsed (path is nil for a length).
type argLimit struct {
	ArgumentLimit
	path []string
}

func (l argLimit) isLength() bool { return l.path == nil }

// compileLimits checks a tool's limits and orders them for checking:
// every length first (they cost nothing), then the counts in the order
// declared.
func compileLimits(in []ArgumentLimit) ([]argLimit, error) {
	var lengths, counts []argLimit
	for i, l := range in {
		if l.Max == nil {
			return nil, fmt.Errorf("%w: limit %d (%q) has no Max", ErrInvalidLimit, i, l.Pointer)
		}
		if strings.TrimSpace(l.Code) == "" {
			l.Code = CodeTooLarge
		}
		if l.Pointer == "" {
			if l.Name == "" {
				l.Name = "maxBytes"
			}
			if l.Unit == "" {
				l.Unit = "bytes"
			}
			lengths = append(lengths, argLimit{ArgumentLimit: l})
			continue
		}
		path, err := parsePointer(l.Pointer)
		if err != nil {
			return nil, fmt.Errorf("%w: limit %d: %v", ErrInvalidLimit, i, err)
		}
		if l.Name == "" {
			l.Name = l.Pointer
		}
		if l.Unit == "" {
			l.Unit = "items"
		}
		counts = append(counts, argLimit{ArgumentLimit: l, path: path})
	}
	return append(lengths, counts...), nil
}

// parsePointer splits a non-empty RFC 6901 pointer into its unescaped
// reference tokens.
func parsePointer(p string) ([]string, error) {
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("pointer %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, part := range parts {
		var b strings.Builder
		for j := 0; j < len(part); j++ {
			if part[j] != '~' {
				b.WriteByte(part[j])
				continue
			}
			if j+1 == len(part) || (part[j+1] != '0' && part[j+1] != '1') {
				return nil, fmt.Errorf("pointer %q: ~ must be followed by 0 or 1", p)
			}
			if part[j+1] == '0' {
				b.WriteByte('~')
			} else {
				b.WriteByte('/')
			}
			j++
		}
		parts[i] = b.String()
	}
	return parts, nil
}

// SetMaxArgumentBytes sets the registry-wide bound on one call's raw
// arguments, checked before any tool's own limits; n <= 0 restores
// [DefaultMaxArgumentBytes]. It takes effect on the next call.
func (r *Registry) SetMaxArgumentBytes(n int64) {
	if n <= 0 {
		n = DefaultMaxArgumentBytes
	}
	r.maxArgBytes.Store(n)
}

// MaxArgumentBytes reports the registry-wide bound on a call's arguments.
func (r *Registry) MaxArgumentBytes() int64 { return r.maxArgBytes.Load() }

// precheck refuses arguments over the registry's bound or one of the
// tool's limits. It runs before the arguments are decoded.
func (r *Registry) precheck(e *entry, raw json.RawMessage) *Error {
	size := int64(len(raw))
	if limit := r.MaxArgumentBytes(); size > limit {
		return overLimit(argLimit{ArgumentLimit: ArgumentLimit{Code: CodeTooLarge, Name: MaxArgumentBytesLimit, Unit: "bytes"}}, size, limit)
	}
	blank := isBlankJSON(raw)
	for _, l := range e.limits {
		if !l.isLength() && blank {
			continue
		}
		limit, ok := r.limitMax(e, l)
		if !ok {
			return errInternal
		}
		if limit <= 0 {
			continue
		}
		if l.isLength() {
			if size > limit {
				return overLimit(l, size, limit)
			}
			continue
		}
		if n, found := countAt(raw, l.path); found && n > limit {
			return overLimit(l, n, limit)
		}
	}
	return nil
}

// limitMax calls l.Max under recover: it is plugin code, and a panic there
// must not take the host down.
func (r *Registry) limitMax(e *entry, l argLimit) (limit int64, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("tool argument limit panicked",
				zap.String("tool", e.desc.Name), zap.String("limit", l.Name), zap.Any("panic", p))
			ok = false
		}
	}()
	return l.Max(), true
}

// overLimit is the refusal for actual against limit.
func overLimit(l argLimit, actual, limit int64) *Error {
	details := map[string]any{"limit": l.Name, "max": limit, "actual": actual}
	subject := "the arguments are"
	if !l.isLength() {
		details["pointer"] = l.Pointer
		subject = l.Pointer + " holds"
	}
	return &Error{
		Code:    l.Code,
		Message: fmt.Sprintf("%s %s %s; the limit is %s (%s)", subject, groupThousands(actual), l.Unit, groupThousands(limit), l.Name),
		Details: details,
	}
}

// groupThousands writes n with commas between thousands: 100,001.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
