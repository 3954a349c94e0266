package agenttools

import (
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

func legendTools(svc *service.Service) []tools.Tool { return nil }
