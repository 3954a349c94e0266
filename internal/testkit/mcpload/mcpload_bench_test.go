package mcpload_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/mcpload"
)

// BenchmarkConcurrentSessions is issue 30's 100 × 100: 100 MCP sessions at
// once, each making 100 tool calls, against a dsh host in a child process;
// it reports the host's CPU, per-tool p50/p95, RSS peak and open fds.
//
// Without DSH_WORKLOAD_BINS it builds ./cmd/dsh of this checkout. With
// DSH_WORKLOAD_BINS="old=/tmp/dsh-e63b9c2,new=/tmp/dsh-head" it runs the
// same client against each binary in turn, every iteration a round (A, B,
// A, B, ...), prints each round and min/median/max over the rounds, and the
// CPU of each binary ÷ the first's in the same round. DSH_WORKLOAD_SESSIONS
// and DSH_WORKLOAD_CALLS change 100 × 100:
//
//	go test -run '^$' -bench ConcurrentSessions -benchtime 5x ./internal/testkit/mcpload/
func BenchmarkConcurrentSessions(b *testing.B) {
	bins := workloadBins(b)
	opts := mcpload.Options{Sessions: envInt("DSH_WORKLOAD_SESSIONS", 100), Calls: envInt("DSH_WORKLOAD_CALLS", 100)}
	reports := make([][]*mcpload.Report, len(bins))
	// say prints a line at once (b.Logf keeps a benchmark's first ten lines only).
	say := func(format string, args ...any) { fmt.Printf(format+"\n", args...) }
	round := 0
	for b.Loop() {
		for i, bin := range bins {
			rep := runOnce(b, bin.path, opts)
			reports[i] = append(reports[i], rep)
			say("round %d %-8s cpu %6.2fs  ÷first %.2f  wall %5.1fs  list p50 %4dms p95 %4dms  read p50 %4dms  apply p50 %4dms  rss %5.1fMB  fds %4d (after %d)  threads %d  conflicts %d",
				round, bin.name, rep.CPU.Seconds(), rep.CPU.Seconds()/reports[0][round].CPU.Seconds(), rep.Wall.Seconds(),
				rep.P("list", .5).Milliseconds(), rep.P("list", .95).Milliseconds(), rep.P("read", .5).Milliseconds(), rep.P("apply", .5).Milliseconds(),
				rep.RSSPeakMB, rep.FDsPeak, rep.FDsAfter, rep.Threads, rep.Conflicts)
		}
		round++
	}
	for i, bin := range bins {
		reps := reports[i]
		stat := func(name, unit string, f func(r *mcpload.Report) float64) float64 {
			v := make([]float64, len(reps))
			for j, r := range reps {
				v[j] = f(r)
			}
			slices.Sort(v)
			med := v[len(v)/2]
			say("%-8s %-18s min %8.2f  median %8.2f  max %8.2f %s", bin.name, name, v[0], med, v[len(v)-1], unit)
			return med
		}
		cpu := stat("server cpu", "s", func(r *mcpload.Report) float64 { return r.CPU.Seconds() })
		b.ReportMetric(cpu, bin.name+"-cpu-s")
		if i > 0 {
			ratio := stat("cpu ÷ "+bins[0].name, "", func(r *mcpload.Report) float64 {
				j := slices.Index(reps, r)
				return r.CPU.Seconds() / reports[0][j].CPU.Seconds()
			})
			b.ReportMetric(ratio, bin.name+"/"+bins[0].name+"-cpu")
		}
		for _, tool := range mcpload.Tools {
			p50 := stat(tool+" p50", "ms", func(r *mcpload.Report) float64 { return ms(r.P(tool, .5)) })
			stat(tool+" p95", "ms", func(r *mcpload.Report) float64 { return ms(r.P(tool, .95)) })
			if tool == "list" {
				b.ReportMetric(p50, bin.name+"-list-p50-ms")
			}
		}
		b.ReportMetric(stat("rss peak", "MB", func(r *mcpload.Report) float64 { return r.RSSPeakMB }), bin.name+"-rss-MB")
		b.ReportMetric(stat("fds peak", "", func(r *mcpload.Report) float64 { return float64(r.FDsPeak) }), bin.name+"-fds")
		stat("fds after", "", func(r *mcpload.Report) float64 { return float64(r.FDsAfter) })
		stat("threads peak", "", func(r *mcpload.Report) float64 { return float64(r.Threads) })
	}
}

// runOnce starts bin on a fresh data directory, runs the workload and stops it.
func runOnce(b *testing.B, bin string, opts mcpload.Options) *mcpload.Report {
	dir := b.TempDir()
	h, err := mcpload.StartHost(bin, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	rep, err := mcpload.Run(ctx, h, opts)
	if err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
	return rep
}

type namedBin struct{ name, path string }

// workloadBins is $DSH_WORKLOAD_BINS (name=path, comma-separated), or this
// checkout's ./cmd/dsh built into a temporary directory.
func workloadBins(b *testing.B) []namedBin {
	if env := os.Getenv("DSH_WORKLOAD_BINS"); env != "" {
		var bins []namedBin
		for part := range strings.SplitSeq(env, ",") {
			name, path, ok := strings.Cut(part, "=")
			if !ok {
				name, path = filepath.Base(part), part
			}
			bins = append(bins, namedBin{name, path})
		}
		return bins
	}
	bin := filepath.Join(b.TempDir(), "dsh")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/dshgo/dsh/cmd/dsh")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return []namedBin{{"dsh", bin}}
}

func envInt(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil && n > 0 {
		return n
	}
	return def
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
