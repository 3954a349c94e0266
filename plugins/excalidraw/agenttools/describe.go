package agenttools

// The descriptions are what a model reads to choose a tool and build its
// call, so they state when to use each tool and the rules that otherwise
// only show up as errors (revisions, atomicity, retries). They are kept
// short for the tools/list budget (see TestToolsListBudget); the detail
// is the agent guide's (docs/agent-guide-draft.md).

const listDescription = `Scenes you reach: name, revision, elementCount, updatedAt, valid (an unreadable one is listed; problem says why).`

const readDescription = `Read one scene with its revision. ` +
	`include "summary" (id, type, geometry, text per element) is far cheaper than "full" (the whole document): prefer it. ` +
	`excalidraw_scene_apply needs this revision as expected_revision.`

const createDescription = `Create a scene at revision 1 (a taken name: already_exists, or name_unavailable). ` +
	`Elements come out complete: labels fitted, arrows bound to ids given in the same call (startElementId/endElementId), omitted styles at Excalidraw's defaults. ` +
	`Returns save evidence (revision, sha256, verified, summary); request_id makes retries safe.`

const applyDescription = `Edit a scene with 1-500 operations, all-or-nothing: ` +
	`{"op":"add","element":{...}} (an element as in excalidraw_scene_create), {"op":"update","id":"...","patch":{...}}, {"op":"delete","id":"..."}; adds run first. ` +
	`expected_revision must be the revision of your last read, list or write, else revision_conflict: read again and redo. ` +
	`request_id makes a retry safe (duplicate:true); unchanged:true: nothing written. ` +
	`Over a limit: too_many_elements or too_large, details {limit, max, actual}.`

const validateDescription = `Check a .excalidraw document without saving it: valid, diagnostics (code, severity, pointer, message), stats.`

// The board tools' descriptions (boards.go) each say who may call them;
// read_me's "Boards and folders" has the rest.
const (
	listBoardsDescription    = `Boards you reach with your role, title, description, folder; trash:true: your trash.`
	createBoardDescription   = `Create an empty board, yours, bound to you with write. Needs canCreateBoards; 10/hour per bot.`
	renameBoardDescription   = `Set a board's title (one line, 1-120 chars): its owner, or their bot where it writes.`
	describeBoardDescription = `Set a board's description (a paragraph, ≤300 chars; "" removes it); who: as rename_board.`
	listFoldersDescription   = `Your folders (grouping only) with the boards you reach in each. Bots: canCreateFolders and canCreateBoards.`
	createFolderDescription  = `Create a folder or get yours of that name, any case (see created). 20/hour per bot, 100 per person.`
	moveBoardDescription     = `File a board your person owns into one of your folders (folderId null: out of all).`
	botInfoDescription       = `What you may do: permissions, boards with your role, quotas (used, limit, resetAt).`
)
