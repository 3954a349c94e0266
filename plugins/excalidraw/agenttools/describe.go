package agenttools

import (
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// The descriptions are what a model reads to choose a tool and build its
// call, so they state when to use each tool, what it costs, and the
// rules that otherwise only show up as errors (revisions, atomicity,
// retries).

const listDescription = `List the Excalidraw scenes (.excalidraw files) in the drawings directory, sorted by name. ` +
	`Each row has name, revision, elementCount, byteLength, updatedAt, updatedBy, sha256 and valid (false for a file that cannot be read; it is listed rather than hidden, with problem saying why, e.g. "not JSON at byte 12"). ` +
	`Use it to find a scene's name and current revision.`

const readDescription = `Read one Excalidraw scene with its revision, sha256, updatedAt, updatedBy and byteLength. ` +
	`include "full" (default) returns the whole .excalidraw document as "scene"; include "summary" returns only each live element's id, type, x, y, width, height and text plus the file ids, which is much cheaper in tokens; prefer it unless you need every field. ` +
	`element_type (summary only) filters the elements by type. ` +
	`Read before excalidraw_scene_apply: its expected_revision must be the revision you read.`

var createDescription = `Create a new Excalidraw scene at revision 1. Fails with already_exists if the name is taken (use excalidraw_scene_apply to change an existing scene). ` +
	`Element types: rectangle, ellipse, diamond, text, arrow, line, freedraw, image; omitted style fields take Excalidraw's defaults. ` +
	`Shapes and arrows may carry a label; arrows bind to elements of the same call by their ids via startElementId/endElementId. ` +
	`app_state may set viewBackgroundColor (a CSS color, at most ` + strconv.Itoa(scene.MaxColorLength) + ` characters), ` +
	`gridSize (null, or an integer from ` + strconv.Itoa(scene.MinGridSize) + ` to ` + strconv.Itoa(scene.MaxGridSize) + `) and gridModeEnabled (a boolean); other values fail with invalid_operation. ` +
	`The scene is validated as a whole and written durably; the result is save evidence: name, revision, sha256, byteLength, elementCount, savedAt, verified and a summary of the elements. ` +
	`request_id makes a retry after a lost response safe.`

const applyDescription = `Edit an existing Excalidraw scene with 1-500 operations, all-or-nothing: if any operation is invalid nothing is written. ` +
	`Operation shapes: {"op":"add","element":{...element input, as in excalidraw_scene_create...}}, ` +
	`{"op":"update","id":"<element id>","patch":{x, y, width, height, angle, strokeColor, backgroundColor, fillStyle, strokeWidth, strokeStyle, roughness, opacity, roundness, text, fontSize, fontFamily, textAlign, verticalAlign, locked, link, groupIds, startArrowhead, endArrowhead, points}}, ` +
	`{"op":"delete","id":"<element id>"} (also unbinds arrows and deletes the element's label). ` +
	`Adds run first (arrows may bind to elements added in the same call), then updates and deletes in order; moving a shape moves the arrows bound to it. ` +
	`expected_revision must be the revision from a recent read, list or write; if someone else saved since, the call fails with revision_conflict and details.currentRevision: read again and redo the change. ` +
	`request_id makes retries safe: repeating it returns the first result with duplicate:true and writes nothing. ` +
	`The result has the new revision, previousRevision, sha256, byteLength, elementCount, savedAt, verified, duplicate, unchanged, operations {added, updated, deleted, ids} and a summary of the touched elements; unchanged:true means the operations changed nothing (e.g. an update to current values), so nothing was written and revision is still the current one. ` +
	`A result over a limit fails with too_many_elements or too_large and details {limit, max, actual} (limit is maxElements, maxSceneBytes, maxFiles or maxTextLength); a scene already over a lowered limit stays readable, and deleting elements brings it back (deleted elements do not count against maxElements).`

const validateDescription = `Check a complete .excalidraw document without saving anything. ` +
	`Returns valid, diagnostics (code, severity, pointer, message: structural errors, duplicate ids, unsupported types, bad references, invalid attachment data, out-of-bounds values) and stats (element counts by type, files, bounds). ` +
	`Use it to check a document before handing it to a user or another program; scenes written by the other tools are validated already.`
