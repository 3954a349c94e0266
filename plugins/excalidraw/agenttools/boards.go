package agenttools

import (
	"context"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/tools"
)

// The board tools (seed 001's names): boards' metadata and the caller's
// folders, over the service's board use cases. Who may do what is the
// service's (access): these are thin adapters that shape compact results.
const (
	ListBoardsTool    = "list_boards"
	CreateBoardTool   = "create_board"
	RenameBoardTool   = "rename_board"
	DescribeBoardTool = "set_board_description"
	ListFoldersTool   = "list_folders"
	CreateFolderTool  = "create_folder"
	MoveBoardTool     = "move_board_to_folder"
	BotInfoTool       = "get_bot_info"
)

// boardTools are the board tools bound to svc.
func boardTools(svc *service.Service) []tools.Tool {
	h := boardHandlers{svc: svc}
	ro := func(title string) tools.Annotations {
		return tools.Annotations{Title: title, ReadOnly: true, Idempotent: true}
	}
	ts := []tools.Tool{
		{Name: ListBoardsTool, Description: listBoardsDescription, InputSchema: listBoardsSchema(),
			Annotations: ro("List boards"), Handler: tools.Typed(h.list)},
		{Name: CreateBoardTool, Description: createBoardDescription, InputSchema: createBoardSchema(),
			Annotations: tools.Annotations{Title: "Create a board"}, Handler: tools.Typed(h.create)},
		{Name: RenameBoardTool, Description: renameBoardDescription, InputSchema: renameBoardSchema(),
			Annotations: tools.Annotations{Title: "Rename a board", Idempotent: true}, Handler: tools.Typed(h.rename)},
		{Name: DescribeBoardTool, Description: describeBoardDescription, InputSchema: describeBoardSchema(),
			Annotations: tools.Annotations{Title: "Describe a board", Idempotent: true}, Handler: tools.Typed(h.describe)},
		{Name: ListFoldersTool, Description: listFoldersDescription, InputSchema: schema(nil),
			Annotations: ro("List folders"), Handler: tools.Typed(h.folders)},
		{Name: CreateFolderTool, Description: createFolderDescription, InputSchema: createFolderSchema(),
			Annotations: tools.Annotations{Title: "Create a folder", Idempotent: true}, Handler: tools.Typed(h.createFolder)},
		{Name: MoveBoardTool, Description: moveBoardDescription, InputSchema: moveBoardSchema(),
			Annotations: tools.Annotations{Title: "File a board in a folder", Idempotent: true}, Handler: tools.Typed(h.move)},
		{Name: BotInfoTool, Description: botInfoDescription, InputSchema: schema(nil),
			Annotations: ro("Bot permissions and quotas"), Handler: tools.Typed(h.botInfo)},
	}
	for i := range ts {
		ts[i].InvalidArgumentsCode = invalidArguments
	}
	return ts
}

type boardHandlers struct{ svc *service.Service }

// boardRow is a board as these tools show it: empty fields left out.
type boardRow struct {
	Name        string             `json:"name"`
	Title       string             `json:"title,omitempty"`
	Role        string             `json:"role,omitempty"`
	Description string             `json:"description,omitempty"`
	Folder      *service.FolderRef `json:"folder,omitempty"`
	Revision    int64              `json:"revision,omitempty"`
	TrashedAt   *time.Time         `json:"trashedAt,omitempty"`
}

func rowOf(b service.BoardInfo) boardRow {
	return boardRow{Name: b.Name, Title: b.Title, Role: b.Role, Description: b.Description, Folder: b.Folder, Revision: b.Revision, TrashedAt: b.TrashedAt}
}

func rowsOf(list []service.BoardInfo) []boardRow {
	out := make([]boardRow, 0, len(list))
	for _, b := range list {
		out = append(out, rowOf(b))
	}
	return out
}

type listBoardsArgs struct {
	Trash bool `json:"trash,omitempty"`
}

func (h boardHandlers) list(ctx context.Context, a listBoardsArgs) (any, error) {
	list, err := h.svc.ListBoards(ctx, a.Trash)
	if err != nil {
		return nil, toolError(err)
	}
	return map[string]any{"boards": rowsOf(list)}, nil
}

type createBoardArgs struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	FolderID    string `json:"folderId,omitempty"`
}

// createdBoard is create_board's result: the board, and why it was not
// filed when it was not.
type createdBoard struct {
	boardRow
	FolderWarning string `json:"folderWarning,omitempty"`
}

