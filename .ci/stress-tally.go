//go:build ignore

// stress-tally reads `go test -json` (from make stress) on stdin and
// prints, per package, how many test runs passed and failed, naming
// each test that failed and how often. It exits 1 when any run failed,
// or a package failed without a failing test (a build error, a panic, a
// timeout).
//
//	go run .ci/stress-tally.go < events.json
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type tally struct {
	passed, failed, skipped int
	failures                map[string]int
	said                    map[string][]string // what failing runs said, a few lines per test
	running                 map[string][]string // the current run's lines of each test
	pkgFailed               bool
	elapsed                 float64
}

func main() {
	byPkg := map[string]*tally{}
	var order []string
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
			continue
		}
		t := byPkg[e.Package]
		if t == nil {
			t = &tally{failures: map[string]int{}, said: map[string][]string{}, running: map[string][]string{}}
			byPkg[e.Package] = t
			order = append(order, e.Package)
		}
		if e.Test == "" {
			switch e.Action {
			case "fail":
				t.pkgFailed = true
				t.elapsed += e.Elapsed
			case "pass":
				t.elapsed += e.Elapsed
			}
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/") // a subtest counts in its test's run
		if e.Action == "output" && strings.Contains(e.Output, "_test.go:") {
			t.running[top] = append(t.running[top], strings.TrimSpace(e.Output))
		}
		if top != e.Test {
			continue
		}
		if e.Action == "run" {
			delete(t.running, top)
		}
		switch e.Action {
		case "pass":
			t.passed++
		case "fail":
			t.failed++
			t.failures[e.Test]++
			for _, l := range t.running[top] {
				if len(t.said[top]) < 5 && !slices.Contains(t.said[top], l) {
					t.said[top] = append(t.said[top], l)
				}
			}
		case "skip":
			t.skipped++
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "stress-tally:", err)
		os.Exit(2)
	}
	bad := false
	fmt.Printf("%-52s %7s %7s %7s %8s\n", "package", "passed", "failed", "skipped", "seconds")
	for _, p := range order {
		t := byPkg[p]
		runs := t.passed + t.failed
		note := ""
		if t.pkgFailed && t.failed == 0 {
			note = "  (the package failed outside its tests: see the log)"
		}
		fmt.Printf("%-52s %3d/%-3d %7d %7d %8.0f%s\n", p, t.passed, runs, t.failed, t.skipped, t.elapsed, note)
		names := make([]string, 0, len(t.failures))
		for n := range t.failures {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			fmt.Printf("    %s failed %d times\n", n, t.failures[n])
			for _, l := range t.said[n] {
				fmt.Printf("      %s\n", l)
			}
		}
		bad = bad || t.failed > 0 || t.pkgFailed
	}
	if bad {
		os.Exit(1)
	}
}
