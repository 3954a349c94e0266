package engine

import (
	"strconv"
	"strings"
)

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func listOf(items []string) string { return `"` + strings.Join(items, `", "`) + `"` }
