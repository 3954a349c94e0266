package agenttools

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Every $ref of a tool schema points into that schema's own root $defs:
// an MCP tool schema has to stand alone.
func TestToolSchemasAreSelfContained(t *testing.T) {
	for _, tool := range Tools(nil) {
		root := decodeSchema(tool.InputSchema)
		defs, _ := root.Object("$defs")
		var walk func(v any, path string)
		walk = func(v any, path string) {
			switch n := v.(type) {
			case *ojson.Object:
				if ref, ok := n.String("$ref"); ok {
					name, local := strings.CutPrefix(ref, "#/$defs/")
					if !local || defs == nil || !defs.Has(name) {
						t.Errorf("%s%s: $ref %q does not point into the schema's $defs", tool.Name, path, ref)
					}
				}
				n.Range(func(k string, c any) bool {
					walk(c, path+"/"+k)
					return true
				})
			case []any:
				for _, c := range n {
					walk(c, path+"/*")
				}
			}
		}
		walk(root, "")
	}
}

// apply's description sends the agent to create's element input: the
// rules must be the same, apply's copy only lacks the descriptions.
func TestApplyElementIsCreates(t *testing.T) {
	create, _ := createSchema().Object("$defs")
	apply, _ := applySchema().Object("$defs")
	stripDescriptions(create)
	if !ojson.Equal(create, apply, true) {
		t.Fatalf("apply's $defs differ from create's:\ncreate %s\napply  %s", marshal(create), marshal(apply))
	}
}

// An update patch is held to the element input's rules: it refers to
// $defs/fields, which gives each of its members a value schema.
func TestPatchValuesAreTheElementInputs(t *testing.T) {
	root := applySchema()
	defs, _ := root.Object("$defs")
	declared := map[string]bool{}
	for _, name := range []string{build.DefFields, "text"} {
		d, _ := defs.Object(name)
		props, _ := d.Object("properties")
		for _, k := range props.Keys() {
			declared[k] = true
		}
	}
	props, _ := root.Object("properties")
	ops, _ := props.Object("operations")
	items, _ := ops.Object("items")
	branches, _ := items.Array("oneOf")
	update := branches[1].(*ojson.Object)
	uprops, _ := update.Object("properties")
	patch, _ := uprops.Object("patch")
	if ref, _ := patch.String("$ref"); ref != "#/$defs/"+build.DefFields {
		t.Fatalf("patch refers to %q", ref)
	}
	pprops, _ := patch.Object("properties")
	for _, k := range pprops.Keys() {
		if !declared[k] {
			t.Errorf("patch field %s has no value schema in $defs", k)
		}
	}
}
