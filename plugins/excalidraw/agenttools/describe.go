package agenttools

// The descriptions are what a model reads to choose a tool and build its
// call, so they state when to use each tool and the rules that otherwise
// only show up as errors (revisions, atomicity, retries). They are kept
// short for the tools/list budget (see TestToolsListBudget); the detail
// is the agent guide's (docs/agent-guide-draft.md).

const listDescription = `List the Excalidraw scenes with name, revision, elementCount, updatedAt and valid (a file that cannot be read is listed, with problem saying why). ` +
	`Use it to find a scene's name and current revision.`

const readDescription = `Read one Excalidraw scene with its revision. ` +
	`include "summary" returns only id, type, geometry and text per element, much cheaper than "full" (the whole document): prefer it unless you need every field. ` +
	`excalidraw_scene_apply needs this revision as expected_revision.`

const createDescription = `Create a new Excalidraw scene at revision 1; already_exists if the name is taken (edit with excalidraw_scene_apply). ` +
	`Elements come out complete: labels fitted, arrows bound to the ids given in the same call (startElementId/endElementId), omitted styles at Excalidraw's defaults. ` +
	`The result is save evidence (revision, sha256, verified, summary). request_id makes a retry safe.`

const applyDescription = `Edit an existing Excalidraw scene with 1-500 operations, all-or-nothing: ` +
	`{"op":"add","element":{...}} (an element as in excalidraw_scene_create), {"op":"update","id":"...","patch":{...}}, {"op":"delete","id":"..."}; adds run first. ` +
	`expected_revision must be the revision of your last read, list or write, else revision_conflict: read again and redo. ` +
	`request_id makes a retry safe (duplicate:true); unchanged:true means nothing changed or was written. ` +
	`Over a limit: too_many_elements or too_large, details {limit, max, actual}; deleting gets back under.`

const validateDescription = `Check a complete .excalidraw document without saving it: valid, diagnostics (code, severity, pointer, message) and stats. ` +
	`Scenes the other tools write are valid already.`
