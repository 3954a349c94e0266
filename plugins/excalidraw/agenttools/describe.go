package agenttools

// The descriptions are what a model reads to choose a tool and build its
// call: each says in a sentence what the tool does and when to use it,
// with the rule that otherwise only shows up as an error (apply's
// revision fence). They are kept short for the tools/list budget (see
// TestToolsListBudget); the detail (results, error codes, retries,
// limits) is read_me's (guide.md).

const listDescription = `Scenes you reach: name, revision, elementCount, updatedAt, valid (an unreadable one is listed; problem says why).`

const readDescription = `Read one scene with its revision, which excalidraw_scene_apply needs; include "summary" is far cheaper than "full": prefer it.`

const createDescription = `Create a new scene from element inputs, complete: labels fitted, arrows bound to ids of the same call, omitted styles at Excalidraw's defaults.`

const applyDescription = `Edit a scene with 1-500 operations, all-or-nothing: ` +
	`{"op":"add","element":{...}} (as in excalidraw_scene_create), {"op":"update","id":"...","patch":{...}}, {"op":"delete","id":"..."}. ` +
	`expected_revision is your last read's, list's or write's revision; else revision_conflict: read again, redo.`

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
