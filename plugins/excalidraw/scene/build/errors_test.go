package build

import (
	"errors"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestBuildErrors(t *testing.T) {
	frame := `{"id":"frm","type":"frame","x":0,"y":0,"width":500,"height":500,"isDeleted":false}`
	existingLine := `{"id":"ln","type":"line","x":0,"y":0,"width":10,"height":0,"points":[[0,0],[10,0]]}`
	boundText := `{"id":"lbl","type":"text","x":0,"y":0,"width":10,"height":10,"containerId":"box","text":"x"}`
	gone := `{"id":"gone","type":"rectangle","x":0,"y":0,"width":10,"height":10,"isDeleted":true}`
	cases := []struct {
		name    string
		inputs  []string
		code    sceneerr.Code
		index   int
		pointer string
	}{
		{"not json", []string{`{"type":`}, sceneerr.InvalidOperation, 0, "/type"},
		{"not an object", []string{`[1]`}, sceneerr.InvalidOperation, 0, ""},
		{"duplicate key", []string{`{"type":"rectangle","x":0,"x":1,"y":0}`}, sceneerr.InvalidOperation, 0, ""},
		{"missing type", []string{`{"x":0,"y":0}`}, sceneerr.InvalidOperation, 0, "/type"},
		{"type not a string", []string{`{"type":3}`}, sceneerr.InvalidOperation, 0, "/type"},
		{"frame not creatable", []string{`{"type":"frame","x":0,"y":0}`}, sceneerr.UnsupportedElement, 0, "/type"},
		{"unknown type", []string{`{"type":"circle","x":0,"y":0}`}, sceneerr.UnsupportedElement, 0, "/type"},
		{"unknown field", []string{`{"type":"rectangle","x":0,"y":0}`, `{"type":"ellipse","x":0,"y":0,"radius":4}`}, sceneerr.InvalidOperation, 1, "/radius"},
		{"bad value", []string{`{"type":"rectangle","x":0,"y":0,"opacity":500}`}, sceneerr.InvalidOperation, 0, "/opacity"},
		{"bad point", []string{`{"type":"line","x":0,"y":0,"points":[[0,0],[1,"a"]]}`}, sceneerr.InvalidOperation, 0, "/points/1/1"},
		{"bad label", []string{`{"type":"diamond","x":0,"y":0,"label":{"text":""}}`}, sceneerr.InvalidOperation, 0, "/label/text"},
		{"bad link", []string{`{"type":"rectangle","x":0,"y":0,"link":"javascript:alert(1)"}`}, sceneerr.InvalidOperation, 0, "/link"},
		{"points and size", []string{`{"type":"line","x":0,"y":0,"points":[[0,0],[1,1]],"width":3}`}, sceneerr.InvalidOperation, 0, "/points"},
		{"coinciding points", []string{`{"type":"arrow","x":0,"y":0,"points":[[4,4],[4,4]]}`}, sceneerr.InvalidOperation, 0, "/points"},
		{"pressures count", []string{`{"type":"freedraw","x":0,"y":0,"points":[[0,0],[1,1]],"pressures":[0.5]}`}, sceneerr.InvalidOperation, 0, "/pressures"},
		{"arrow without x", []string{`{"type":"arrow","y":0,"startElementId":"a"}`, `{"type":"rectangle","id":"a","x":0,"y":0}`}, sceneerr.InvalidOperation, 0, "/x"},
		{"overlapping targets", []string{`{"type":"rectangle","id":"a","x":0,"y":0}`, `{"type":"rectangle","id":"b","x":50,"y":0}`, `{"type":"arrow","startElementId":"a","endElementId":"b"}`}, sceneerr.InvalidOperation, 2, "/endElementId"},
		{"duplicate with existing", []string{`{"type":"rectangle","id":"frm","x":0,"y":0}`}, sceneerr.DuplicateID, 0, "/id"},
		{"duplicate within call", []string{`{"type":"rectangle","id":"a","x":0,"y":0}`, `{"type":"text","id":"a","x":0,"y":0,"text":"t"}`}, sceneerr.DuplicateID, 1, "/id"},
		{"missing target", []string{`{"type":"arrow","x":0,"y":0,"endElementId":"nope"}`}, sceneerr.InvalidReference, 0, "/endElementId"},
		{"deleted target", []string{`{"type":"arrow","x":0,"y":0,"startElementId":"gone"}`}, sceneerr.InvalidReference, 0, "/startElementId"},
		{"unbindable new target", []string{`{"type":"line","id":"l","x":0,"y":0}`, `{"type":"arrow","x":0,"y":50,"endElementId":"l"}`}, sceneerr.InvalidReference, 1, "/endElementId"},
		{"unbindable existing target", []string{`{"type":"arrow","x":0,"y":50,"endElementId":"ln"}`}, sceneerr.InvalidReference, 0, "/endElementId"},
		{"bound text target", []string{`{"type":"arrow","x":0,"y":50,"endElementId":"lbl"}`}, sceneerr.InvalidReference, 0, "/endElementId"},
		{"missing file", []string{`{"type":"image","x":0,"y":0,"width":5,"height":5,"fileId":"nope"}`}, sceneerr.InvalidReference, 0, "/fileId"},
		{"missing frame", []string{`{"type":"rectangle","x":0,"y":0,"frameId":"ln"}`}, sceneerr.InvalidReference, 0, "/frameId"},
		{"text too long", []string{`{"type":"text","x":0,"y":0,"text":"` + strings.Repeat("x", 11) + `"}`}, sceneerr.TooLarge, 0, "/text"},
		{"label too long", []string{`{"type":"rectangle","x":0,"y":0,"label":{"text":"` + strings.Repeat("é", 11) + `"}}`}, sceneerr.TooLarge, 0, "/label/text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := testContext(parseObject(t, frame), parseObject(t, existingLine), parseObject(t, boundText), parseObject(t, gone))
			ctx.MaxTextLength = 10
			res, err := Build(raws(c.inputs...), ctx)
			if err == nil {
				t.Fatalf("no error; built %d elements", len(res.Elements))
			}
			var se *sceneerr.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *sceneerr.Error", err, err)
			}
			if se.Code != c.code {
				t.Fatalf("code %q, want %q: %v", se.Code, c.code, err)
			}
			if se.Details["index"] != c.index {
				t.Errorf("index %v, want %d: %v", se.Details["index"], c.index, err)
			}
			if se.Details["pointer"] != c.pointer {
				t.Errorf("pointer %q, want %q: %v", se.Details["pointer"], c.pointer, err)
			}
			if c.code == sceneerr.TooLarge && (se.Details["limit"] != "maxTextLength" || se.Details["max"] != int64(10) ||
				se.Details["actual"] != int64(11) || !strings.HasSuffix(se.Message, "the limit is 10 (maxTextLength)")) {
				t.Errorf("the text limit is not named: %v %v", err, se.Details)
			}
		})
	}
}

func TestFrameMembership(t *testing.T) {
	frame := parseObject(t, `{"id":"frm","type":"frame","x":0,"y":0,"width":500,"height":500}`)
	res := mustBuild(t, testContext(frame), `{"type":"rectangle","x":10,"y":10,"frameId":"frm","label":{"text":"in a frame"}}`)
	for _, el := range res.Elements {
		if f, _ := el.String("frameId"); f != "frm" {
			t.Errorf("%s: frameId %q", compact(mustGet(el, "type")), f)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	res := mustBuild(t, testContext())
	if len(res.Elements) != 0 || len(res.IDs) != 0 || len(res.Updated) != 0 {
		t.Fatalf("empty call built %+v", res)
	}
}
