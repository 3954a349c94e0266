package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// overlapSchema has unions whose branches share discriminator values: an
// anyOf where two branches take t:"x" (both then count their members as
// evaluated), and a oneOf where they do (so t:"x" with both members
// matches twice and fails), each closed with unevaluatedProperties.
const overlapSchema = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "any": {"type": "array", "items": {
      "anyOf": [
        {"properties": {"t": {"enum": ["x", "y"]}, "p": {"type": "number"}}, "required": ["t"]},
        {"properties": {"t": {"const": "x"}, "q": {"type": "string"}}, "required": ["q"]},
        {"properties": {"t": {"not": {"enum": ["x", "y"]}}}}
      ],
      "unevaluatedProperties": false
    }},
    "one": {"type": "array", "items": {
      "oneOf": [
        {"properties": {"t": {"enum": ["x", "y"]}, "p": {"type": "number"}}, "required": ["t", "p"]},
        {"properties": {"t": {"const": "x"}, "q": {"type": "string"}}, "required": ["q"]}
      ],
      "unevaluatedProperties": false
    }}
  }
}`

// compiledPair compiles schema as the registry does and returns the
// published and the fast compilation; the fast one must exist.
func compiledPair(t *testing.T, schema string) (published, fast *jsonschema.Schema) {
	t.Helper()
	cs, err := compileSchema("union", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	if cs.fast == nil {
		t.Fatal("no union was dispatched")
	}
	return cs.schema, cs.fast
}

// dispatchSites lists where the fast compilation of schema dispatches,
// as "location keyword: discriminators".
func dispatchSites(t *testing.T, schema string) []string {
	t.Helper()
	_, fast := compiledPair(t, schema)
	var out []string
	walkSchemas(fast, func(s *jsonschema.Schema) {
		for _, e := range s.Extensions {
			d, ok := e.(*dispatch)
			if !ok {
				continue
			}
			var names []string
			for _, disc := range d.discs {
				names = append(names, disc.name)
			}
			_, loc, _ := strings.Cut(s.Location, "#")
			out = append(out, loc+" "+d.keyword+": "+strings.Join(names, ","))
		}
	})
	slices.Sort(out)
	return out
}

// Dispatch is installed exactly on the unions whose branches all pin one
// property: through nested unions and "not" too, but not where a branch
// leaves it open ("either", "loose") or only its JSON type differs (the
// null-or-enum "tag").
func TestDispatchIsInstalledWhereEveryBranchPinsTheProperty(t *testing.T) {
	for name, tc := range map[string]struct {
		schema string
		want   []string
	}{
		"union": {unionSchema, []string{
			"/properties/steps/items oneOf: kind",
			"/properties/steps/items/oneOf/0/properties/shape oneOf: form",
		}},
		"ref": {refSchema, []string{
			"/$defs/item oneOf: kind",
			"/$defs/item/oneOf/0 oneOf: kind",
		}},
		"overlap": {overlapSchema, []string{
			"/properties/any/items anyOf: t",
			"/properties/one/items oneOf: t",
		}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := dispatchSites(t, tc.schema); !slices.Equal(got, tc.want) {
				t.Fatalf("dispatched at\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
	if cs, err := compileSchema("echo", []byte(echoSchema)); err != nil || cs.fast != nil {
		t.Fatalf("a schema without unions got a fast compilation (%v)", err)
	}
}

// The fast compilation accepts exactly what the published one does, on
// valid arguments and on random mutations of them: wrong, missing and
// surprising discriminators, members of another branch, wrong types,
// arrays where objects belong.
func TestDispatchAcceptsExactlyWhatTheSchemaDoes(t *testing.T) {
	for name, tc := range map[string]struct {
		schema string
		valid  []string
		vocab  []string
	}{
		"union": {unionSchema, []string{
			`{"steps":[{"kind":"put","shape":{"form":"circle","r":1,"color":"red"}},{"kind":"put","shape":{"form":"square","side":2}}]}`,
			`{"steps":[{"kind":"set","key":"k","value":1,"tag":null},{"kind":"set","key":"k","value":2,"tag":"a"},{"kind":"drop","key":"k"}]}`,
			`{"either":{"a":"1","b":"2","c":"3"},"map":{"m":1}}`,
		}, []string{"kind", "shape", "form", "r", "side", "color", "key", "value", "tag", "a", "d"}},
		"ref": {refSchema, []string{
			`{"items":[{"kind":"dot","n":1,"color":"red","a":"x"},{"kind":"bar","sub":{"a":"y"}},{"kind":"other","anything":[1]}]}`,
			`{"loose":1}`,
		}, []string{"kind", "n", "color", "sub", "a", "b", "zz"}},
		"overlap": {overlapSchema, []string{
			`{"any":[{"t":"x","p":1,"q":"s"},{"t":"y","p":2},{"q":"s"},{"t":"z"}]}`,
			`{"one":[{"t":"y","p":1},{"t":"x","q":"s"},{"q":"s"}]}`,
		}, []string{"t", "p", "q"}},
	} {
		t.Run(name, func(t *testing.T) {
			published, fast := compiledPair(t, tc.schema)
			rng := rand.New(rand.NewPCG(13, uint64(len(name))))
			accepted, refused := 0, 0
			for i := range 4000 {
				base := tc.valid[i%len(tc.valid)]
				v, err := decodeJSON([]byte(base))
				if err != nil {
					t.Fatal(err)
				}
				if i >= len(tc.valid) {
					for range 1 + rng.IntN(3) {
						v = mutate(rng, v, tc.vocab, 0)
					}
				}
				perr, ferr := validateValue(published, v), validateValue(fast, v)
				if (perr == nil) != (ferr == nil) {
					raw, _ := encodeCanonical(v)
					t.Fatalf("published says %v, fast says %v, for %s", perr, ferr, raw)
				}
				if i < len(tc.valid) && perr != nil {
					t.Fatalf("valid example %s refused: %v", base, perr)
				}
				if perr == nil {
					accepted++
				} else {
					refused++
				}
			}
			t.Logf("%d accepted, %d refused", accepted, refused)
			if accepted < 100 || refused < 100 {
				t.Fatalf("mutations explore too little: %d accepted, %d refused", accepted, refused)
			}
		})
	}
}

// discriminatorValues are the values mutations try, valid or not for some
// discriminator of the test schemas.
var discriminatorValues = []any{"put", "set", "drop", "circle", "square", "dot", "bar", "x", "y", "z", "other", "red", "k", 1, true, nil}

// mutate returns v with one random change at a random place.
func mutate(rng *rand.Rand, v any, vocab []string, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		if len(keys) > 0 && depth < 6 && rng.IntN(3) > 0 {
			k := keys[rng.IntN(len(keys))]
			x[k] = mutate(rng, x[k], vocab, depth+1)
			return x
		}
		switch rng.IntN(3) {
		case 0:
			if len(keys) > 0 {
				delete(x, keys[rng.IntN(len(keys))])
			}
		default:
			x[vocab[rng.IntN(len(vocab))]] = randomValue(rng)
		}
		return x
	case []any:
		if len(x) > 0 && rng.IntN(4) > 0 {
			i := rng.IntN(len(x))
			x[i] = mutate(rng, x[i], vocab, depth+1)
			return x
		}
		if len(x) > 0 && rng.IntN(2) == 0 {
			return x[:len(x)-1]
		}
		return append(x, randomValue(rng))
	}
	return randomValue(rng)
}

func randomValue(rng *rand.Rand) any {
	switch rng.IntN(6) {
	case 0:
		return map[string]any{}
	case 1:
		return []any{}
	}
	v := discriminatorValues[rng.IntN(len(discriminatorValues))]
	if n, ok := v.(int); ok {
		return json.Number(strconv.Itoa(n))
	}
	return v
}

// A wrong field in one item of a long batch is one problem at that item,
// the same as in a short one.
func TestDispatchedBatchPointsAtTheWrongItem(t *testing.T) {
	r := unionRegistry(t)
	var steps []string
	for i := range 1000 {
		r := "1"
		if i == 637 {
			r = `"5"`
		}
		steps = append(steps, fmt.Sprintf(`{"kind":"put","shape":{"form":"circle","r":%s}}`, r))
	}
	eo, ps := callUnion(t, r, `{"steps":[`+strings.Join(steps, ",")+`]}`)
	wantOneProblem(t, eo, ps, "/steps/637/shape/r", "expected number, got string")
}
