package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// boundElements checks the shape of a boundElements list: null or an array
// of {id, type} where type is "arrow" or "text". Whether the entries point
// at anything is checkRefs' business.
func (c *elementCheck) boundElements(val any) {
	if val == nil {
		return
	}
	arr, ok := val.([]any)
	if !ok {
		c.errorf(CodeInvalidField, c.ptr("boundElements"), "boundElements must be null or an array, got %s", describe(val, true))
		return
	}
	seen := make(map[string]bool, len(arr))
	for j, x := range arr {
		o, ok := x.(*ojson.Object)
		if !ok || o == nil {
			c.errorf(CodeInvalidField, c.ptr("boundElements", j), "boundElements entries must be {id, type} objects, got %s", describe(x, true))
			continue
		}
		id, ok := o.String("id")
		if !ok || id == "" {
			c.errorf(CodeInvalidField, c.ptr("boundElements", j, "id"), "boundElements entry has no id string")
			continue
		}
		if t, _ := o.String("type"); t != "arrow" && t != "text" {
			c.warnf(CodeInvalidField, c.ptr("boundElements", j, "type"), "boundElements entry type must be \"arrow\" or \"text\", got %s", describe(mustGet(o, "type"), o.Has("type")))
		}
		if seen[id] {
			c.warnf(CodeInvalidField, c.ptr("boundElements", j), "boundElements lists %q twice; Excalidraw removes the duplicate", id)
		}
		seen[id] = true
	}
}

// binding checks a startBinding or endBinding: null or an object naming
// the bound element. Lines cannot bind: restore drops their bindings.
func (c *elementCheck) binding(name string, val any) {
	if val == nil {
		return
	}
	o, ok := val.(*ojson.Object)
	if !ok || o == nil {
		c.errorf(CodeInvalidField, c.ptr(name), "%s must be null or an object, got %s", name, describe(val, true))
		return
	}
	if id, ok := o.String("elementId"); !ok || id == "" {
		c.errorf(CodeInvalidField, c.ptr(name, "elementId"), "%s has no elementId string", name)
		return
	}
	if c.typ == "line" {
		c.warnf(CodeInvalidField, c.ptr(name), "a line cannot bind; Excalidraw drops %s", name)
	}
}