func (h boardHandlers) create(ctx context.Context, a createBoardArgs) (any, error) {
	res, err := h.svc.CreateBoard(ctx, service.CreateBoardRequest{Name: a.Name, Title: a.Title, Description: a.Description, Folder: a.FolderID,
		Actor: store.ActorAgent, Attribution: attribution(ctx)})
	if err != nil {
		return nil, toolError(err)
	}
	return createdBoard{boardRow: rowOf(res.BoardInfo), FolderWarning: res.FolderWarning}, nil
}

type renameBoardArgs struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// renamed is rename_board's result.
type renamed struct {
	Name          string `json:"name"`
	Title         string `json:"title"`
	PreviousTitle string `json:"previousTitle"`
}

func (h boardHandlers) rename(ctx context.Context, a renameBoardArgs) (any, error) {
	res, err := h.svc.RenameBoard(ctx, a.Name, a.Title)
	if err != nil {
		return nil, toolError(err)
	}
	return renamed{Name: res.Name, Title: res.Title, PreviousTitle: res.PreviousTitle}, nil
}

type describeBoardArgs struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// described is set_board_description's result: description "" says it
// was removed.
type described struct {
	Name                string `json:"name"`
	Description         string `json:"description"`
	PreviousDescription string `json:"previousDescription,omitempty"`
}

func (h boardHandlers) describe(ctx context.Context, a describeBoardArgs) (any, error) {
	res, err := h.svc.DescribeBoard(ctx, a.Name, a.Description)
	if err != nil {
		return nil, toolError(err)
	}
	return described{Name: res.Name, Description: res.Description, PreviousDescription: res.PreviousDescription}, nil
}

func (h boardHandlers) folders(ctx context.Context, _ struct{}) (any, error) {
	list, err := h.svc.Folders(ctx)
	if err != nil {
		return nil, toolError(err)
	}
	return map[string]any{"folders": list}, nil
}

type createFolderArgs struct {
	Name string `json:"name"`
}

// createdFolder is create_folder's result; created is false when the
// caller already had a folder of that name.
type createdFolder struct {
	ID      string `json:"folderId"`
	Name    string `json:"name"`
	Created bool   `json:"created"`
}

func (h boardHandlers) createFolder(ctx context.Context, a createFolderArgs) (any, error) {
	res, err := h.svc.CreateFolder(ctx, a.Name)
	if err != nil {
		return nil, toolError(err)
	}
	return createdFolder{ID: res.ID, Name: res.Name, Created: res.Created}, nil
}

type moveBoardArgs struct {
	Name     string  `json:"name"`
	FolderID *string `json:"folderId"`
}

// moved is move_board_to_folder's result: folder null says the board is
// in no folder now.
type moved struct {
	Name   string             `json:"name"`
	Title  string             `json:"title"`
	Folder *service.FolderRef `json:"folder"`
}

func (h boardHandlers) move(ctx context.Context, a moveBoardArgs) (any, error) {
	id := ""
	if a.FolderID != nil {
		id = *a.FolderID
	}
	res, err := h.svc.MoveBoard(ctx, a.Name, id)
	if err != nil {
		return nil, toolError(err)
	}
	return moved{Name: res.Name, Title: res.Title, Folder: res.Folder}, nil
}

// botInfo is get_bot_info's result: boards only by name and role (the
// rest is list_boards').
type botInfo struct {
	Kind        string          `json:"kind"`
	Name        string          `json:"name,omitempty"`
	Person      string          `json:"person,omitempty"`
	Role        string          `json:"role,omitempty"`
	Permissions map[string]bool `json:"permissions"`
	Boards      []boardRole     `json:"boards"`
	Quotas      []quota.Usage   `json:"quotas,omitempty"`
}

type boardRole struct {
	Name string `json:"name"`
	Role string `json:"role"`
}

func (h boardHandlers) botInfo(ctx context.Context, _ struct{}) (any, error) {
	res, err := h.svc.BotInfo(ctx)
	if err != nil {
		return nil, toolError(err)
	}
	out := botInfo{Kind: res.Kind, Name: res.Name, Person: res.Person, Role: res.Role, Permissions: res.Permissions,
		Boards: make([]boardRole, 0, len(res.Boards)), Quotas: res.Quotas}
	for _, b := range res.Boards {
		out.Boards = append(out.Boards, boardRole{Name: b.Name, Role: b.Role})
	}
	return out, nil
}
