// Package agenttools exposes the Excalidraw scene service to agents as the
// five tools of contract section 4: excalidraw_scene_list, _read, _create,
// _apply and _validate.
//
// The package is a thin adapter on purpose. Every rule about names,
// elements, revisions and limits lives in the service, so that an agent
// calling a tool and a browser calling the HTTP API get the same error
// code for the same bad input. The input schemas therefore describe shapes
// (so that models build well-formed calls and typos are rejected early)
// but leave value rules such as the scene-name pattern and the set of
// element types to the service, which reports them with their specific
// codes (invalid_name, unsupported_element) instead of a generic schema
// failure.
package agenttools
