package tools

import (
	"fmt"

	"go.uber.org/zap"
)

// sync makes the mcp.Server offer exactly the registry's tools. It is the
// registry subscription callback. Because notifications carry no payload
// and may arrive out of order, it always diffs against a fresh snapshot;
// whichever call runs last leaves the correct state.
func (m *MCPServer) sync() {
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	if m.base.Err() != nil {
		return // closed; a notification raced with Close
	}

	current := m.reg.snapshot()
	want := make(map[string]*entry, len(current))
	for _, e := range current {
		want[e.desc.Name] = e
	}

	var gone []string
	for name := range m.synced {
		if want[name] == nil {
			gone = append(gone, name)
			delete(m.synced, name)
		}
	}
	if len(gone) > 0 {
		m.server.RemoveTools(gone...)
		m.log.Debug("MCP tools removed", zap.Strings("tools", gone))
	}

	for _, e := range current {
		if m.synced[e.desc.Name] == e {
			continue
		}
		// A changed entry (same name, new registration) is replaced in
		// place: AddTool overwrites by name.
		m.synced[e.desc.Name] = e
		if err := m.addTool(e); err != nil {
			// Do not leave an older definition of the same name advertised.
			m.server.RemoveTools(e.desc.Name)
			m.log.Error("MCP server rejected tool", zap.String("tool", e.desc.Name), zap.Error(err))
			continue
		}
		m.log.Debug("MCP tool added", zap.String("tool", e.desc.Name))
	}
}

// addTool adds e to the SDK server. Registry validation already rules out
// every schema the SDK panics on; the recover is a second line of defence
// so an SDK upgrade with new checks degrades to a logged error instead of
// crashing the host.
func (m *MCPServer) addTool(e *entry) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("mcp AddTool panicked: %v", p)
		}
	}()
	m.server.AddTool(mcpTool(e.desc), m.toolHandler(e.desc.Name))
	return nil
}
