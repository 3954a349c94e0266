package query

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The seed's spellings of the target's keys: camelCase beside the tools'
// snake_case, and "type" (one type, or a list) beside "types". Each is
// one key spelled two ways, with one meaning; giving both is refused (see
// Check), never resolved by a rule the caller cannot see.
var aliasOf = map[string]string{
	"frameIds":       "frame_ids",
	"frameName":      "frame_name",
	"groupId":        "group_id",
	"textContains":   "text_contains",
	"textRegex":      "text_regex",
	"hasLink":        "has_link",
	"includeDeleted": "include_deleted",
	"type":           "types",
}

// aliases lists aliasOf's keys in a fixed order, so the one refused when
// several are doubled is always the same.
var aliases = []string{"frameIds", "frameName", "groupId", "hasLink", "includeDeleted", "textContains", "textRegex", "type"}

// target is Target without its methods, for UnmarshalJSON to decode into.
type target Target

// UnmarshalJSON decodes a target in either spelling of its keys (see
// aliasOf): an alias is read as its canonical key, "type" as a string or
// a list of strings. Decoding is strict, as the tools' is: a member
// Target does not know is an error. An alias given beside its canonical
// key is kept aside for Check to refuse, at the alias's pointer.
func (t *Target) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	twice := ""
	for _, alias := range aliases {
		v, ok := m[alias]
		if !ok {
			continue
		}
		delete(m, alias)
		key := aliasOf[alias]
		if _, both := m[key]; both {
			if twice == "" {
				twice = alias
			}
			continue
		}
		if alias == "type" {
			if v = bytes.TrimSpace(v); len(v) > 0 && v[0] == '"' {
				v = append(append([]byte{'['}, v...), ']')
			}
		}
		m[key] = v
	}
	canonical, err := json.Marshal(m)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.DisallowUnknownFields()
	var out target
	if err := dec.Decode(&out); err != nil {
		return fmt.Errorf("target: %w", err)
	}
	*t = Target(out)
	t.twice = twice
	return nil
}
