package admin

import "github.com/labstack/echo/v4"

// Only wraps a handler mounted elsewhere (GET /metrics, pprof) with the
// admin API's own check: 403 admin_required for anyone admission let in
// who is not an admin, the owner's bots included (see adminOnly). The
// route must not be Public, so a request without a credential is 401 at
// admission.
func Only(next echo.HandlerFunc) echo.HandlerFunc { return adminOnly(next) }
