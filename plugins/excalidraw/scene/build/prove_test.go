package build

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// proveCandidates are values to try for a field: typical, at and past
// its bounds, of the wrong type, and numbers the prover cannot compare
// exactly.
var proveCandidates = []string{
	`0`, `1`, `-1`, `10`, `100`, `101`, `0.5`, `1.0`, `1e2`, `-0`, `5`, `9`, `2`, `3`,
	`1000000`, `1000001`, `-1000000`, `-1000001`, `1e300`, `100.00000000000000001`, `0.000000000000000000001`,
	`""`, `"a"`, `"r1"`, `"bad id!"`, `"` + strings.Repeat("x", 65) + `"`, `"#1e1e1e"`, `"` + strings.Repeat("c", 200) + `"`,
	`"hachure"`, `"solid"`, `"dashed"`, `"round"`, `"sharp"`, `"arrow"`, `"triangle"`, `"center"`, `"middle"`, `"left"`, `"top"`,
	`"excalifont"`, `"Excalifont"`, `"é"`, `"日本"`,
	`null`, `true`, `false`, `[]`, `[1]`, `[[0,0],[10,10]]`, `[[0,0]]`, `[[0,0],[1e300,0]]`, `[["a",0],[1,1]]`, `[1,-1]`, `[1,1]`, `[0,1]`,
	`["g1","g2"]`, `["g1","g1"]`, `[1,2]`, `{}`, `{"text":"hi"}`, `{"text":""}`, `{"text":"hi","fontSize":20}`,
	`{"text":"hi","verticalAlign":"top"}`, `{"text":"hi","extra":1}`, `{"fontSize":20}`, `{"text":"hi","fontFamily":5}`,
	`{"text":"hi","fontFamily":"nope"}`, `{"text":"hi","strokeColor":"#000"}`,
}

// goodCandidates lists, by type and field, the candidates the schema
// accepts for that field alone (with the type's required fields set).
func goodCandidates(t *testing.T) map[string]map[string][]any {
	t.Helper()
	decode := func(s string) any {
		v, err := ojson.Decode([]byte(s), ojson.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	out := map[string]map[string][]any{}
	for _, typ := range elementTypes {
		out[typ] = map[string][]any{}
		for _, f := range fieldsFor(typ)[1:] {
			for _, c := range proveCandidates {
				obj := requiredOnly(typ, decode).Set(f, decode(c))
				if branchValidators()[typ].Validate(toGeneric(obj)) == nil {
					out[typ][f] = append(out[typ][f], decode(c))
				}
			}
		}
	}
	return out
}

// requiredOnly is an input of type typ with its required fields set to
// values the schema accepts.
func requiredOnly(typ string, decode func(string) any) *ojson.Object {
	obj := ojson.New().Set("type", typ)
	for _, f := range requiredFor(typ)[1:] {
		switch f {
		case "text", "fileId":
			obj.Set(f, "a")
		case "points":
			obj.Set(f, decode(`[[0,0],[10,10]]`))
		default:
			obj.Set(f, decode(`1`))
		}
	}
	return obj
}

// randomInput is an input of type t: its required fields, then some of
// its fields, mostly with values the schema accepts for them alone, now
// and then with any candidate or a field the type does not have.
func randomInput(r *rand.Rand, typ string, good map[string][]any) *ojson.Object {
	obj := requiredOnly(typ, func(s string) any { v, _ := ojson.Decode([]byte(s), ojson.Limits{}); return v })
	fields := fieldsFor(typ)[1:]
	if r.IntN(20) == 0 {
		fields = append(fields, "nonsense", "points", "label", "text")
	}
	for _, f := range fields {
		if r.IntN(3) != 0 {
			continue
		}
		if list := good[f]; len(list) > 0 && r.IntN(8) != 0 {
			obj.Set(f, list[r.IntN(len(list))])
			continue
		}
		v, _ := ojson.Decode([]byte(proveCandidates[r.IntN(len(proveCandidates))]), ojson.Limits{})
		obj.Set(f, v)
	}
	return obj
}

// The prover's yes always is the validator's: on many generated inputs of
// every type, whatever the prover accepts the compiled schema accepts.
func TestProverNeverAcceptsWhatTheSchemaRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	good := goodCandidates(t)
	proved, refused := 0, 0
	for range 30000 {
		typ := elementTypes[r.IntN(len(elementTypes))]
		obj := randomInput(r, typ, good[typ])
		schemaOK := branchValidators()[typ].Validate(toGeneric(obj)) == nil
		if !schemaOK {
			refused++
		}
		if provers()[typ].accepts(obj) {
			proved++
			if !schemaOK {
				b, _ := ojson.Marshal(obj)
				t.Fatalf("the prover accepts %s, which the schema refuses", b)
			}
		}
	}
	if proved < 1000 || refused < 1000 {
		t.Fatalf("the inputs do not test it: %d proved, %d refused by the schema", proved, refused)
	}
	t.Logf("%d proved, %d refused by the schema", proved, refused)
}

// The prover answers yes for the plain inputs agents send, so the fast
// path is taken: boxes with labels and styles, text, arrows between ids.
func TestProverAcceptsPlainInputs(t *testing.T) {
	for _, in := range []string{
		`{"type":"rectangle","id":"r1","x":10,"y":20,"width":120,"height":60,"label":{"text":"Box 1"}}`,
		`{"type":"ellipse","x":-5.5,"y":0,"strokeColor":"#1e1e1e","backgroundColor":"#a5d8ff","fillStyle":"solid","opacity":80}`,
		`{"type":"diamond","x":0,"y":0,"width":80,"height":80,"roundness":"round","groupIds":["g1"]}`,
		`{"type":"text","x":0,"y":0,"text":"hello","fontSize":20,"fontFamily":5,"textAlign":"center"}`,
		`{"type":"arrow","startElementId":"r1","endElementId":"r2","label":{"text":"calls"},"endArrowhead":"triangle"}`,
		`{"type":"line","x":0,"y":0,"points":[[0,0],[100,50],[200,0]]}`,
	} {
		obj := mustObject(t, in)
		typ, _ := obj.String("type")
		if err := branchValidators()[typ].Validate(toGeneric(obj)); err != nil {
			t.Fatalf("%s: the schema refuses it: %v", in, err)
		}
		if !provers()[typ].accepts(obj) {
			t.Errorf("the prover does not show %s", in)
		}
	}
}

// An input the prover cannot show goes to the validator, whose message is
// the one reported, as before the prover.
func TestDecodeInputReportsTheValidatorsMessage(t *testing.T) {
	in := json.RawMessage(`{"type":"rectangle","x":0,"y":0,"opacity":101}`)
	obj := mustObject(t, string(in))
	if provers()["rectangle"].accepts(obj) {
		t.Fatal("the prover accepts opacity 101")
	}
	want := schemaError(3, branchValidators()["rectangle"].Validate(toGeneric(obj)))
	if _, err := decodeInput(3, in); err == nil || err.Error() != want.Error() {
		t.Fatalf("decodeInput: %v, want %v", err, want)
	}
}

func mustObject(t *testing.T, s string) *ojson.Object {
	t.Helper()
	v, err := ojson.Decode([]byte(s), ojson.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	obj, ok := v.(*ojson.Object)
	if !ok {
		t.Fatalf("%s is not an object", s)
	}
	return obj
}
