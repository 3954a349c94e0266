package cli_test

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/cli"
)

// A plugin's module brings its commands to the command line a binary
// builds; the host's own commands (serve, token, store migrate, …) are
// there beside them.
func ExampleRoot() {
	greeter := app.Plugin{Name: "greeter", Apply: func(*app.Context, app.Config) error { return nil }}
	greet := func() *cobra.Command {
		return &cobra.Command{Use: "greet NAME", Args: cobra.ExactArgs(1), Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "hello,", args[0])
		}}
	}
	root := cli.Root(cli.Module{Plugin: greeter, Commands: []func() *cobra.Command{greet}, Landing: "/greeter/"})
	root.SetArgs([]string{"greet", "ada"})
	if err := root.Execute(); err != nil {
		fmt.Println(err)
	}
	// Output: hello, ada
}
