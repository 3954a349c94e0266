package query

import (
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Markdown is [Rows] as a Markdown table, for models that read tables
// better than JSON: one header row with the fields any row has (in row
// order), one line per element, empty cells where a row leaves a member
// out; "|" in a cell is escaped as "\|", a list is written joined by
// commas. The rows' rules apply unchanged:
//
//	| id | type | x | y | w | h | text | ends |
//	|---|---|---|---|---|---|---|---|
//	| box1 | rectangle | 100 | 40 | 220 | 80 | API gateway |  |
//	| arr1 | arrow | 320 | 80 | 180 | 0 | HTTPS | API gateway → box2 |
func Markdown(els, all []*ojson.Object, fields []string) (string, error) {
	rows, err := Rows(els, all, fields)
	if err != nil {
		return "", err
	}
	var present fieldSet
	for _, r := range rows {
		for _, k := range r.Keys() {
			present.on[fieldPos[k]] = true
		}
	}
	var cols []string
	for i, f := range allFields {
		if present.on[i] {
			cols = append(cols, f)
		}
	}
	if len(cols) == 0 {
		cols = []string{FieldID}
	}
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cols {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n|")
	for range cols {
		b.WriteString("---|")
	}
	b.WriteByte('\n')
	for _, r := range rows {
		b.WriteString("|")
		for _, c := range cols {
			v, _ := r.Get(c)
			b.WriteByte(' ')
			b.WriteString(cell(v))
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// cell writes one value for a table cell.
func cell(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(t)
	case bool:
		return strconv.FormatBool(t)
	case float64:
		b, _ := ojson.Marshal(t)
		return string(b)
	case []any:
		for _, x := range t {
			if _, nested := x.([]any); nested {
				b, _ := ojson.Marshal(t)
				return string(b)
			}
		}
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = cell(x)
		}
		return strings.Join(parts, ",")
	}
	b, _ := ojson.Marshal(v)
	return cell(string(b))
}
