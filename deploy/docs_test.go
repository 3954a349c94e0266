package deploy_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw/excalidrawcmd"
	"github.com/dshgo/dsh/plugins/status"
)

// operationsDoc is docs/operations.md.
func operationsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dshRoot is the command tree of the dsh binary (cmd/dsh's modules).
func dshRoot() *cobra.Command {
	return cli.Root(cli.Module{Plugin: status.Plugin}, excalidrawcmd.Module)
}

// checkDsh says what is wrong with the dsh command words (after "dsh"),
// or "": the subcommand exists, its flags parse, its arguments fit. With
// partial the words may stop at the command (an inline mention).
func checkDsh(words []string, partial bool) string {
	root := dshRoot()
	cmd, rest, err := root.Find(words)
	if err != nil || cmd == root {
		return "no such command"
	}
	if partial {
		if len(rest) > 0 {
			return "no command " + strings.Join(rest, " ") + " under dsh " + cmd.Name()
		}
		return ""
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err.Error()
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return err.Error()
	}
	return ""
}

// shellEnd cuts a command line at the first shell operator.
var shellEnd = regexp.MustCompile(`\s(\||&&|;|>|<)\s`)

// TestOperationsCommands: every dsh command docs/operations.md shows, in
// its code blocks (after `docker compose exec dsh1`, say) and inline,
// is one the dsh binary has, spelled as its CLI spells it, with flags it
// takes and arguments it accepts; and the doc covers what an operator
// needs.
func TestOperationsCommands(t *testing.T) {
	doc := operationsDoc(t)
	checked := 0
	inBlock := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		if loc := shellEnd.FindStringIndex(line); loc != nil {
			line = line[:loc[0]]
		}
		// dsh as the command: first on the line, or run in a compose
		// service's container (docker compose exec dsh1 dsh ...).
		words := strings.Fields(line)
		i := slices.Index(words, "dsh")
		if i < 0 || i > 0 && !regexp.MustCompile(`^dsh\d+$`).MatchString(words[i-1]) {
			continue
		}
		checked++
		if why := checkDsh(words[i+1:], false); why != "" {
			t.Errorf("docs/operations.md: %q: %s", line, why)
		}
	}
	for _, m := range regexp.MustCompile("`dsh ([a-z][a-z ]*)`").FindAllStringSubmatch(doc, -1) {
		checked++
		if why := checkDsh(strings.Fields(m[1]), true); why != "" {
			t.Errorf("docs/operations.md: `dsh %s`: %s", m[1], why)
		}
	}
	if checked < 8 {
		t.Errorf("only %d dsh commands found in docs/operations.md", checked)
	}
	for _, want := range []string{"dsh backup", "dsh restore", "dsh store migrate", "dsh debug", "/readyz", "/healthz", "## Alerts", "## Add a node", "## Upgrade"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/operations.md does not cover %q", want)
		}
	}
	// Every alert in alerts.yml is explained.
	b, err := os.ReadFile("alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*- alert: (\S+)`).FindAllStringSubmatch(string(b), -1) {
		if !strings.Contains(doc, "**"+m[1]+"**") {
			t.Errorf("docs/operations.md does not explain the alert %s", m[1])
		}
	}
}
