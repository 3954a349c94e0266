package scene

import "github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

// appStateKeys are the only appState members the contract round-trips, in
// the order a new document writes them. The others (zoom, scroll, tool,
// selection, ...) are one viewer's state: Excalidraw's own export keeps a
// varying subset, and keeping them would leak one user's view into
// everyone's file.
var appStateKeys = []string{"viewBackgroundColor", "gridSize", "gridModeEnabled"}

// appStateDefault returns the contract's default for one of appStateKeys.
func appStateDefault(k string) any {
	switch k {
	case "viewBackgroundColor":
		return "#ffffff"
	case "gridModeEnabled":
		return false
	}
	return nil // gridSize: no grid
}

func defaultAppState() *ojson.Object {
	o := ojson.NewSized(len(appStateKeys))
	for _, k := range appStateKeys {
		o.Set(k, appStateDefault(k))
	}
	return o
}

// exportAppState keeps the round-tripped members of in, in the order they
// were read (so a file Excalidraw wrote keeps its order), and appends the
// missing ones with their defaults.
func exportAppState(in *ojson.Object) *ojson.Object {
	out := ojson.NewSized(len(appStateKeys))
	if in != nil {
		for _, k := range in.Keys() {
			if isAppStateKey(k) {
				v, _ := in.Get(k)
				out.Set(k, v)
			}
		}
	}
	for _, k := range appStateKeys {
		if !out.Has(k) {
			out.Set(k, appStateDefault(k))
		}
	}
	return out
}

func isAppStateKey(k string) bool {
	for _, a := range appStateKeys {
		if a == k {
			return true
		}
	}
	return false
}
