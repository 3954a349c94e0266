// Package admin is the host's admin API: the built-in plugin, mounted at
// /api/admin and served to admins only, behind `dsh plugins …`, `dsh
// login`, `dsh sessions …`, `dsh user rm` and `dsh token revoke`.
package admin
