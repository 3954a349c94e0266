package mcpserve

import (
	"bytes"
	"fmt"
	"slices"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/tools"
)

// sync makes the mcp.Server offer exactly the registry's tools (those
// Options.Tools chooses, when it chooses). It is the
// registry subscription callback. Because notifications carry no payload
// and may arrive out of order, it always diffs against a fresh listing;
// whichever call runs last leaves the correct state.
func (m *Server) sync() {
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	if m.base.Err() != nil {
		return // closed; a notification raced with Close
	}

	current := slices.DeleteFunc(m.reg.List(), func(d tools.Descriptor) bool { return !m.offered.offers(d.Name) })
	want := make(map[string]bool, len(current))
	for _, e := range current {
		want[e.Name] = true
	}

	var gone []string
	for name := range m.synced {
		if !want[name] {
			gone = append(gone, name)
			delete(m.synced, name)
		}
	}
	if len(gone) > 0 {
		m.server.RemoveTools(gone...)
		m.log.Debug("MCP tools removed", zap.Strings("tools", gone))
	}

	for _, e := range current {
		if old, ok := m.synced[e.Name]; ok && sameDescriptor(old, e) {
			continue
		}
		// A changed tool (same name, new definition) is replaced in
		// place: AddTool overwrites by name. Calls are routed by name, so
		// a registration that changed only its handler needs nothing.
		m.synced[e.Name] = e
		if err := m.addTool(e); err != nil {
			// Do not leave an older definition of the same name advertised.
			m.server.RemoveTools(e.Name)
			m.log.Error("MCP server rejected tool", zap.String("tool", e.Name), zap.Error(err))
			continue
		}
		m.log.Debug("MCP tool added", zap.String("tool", e.Name))
	}
}

// sameDescriptor reports whether clients would see a and b alike.
func sameDescriptor(a, b tools.Descriptor) bool {
	return a.Name == b.Name && a.Description == b.Description &&
		a.Annotations == b.Annotations && bytes.Equal(a.InputSchema, b.InputSchema)
}

// addTool adds e to the SDK server. Registry validation already rules out
// every schema the SDK panics on; the recover is a second line of defence
// so an SDK upgrade with new checks degrades to a logged error instead of
// crashing the host.
func (m *Server) addTool(e tools.Descriptor) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("mcp AddTool panicked: %v", p)
		}
	}()
	m.server.AddTool(mcpTool(e), m.toolHandler(e.Name))
	return nil
}
