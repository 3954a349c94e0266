// Command gencorpus writes the generated test corpus into a folder
// (go generate runs it for internal/testcorpus/testdata).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dshgo/dsh/internal/testcorpus/gen"
)

func main() {
	out := flag.String("out", "testdata", "folder to write the .excalidraw files into")
	flag.Parse()
	if err := gen.Write(*out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
