#!/usr/bin/env python3
"""Same-run before/after of the write-path goals (issue 13).

Builds the service and scene test binaries of two revisions (each in a
temporary git worktree), then runs their benchmarks alternately, round
after round, so both see the same machine load, and prints the median of
each figure and the ratios the goals are stated in:

  apply 1k / 10k       BenchmarkApplyOne/N  ÷ BenchmarkDurableWrite/N
  stale apply 10k      BenchmarkStaleApply
  16 writers           BenchmarkConcurrentWriters (dsh/disk)
  64 agents            BenchmarkOneScene (shared/alone)
  cold 10k             BenchmarkParseValidateMarshal/10000

Usage: bench/compare.py OLD_REV [NEW_REV] [--rounds N] [--overlay PATH ...]

--overlay copies more test files from NEW into OLD before building (for
benchmarks OLD lacks but can run); the floor and concurrency benchmarks
are copied whenever OLD lacks them. Nothing outside a temporary directory
is written; the worktrees are removed at the end.
"""
import argparse, os, re, shutil, statistics, subprocess, sys, tempfile

PKGS = {
    "service": ("./plugins/excalidraw/service/", r"ApplyOne|DurableWrite|StaleApply", "40x"),
    "concurrency": ("./plugins/excalidraw/service/", r"ConcurrentWriters|OneScene", "4x"),
    "scene": ("./plugins/excalidraw/scene/", r"ParseValidateMarshal", "20x"),
}
# Benchmark files an older revision gets from this one when it lacks them
# (they build into any revision since the element tools).
DEFAULT_OVERLAY = [
    "internal/testkit/benchkit/benchkit.go",
    "plugins/excalidraw/service/floor_bench_test.go",
    "plugins/excalidraw/service/concurrency_bench_test.go",
]
LINE = re.compile(r"^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$")


def sh(*args, cwd=None):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def build(repo, rev, tmp, name, overlay):
    wt = os.path.join(tmp, name)
    sh("git", "worktree", "add", "--detach", "-q", wt, rev, cwd=repo)
    for path in overlay + [p for p in DEFAULT_OVERLAY if not os.path.exists(os.path.join(wt, p))]:
        os.makedirs(os.path.dirname(os.path.join(wt, path)), exist_ok=True)
        shutil.copy(os.path.join(repo, path), os.path.join(wt, path))
    bins, built = {}, {}
    for pkg, (path, _, _) in PKGS.items():
        if path not in built:
            out = os.path.join(tmp, f"{name}-{pkg}.test")
            sh("go", "test", "-c", "-o", out, path, cwd=wt)
            built[path] = out
        bins[pkg] = (built[path], os.path.join(wt, path))
    return wt, bins


def run(binary, cwd, pattern, benchtime):
    res = subprocess.run([binary, "-test.run", "^$", "-test.bench", pattern, "-test.benchtime", benchtime],
                         cwd=cwd, capture_output=True, text=True)
    figures = {}
    for line in res.stdout.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        name, rest = m.group(1), m.group(2).split()
        for value, unit in zip(rest[0::2], rest[1::2]):
            figures[f"{name} {unit}"] = float(value)
    return figures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default="HEAD")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--overlay", nargs="*", default=[])
    a = ap.parse_args()
    repo = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
    tmp = tempfile.mkdtemp(prefix="dsh-compare-")
    wts = []
    try:
        sides = {}
        for name, rev in (("old", a.old), ("new", a.new)):
            wt, bins = build(repo, rev, tmp, name, a.overlay if name == "old" else [])
            wts.append(wt)
            sides[name] = bins
        samples = {"old": {}, "new": {}}
        for r in range(a.rounds):
            for name in ("old", "new"):
                for pkg, (_, pattern, bt) in PKGS.items():
                    binary, cwd = sides[name][pkg]
                    for k, v in run(binary, cwd, pattern, bt).items():
                        samples[name].setdefault(k, []).append(v)
            print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
        med = {n: {k: statistics.median(v) for k, v in s.items()} for n, s in samples.items()}
        print(f"{'figure':58} {'old':>14} {'new':>14}")
        for k in sorted(set(med["old"]) | set(med["new"])):
            o, n = med["old"].get(k), med["new"].get(k)
            fmt = lambda x: "-" if x is None else f"{x:14.4g}"
            print(f"{k:58} {fmt(o)} {fmt(n)}")
        print()
        for size in ("1000", "10000"):
            ap_, fl = f"BenchmarkApplyOne/{size} ns/op", f"BenchmarkDurableWrite/{size} ns/op"
            for n in ("old", "new"):
                if ap_ in med[n] and fl in med[n]:
                    print(f"apply {size} ÷ floor ({n}): {med[n][ap_] / med[n][fl]:.2f}×")
    finally:
        for wt in wts:
            subprocess.run(["git", "worktree", "remove", "--force", wt], cwd=repo)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
