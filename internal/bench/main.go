// Command bench measures skillgen at the scale of real skill collections
// against its targets (the figures are defined in README.md, "Performance"), and
// prints them as a Markdown table with the machine they were taken on.
//
//	go run ./internal/bench [-runs 15] [-build-runs 5] [-skills 1000] [-seed 1] [-keep]
//
// It writes a synthetic corpus (internal/corpus) into a temporary
// directory, builds skillgen, generates the registry, builds a host of it,
// an empty Go program and a program that scans the skills at start-up,
// and then times whole-process runs, the compared commands in turn
// (A B A B …), reporting medians and ratios. Ratios, not absolute times,
// are the result: run it on a quiet machine. The exit status is 1 when a
// figure misses its target. Everything is removed at the end unless -keep
// (the work happens under $TMPDIR; the timed go builds add about 35 MB
// each to the Go build cache, which the go command trims as usual).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/skillgen/skillgen/internal/corpus"
)

type config struct {
	runs      int
	buildRuns int
	skills    int
	seed      uint64
	keep      bool
}

// smallSkills is the size of the second corpus, whose init cost is
// compared with the big one's.
const smallSkills = 100

func main() {
	var cfg config
	flag.IntVar(&cfg.runs, "runs", 15, "timed whole-process runs per figure (medians are reported)")
	flag.IntVar(&cfg.buildRuns, "build-runs", 5, "timed `go build` runs of the host and the empty program")
	flag.IntVar(&cfg.skills, "skills", 1000, "skill directories in the corpus")
	flag.Uint64Var(&cfg.seed, "seed", 1, "corpus seed")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the temporary directory and print its path")
	flag.Parse()
	if flag.NArg() > 0 || cfg.runs < 1 || cfg.buildRuns < 1 || cfg.skills <= smallSkills {
		fmt.Fprintf(os.Stderr, "usage: go run ./internal/bench [-runs n>0] [-build-runs n>0] [-skills n>%d] [-seed n] [-keep]\n", smallSkills)
		os.Exit(2)
	}
	ok, err := run(cfg, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// row is one line of the result table.
type row struct {
	id, figure, target, measured, ratio, result string
}

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "**FAIL**"
}

type bench struct {
	cfg  config
	log  io.Writer
	repo string
	tmp  string

	mod      string // the bench module
	bin      string // built programs
	skillgen string
	ws, ws2  string // the big and the small corpus
	st, st2  corpus.Stats
	goVer    string

	big, small  registry
	uniqueBytes int64 // of the big registry's data directory

	rows    []row
	spreads []string
	notes   []string
}

// spread records the range of each proc's timings, to judge the noise.
func (b *bench) spread(figure string, got map[string][]sample, names ...string) {
	var parts []string
	for _, n := range names {
		ss := got[n]
		lo, hi := ss[0].wall, ss[0].wall
		for _, s := range ss {
			lo, hi = min(lo, s.wall), max(hi, s.wall)
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s–%s)", n, fmtDur(medianWall(ss)), fmtDur(lo), fmtDur(hi)))
	}
	b.spreads = append(b.spreads, figure+": "+strings.Join(parts, ", "))
}

// registry is a generated package in the bench module and its host.
type registry struct {
	pkg     string // package name and directory in the module
	host    string // host binary
	slugs   []string
	skills  []string // ingested skill directories, workspace-relative
	skipped int
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "bench: "+format+"\n", args...)
}

func run(cfg config, stdout, stderr io.Writer) (ok bool, err error) {
	start := time.Now()
	repo, err := findRepo(".")
	if err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp("", "skillgen-bench-")
	if err != nil {
		return false, err
	}
	if cfg.keep {
		defer fmt.Fprintf(stderr, "bench: kept %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sig)
		go func() {
			<-sig
			os.RemoveAll(tmp)
			fmt.Fprintln(stderr, "bench: interrupted; removed", tmp)
			os.Exit(130)
		}()
	}
	b := &bench{cfg: cfg, log: stderr, repo: repo, tmp: tmp,
		mod: filepath.Join(tmp, "mod"), bin: filepath.Join(tmp, "bin"),
		ws: filepath.Join(tmp, "ws"), ws2: filepath.Join(tmp, "ws-small")}
	b.skillgen = filepath.Join(b.bin, "skillgen")
	m := describeMachine("")
	loadBefore := m.Load

	steps := []struct {
		name string
		f    func() error
	}{
		{"set-up", b.setup},
		{"start-up", b.startup},
		{"init", b.initCost},
		{"runtime benchmarks", b.runtimeBench},
		{"generate", b.generate},
		{"build", b.build},
		{"validate", b.validate},
	}
	for _, s := range steps {
		t := time.Now()
		if err := s.f(); err != nil {
			return false, fmt.Errorf("%s: %w", s.name, err)
		}
		b.logf("%s done in %s", s.name, time.Since(t).Round(time.Millisecond))
	}
	m = describeMachine(b.goVer)
	b.print(stdout, m, loadBefore, time.Since(start))
	for _, r := range b.rows {
		if strings.Contains(r.result, "FAIL") {
			return false, nil
		}
	}
	return true, nil
}

// setup builds skillgen, writes both corpora, generates both registries,
// and builds the hosts, the empty program and the scanner.
func (b *bench) setup() error {
	b.logf("building skillgen")
	if _, err := goCmd(b.repo, nil, "build", "-o", b.skillgen, "./cmd/skillgen"); err != nil {
		return err
	}
	ver, err := goCmd(b.repo, nil, "env", "GOVERSION")
	if err != nil {
		return err
	}
	b.goVer = strings.TrimSpace(string(ver))

	b.logf("writing the corpora: %d and %d skills, seed %d", b.cfg.skills, smallSkills, b.cfg.seed)
	if b.st, err = corpus.Write(b.ws, corpus.Options{Seed: b.cfg.seed, Skills: b.cfg.skills}); err != nil {
		return err
	}
	if b.st2, err = corpus.Write(b.ws2, corpus.Options{Seed: b.cfg.seed, Skills: smallSkills}); err != nil {
		return err
	}
	if err := writeModule(b.mod, b.repo); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(b.mod, "empty", "main.go"), emptySource); err != nil {
		return err
	}

	b.logf("generating the registries")
	b.big = registry{pkg: fmt.Sprintf("skills%d", b.cfg.skills)}
	b.small = registry{pkg: fmt.Sprintf("skills%d", smallSkills)}
	for _, x := range []struct {
		r  *registry
		ws string
		st corpus.Stats
	}{{&b.big, b.ws, b.st}, {&b.small, b.ws2, b.st2}} {
		out := filepath.Join(b.mod, x.r.pkg)
		if _, _, _, err := b.skillgenProc("generate", x.ws, 0, "-out", out, "-pkg", x.r.pkg).run(true); err != nil {
			return err
		}
		if err := b.list(x.r, x.ws); err != nil {
			return err
		}
		if !slices.Equal(x.r.skills, x.st.Ingested) {
			b.notes = append(b.notes, fmt.Sprintf("skillgen ingested %d skills of the %d-skill corpus; the corpus expected %d",
				len(x.r.skills), x.st.Skills, len(x.st.Ingested)))
		}
		main := filepath.Join(b.mod, "host-"+x.r.pkg, "main.go")
		if err := writeFile(main, hostSource(x.r.pkg, x.r.slugs)); err != nil {
			return err
		}
		x.r.host = filepath.Join(b.bin, "host-"+x.r.pkg)
	}
	if b.uniqueBytes, err = dirSize(filepath.Join(b.mod, b.big.pkg, "skills_data")); err != nil {
		return err
	}
	// The agent: what a host does at start (takes Resident, looks up the
	// slug it was given). The floor: a plain package that //go:embeds the
	// same data files, one variable each, and a host of it.
	if err := writeFile(filepath.Join(b.mod, "agent-"+b.big.pkg, "main.go"), agentSource(b.big.pkg)); err != nil {
		return err
	}
	if err := writeFloor(filepath.Join(b.mod, b.big.pkg, "skills_data"), filepath.Join(b.mod, "floor")); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(b.mod, "host-floor", "main.go"), floorHostSource); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(b.mod, "host-"+b.big.pkg, "bench_test.go"), hostBenchSource(b.big.pkg)); err != nil {
		return err
	}
	var roots []string
	for _, r := range b.st.Roots {
		roots = append(roots, filepath.Join(b.ws, filepath.FromSlash(r)))
	}
	scan := scanSource(filepath.Join(b.ws, filepath.FromSlash(corpus.WorkflowDir)), roots, b.big.slugs)
	if err := writeFile(filepath.Join(b.mod, "scan", "main.go"), scan); err != nil {
		return err
	}

	b.logf("building the programs")
	for _, name := range []string{"empty", "scan", "host-" + b.big.pkg, "host-" + b.small.pkg, "agent-" + b.big.pkg} {
		if _, err := goCmd(b.mod, nil, "build", "-trimpath", "-o", filepath.Join(b.bin, name), "./"+name); err != nil {
			return err
		}
	}
	return nil
}

// skillgenProc is a skillgen command run in dir.
func (b *bench) skillgenProc(name, dir string, wantExit int, args ...string) *proc {
	return &proc{name: "skillgen " + name, path: b.skillgen, args: append([]string{name}, args...), dir: dir, wantExit: wantExit}
}

// list reads `skillgen list -json`: the slugs of the table and the skill
// directories ingested.
func (b *bench) list(r *registry, ws string) error {
	_, out, _, err := b.skillgenProc("list", ws, 0, "-json").run(true)
	if err != nil {
		return err
	}
	for _, line := range bytes.Split(out, []byte("\n")) {
		var e struct {
			Slug, Status, Severity string
			Source                 struct{ Kind, Path string }
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := json.Unmarshal(line, &e); err != nil {
			return fmt.Errorf("skillgen list -json: %v: %s", err, line)
		}
		switch {
		case e.Severity != "": // a diagnostic
		case e.Status == "ingested":
			r.slugs = append(r.slugs, e.Slug)
			if e.Source.Kind == "skill" {
				r.skills = append(r.skills, path.Dir(e.Source.Path))
			}
		case e.Status == "skipped":
			r.skipped++
		}
	}
	slices.Sort(r.slugs)
	slices.Sort(r.skills)
	if len(r.skills) == 0 {
		return errors.New("skillgen list -json: no ingested skills")
	}
	return nil
}

// found checks a host's or scanner's one line of output.
func found(out []byte, want int) error {
	var n, of int
	if _, err := fmt.Sscanf(string(out), "found %d of %d", &n, &of); err != nil {
		return fmt.Errorf("unexpected output %q", out)
	}
	if n != want || of != want {
		return fmt.Errorf("found %d of %d slugs, want %d", n, of, want)
	}
	return nil
}

// 1. Start-up: the agent (Resident and one lookup) and the host (every
// slug) against the empty program, and the scanner against the host.
func (b *bench) startup() error {
	host := &proc{name: "host", path: b.big.host}
	slug := b.big.slugs[len(b.big.slugs)/2]
	agent := &proc{name: "agent", path: filepath.Join(b.bin, "agent-"+b.big.pkg), args: []string{slug}}
	empty := &proc{name: "empty", path: filepath.Join(b.bin, "empty")}
	scan := &proc{name: "scan", path: filepath.Join(b.bin, "scan")}
	for _, p := range []*proc{host, scan} {
		_, out, _, err := p.run(true)
		if err != nil {
			return err
		}
		if err := found(out, len(b.big.slugs)); err != nil {
			if p == host {
				return fmt.Errorf("host: %w", err)
			}
			b.notes = append(b.notes, "the scanner "+err.Error())
		}
	}
	if _, out, _, err := agent.run(true); err != nil {
		return err
	} else if !bytes.HasPrefix(out, []byte("found "+slug+" ")) {
		return fmt.Errorf("agent: unexpected output %q", out)
	}
	// A start-up takes a couple of milliseconds, so a handful of runs
	// gives a noisy median: take at least a hundred of each.
	runs := max(b.cfg.runs, 100)
	b.logf("timing start-up: %d × (empty, agent, host, scan)", runs)
	got, err := interleave(runs, empty, agent, host, scan)
	if err != nil {
		return err
	}
	b.spread("start-up", got, "empty", "agent", "host", "scan")
	e, a, h, s := medianWall(got["empty"]), medianWall(got["agent"]), medianWall(got["host"]), medianWall(got["scan"])
	ra, rh, rs := float64(a)/float64(e), float64(h)/float64(e), float64(s)/float64(h)
	b.rows = append(b.rows,
		row{"1a", fmt.Sprintf("start-up: agent (takes Resident, looks up one slug of %d) vs empty program", len(b.big.slugs)),
			"≤ 1.3×", fmt.Sprintf("%s vs %s", fmtDur(a), fmtDur(e)), fmtRatio(ra), verdict(ra <= 1.3)},
		row{"1b", "start-up: scan-at-start (os.ReadDir + yaml.v3) vs host", "≥ 22×",
			fmt.Sprintf("%s vs %s", fmtDur(s), fmtDur(h)), fmtRatio(rs), verdict(rs >= 22)},
		row{"1c", fmt.Sprintf("start-up: host (looks each of the %d slugs up once) vs empty program", len(b.big.slugs)),
			"—", fmt.Sprintf("%s vs %s", fmtDur(h), fmtDur(e)), fmtRatio(rh), "info"})
	return nil
}

// 2. The generated package's init, from GODEBUG=inittrace=1, big and small.
func (b *bench) initCost() error {
	costs := map[string][]initCost{}
	procs := map[string]*proc{}
	for _, r := range []registry{b.big, b.small} {
		procs[r.pkg] = &proc{name: r.pkg, path: r.host, env: []string{"GODEBUG=inittrace=1"}}
	}
	b.logf("tracing init: %d × (%s, %s)", b.cfg.runs, b.big.pkg, b.small.pkg)
	for range b.cfg.runs {
		for _, r := range []registry{b.big, b.small} {
			_, _, stderr, err := procs[r.pkg].run(true)
			if err != nil {
				return err
			}
			c, _, err := parseInitTrace(stderr, benchModule+"/"+r.pkg)
			if err != nil {
				return err
			}
			costs[r.pkg] = append(costs[r.pkg], c) // no line: no init work, a zero cost
		}
	}
	summary := func(cs []initCost) (clock float64, bytes, allocs int64) {
		var clocks []float64
		for _, c := range cs {
			clocks = append(clocks, c.ClockMs)
			bytes, allocs = max(bytes, c.Bytes), max(allocs, c.Allocs)
		}
		return median(clocks), bytes, allocs
	}
	bc, bb, ba := summary(costs[b.big.pkg])
	sc, sb, sa := summary(costs[b.small.pkg])
	growth := "—"
	if sa > 0 {
		growth = fmtRatio(float64(ba) / float64(sa))
	}
	b.rows = append(b.rows,
		row{"2a", fmt.Sprintf("init of the generated package, %s skills (inittrace clock)", fmtInt(int64(b.cfg.skills))), "< 1 ms",
			fmt.Sprintf("%.3f ms, %s B, %d allocs", bc, fmtInt(bb), ba), fmtRatio(bc / 1), verdict(bc < 1)},
		row{"2b", fmt.Sprintf("init allocations and time, %d → %s skills", smallSkills, fmtInt(int64(b.cfg.skills))), "no growth",
			fmt.Sprintf("%d → %d allocs (%s → %s B; %.3f → %.3f ms)", sa, ba, fmtInt(sb), fmtInt(bb), sc, bc), growth,
			verdict(ba <= sa && bc <= max(2*sc, 0.05))})
	return nil
}

// 3. Lookup, Invoke and Resident over the big registry, as Go benchmarks.
func (b *bench) runtimeBench() error {
	b.logf("running the runtime benchmarks")
	out, err := goCmd(b.mod, nil, "test", "-trimpath", "-run", "^$", "-bench", ".", "-benchmem", "-benchtime", "100ms",
		"-count", strconv.Itoa(min(b.cfg.runs, 5)), "./host-"+b.big.pkg)
	if err != nil {
		return err
	}
	res := parseGoBench(out)
	for i, name := range []string{"Lookup", "Invoke", "Resident"} {
		r, ok := res[name]
		if !ok {
			return fmt.Errorf("no Benchmark%s in the output:\n%s", name, out)
		}
		b.rows = append(b.rows, row{fmt.Sprintf("3%c", 'a'+i), fmt.Sprintf("Registry.%s (%d workflows)", name, len(b.big.slugs)),
			"0 allocs/op", fmt.Sprintf("%.1f ns/op, %d allocs/op", r.NsPerOp, r.AllocsPerOp), "—", verdict(r.AllocsPerOp == 0)})
	}
	return nil
}

// 4 and 5. generate from scratch and a no-op re-run against one cp -r of
// the ingested skill directories; peak RSS.
func (b *bench) generate() error {
	out := filepath.Join(b.tmp, "gen-out", "skills")
	cpOut := filepath.Join(b.tmp, "cp-out")
	cpArgs := append([]string{"-r"}, b.big.skills...)
	cpArgs = append(cpArgs, cpOut+string(filepath.Separator))
	cp := &proc{name: "cp", path: "cp", args: cpArgs, dir: b.ws, before: func() error {
		if err := os.RemoveAll(cpOut); err != nil {
			return err
		}
		return os.Mkdir(cpOut, 0o755)
	}}
	// From scratch: an empty output and no hash cache, as on a fresh
	// machine; every file is read and hashed.
	scratch := b.skillgenProc("generate", b.ws, 0, "-out", out, "-pkg", "skills")
	scratch.name = "scratch"
	scratch.env = []string{"SKILLGEN_CACHE=off"}
	scratch.before = func() error { return os.RemoveAll(out) }

	// The copy must hold what generate embeds: check it once.
	if _, _, _, err := cp.run(false); err != nil {
		return err
	}
	copied, err := dirSize(cpOut)
	if err != nil {
		return err
	}
	b.logf("timing generate: %d × (cp -r, generate from scratch)", b.cfg.runs)
	got, err := interleave(b.cfg.runs, cp, scratch)
	if err != nil {
		return err
	}

	// No-op: the output of an earlier run, as a repeated go generate finds
	// it: older than the hash cache's racy window (2 s), the cache warm.
	// The same run without the cache is shown too.
	noopOut := filepath.Join(b.tmp, "noop-out", "skills")
	cacheDir := filepath.Join(b.tmp, "hash-cache")
	prep := b.skillgenProc("generate", b.ws, 0, "-out", noopOut, "-pkg", "skills")
	prep.env = []string{"SKILLGEN_CACHE=" + cacheDir}
	if _, _, _, err := prep.run(false); err != nil {
		return err
	}
	time.Sleep(2100 * time.Millisecond)
	noop := b.skillgenProc("generate", b.ws, 0, "-out", noopOut, "-pkg", "skills")
	noop.name = "noop"
	noop.env = prep.env
	noCache := b.skillgenProc("generate", b.ws, 0, "-out", noopOut, "-pkg", "skills")
	noCache.name = "noop-uncached"
	noCache.env = []string{"SKILLGEN_CACHE=off"}
	b.logf("timing no-op generate: %d × (cp -r, no-op, no-op without the hash cache)", b.cfg.runs)
	got2, err := interleave(b.cfg.runs, cp, noop, noCache)
	if err != nil {
		return err
	}
	for k, v := range got2 {
		got[k] = append(got[k], v...)
	}
	b.spread("generate", got, "cp", "scratch", "noop", "noop-uncached")
	c, s, n, u := medianWall(got["cp"]), medianWall(got["scratch"]), medianWall(got["noop"]), medianWall(got["noop-uncached"])
	rs, rn, ru := float64(s)/float64(c), float64(n)/float64(c), float64(u)/float64(c)
	b.rows = append(b.rows,
		row{"4a", fmt.Sprintf("generate from scratch (no hash cache) vs cp -r of the %d ingested skill dirs (%s)", len(b.big.skills), fmtMiB(copied)),
			"≤ 3×", fmt.Sprintf("%s vs %s", fmtDur(s), fmtDur(c)), fmtRatio(rs), verdict(rs <= 3)},
		row{"4b", "no-op generate (output up to date, hash cache warm) vs cp -r", "≤ 1.5×",
			fmt.Sprintf("%s vs %s", fmtDur(n), fmtDur(c)), fmtRatio(rn), verdict(rn <= 1.5)},
		row{"4c", "no-op generate without the hash cache (SKILLGEN_CACHE=off) vs cp -r", "—",
			fmt.Sprintf("%s vs %s", fmtDur(u), fmtDur(c)), fmtRatio(ru), "info"})

	rss := maxOfRSS(got["scratch"])
	limit := int64(1.5*float64(b.st.Bytes)) + 64<<20
	if rss == 0 {
		b.rows = append(b.rows, row{"5", "peak RSS of generate", "", "not measured on " + runtime.GOOS, "—", "info"})
		return nil
	}
	b.rows = append(b.rows, row{"5", fmt.Sprintf("peak RSS of generate from scratch (corpus %s)", fmtMiB(b.st.Bytes)),
		fmt.Sprintf("≤ 1.5× corpus + 64 MiB = %s", fmtMiB(limit)),
		fmt.Sprintf("%s (no-op: %s)", fmtMiB(rss), fmtMiB(max(maxOfRSS(got["noop"]), maxOfRSS(got["noop-uncached"])))), fmtRatio(float64(rss) / float64(limit)), verdict(rss <= limit)})
	return nil
}

// 6. go build of the host and of the empty program after an edit (a
// changed variable in the generated package, or in main), and the size of
// the host over the empty program against the unique embedded bytes.
func (b *bench) build() error {
	hostBin := filepath.Join(b.tmp, "build-host")
	emptyBin := filepath.Join(b.tmp, "build-empty")
	// The nonce is new in every build of every run, so that no build is a
	// cache hit (the builds are -trimpath, like the set-up's, whose
	// deterministic inputs are cache hits from one run to the next).
	nonce := 0
	epoch := time.Now().UnixNano()
	edit := func(dir, pkg, bin string) func() error {
		return func() error {
			nonce++
			src := fmt.Sprintf("package %s\n\n// Nonce changes before every timed build, so that the package is compiled again.\nvar Nonce = \"%d-%d\"\n", pkg, epoch, nonce)
			if err := writeFile(filepath.Join(b.mod, dir, "zz_nonce.go"), src); err != nil {
				return err
			}
			return os.RemoveAll(bin)
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	floorBin := filepath.Join(b.tmp, "build-floor")
	host := &proc{name: "host", path: goBin, args: []string{"build", "-trimpath", "-o", hostBin, "./host-" + b.big.pkg}, dir: b.mod, before: edit(b.big.pkg, b.big.pkg, hostBin)}
	floor := &proc{name: "floor", path: goBin, args: []string{"build", "-trimpath", "-o", floorBin, "./host-floor"}, dir: b.mod, before: edit("floor", "floor", floorBin)}
	empty := &proc{name: "empty", path: goBin, args: []string{"build", "-trimpath", "-o", emptyBin, "./empty"}, dir: b.mod, before: edit("empty", "main", emptyBin)}
	b.logf("timing go build: %d × (host, plain-embed floor, empty)", b.cfg.buildRuns)
	got, err := interleave(b.cfg.buildRuns, host, floor, empty)
	if err != nil {
		return err
	}
	b.spread("go build", got, "host", "floor", "empty")
	h, f, e := medianWall(got["host"]), medianWall(got["floor"]), medianWall(got["empty"])
	hostInfo, err := os.Stat(hostBin)
	if err != nil {
		return err
	}
	emptyInfo, err := os.Stat(emptyBin)
	if err != nil {
		return err
	}
	over := hostInfo.Size() - emptyInfo.Size()
	limit := int64(1.05*float64(b.uniqueBytes)) + 1<<20
	rf := float64(h) / float64(f)
	// Where the compiler spends the time, for the generated package and
	// the floor: its own phase timer (-gcflags=-bench), one build each.
	for _, x := range []struct{ pkg, main string }{{b.big.pkg, "host-" + b.big.pkg}, {"floor", "host-floor"}} {
		if err := edit(x.pkg, x.pkg, hostBin)(); err != nil {
			return err
		}
		phases := filepath.Join(b.tmp, "compile-bench-"+x.pkg)
		if _, err := goCmd(b.mod, nil, "build", "-trimpath", "-gcflags="+benchModule+"/"+x.pkg+"=-bench="+phases, "-o", hostBin, "./"+x.main); err != nil {
			return err
		}
		if note, err := compilePhases(phases); err == nil {
			b.notes = append(b.notes, fmt.Sprintf("compile of %s (-gcflags=-bench): %s", x.pkg, note))
		}
	}
	b.rows = append(b.rows,
		row{"6a", fmt.Sprintf("host binary size over the empty program (unique embedded bytes %s)", fmtMiB(b.uniqueBytes)),
			fmt.Sprintf("≤ 1.05× + 1 MiB = %s", fmtMiB(limit)),
			fmt.Sprintf("%s (%s − %s)", fmtMiB(over), fmtMiB(hostInfo.Size()), fmtMiB(emptyInfo.Size())),
			fmtRatio(float64(over) / float64(limit)), verdict(over <= limit)},
		row{"6b", "go build after the generated package changed: host vs the plain-embed floor (the same data files, one //go:embed variable each)", "≤ 2×",
			fmt.Sprintf("%s vs %s", fmtDur(h), fmtDur(f)), fmtRatio(rf), verdict(rf <= 2)},
		row{"6c", "go build after an edit: host vs empty program", "—",
			fmt.Sprintf("%s vs %s", fmtDur(h), fmtDur(e)), fmtRatio(float64(h) / float64(e)), "info"})
	return nil
}

// compilePhases summarizes the compiler's -bench output: the time of each
// phase that takes any.
func compilePhases(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || !strings.HasPrefix(f[0], "BenchmarkCompile:") {
			continue
		}
		phase := f[0][strings.LastIndexByte(f[0], ':')+1:]
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil || phase == "subtotal" || ns < 50e6 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.2f s", phase, ns/1e9))
	}
	if len(parts) == 0 {
		return "", errors.New("no phases")
	}
	return strings.Join(parts, ", "), nil
}

// 7. skillgen validate over the corpus roots, on two cores, against the
// I/O floor: two cat processes reading the same skill files.
func (b *bench) validate() error {
	v := b.skillgenProc("validate", b.ws, 1, b.st.Roots...)
	v.env = []string{"GOMAXPROCS=2"}
	_, _, stderr, err := v.run(true)
	if err != nil {
		return err
	}
	want := fmt.Sprintf("%d skills checked", b.st.Skills)
	if !bytes.Contains(stderr, []byte(want)) {
		return fmt.Errorf("skillgen validate did not report %q:\n%s", want, tail(string(stderr), 500))
	}
	var files []string
	for _, root := range b.st.Roots {
		for _, name := range []string{"SKILL.md", "skill.md"} {
			m, err := filepath.Glob(filepath.Join(b.ws, filepath.FromSlash(root), "*", name))
			if err != nil {
				return err
			}
			files = append(files, m...)
		}
	}
	slices.Sort(files)
	if len(files) != b.st.Skills {
		return fmt.Errorf("found %d skill files for %d skills", len(files), b.st.Skills)
	}
	cat := &proc{name: "2×cat", path: "cat", args: files[:len(files)/2], alongside: [][]string{files[len(files)/2:]}}
	b.logf("timing validate: %d × (validate, two cats)", b.cfg.runs)
	got, err := interleave(b.cfg.runs, v, cat)
	if err != nil {
		return err
	}
	b.spread("validate", got, v.name, cat.name)
	d, c := medianWall(got[v.name]), medianWall(got[cat.name])
	r := float64(d) / float64(c)
	b.rows = append(b.rows, row{"7", fmt.Sprintf("skillgen validate over the %d roots, %s skills (GOMAXPROCS=2) vs two cat processes reading the same %s skill files", len(b.st.Roots), fmtInt(int64(b.st.Skills)), fmtInt(int64(len(files)))),
		"≤ 2×", fmt.Sprintf("%s vs %s", fmtDur(d), fmtDur(c)), fmtRatio(r), verdict(r <= 2)})
	return nil
}

func (b *bench) print(w io.Writer, m machine, loadBefore string, took time.Duration) {
	fmt.Fprintf(w, "### skillgen benchmark\n\n")
	fmt.Fprintf(w, "`go run ./internal/bench -runs %d -build-runs %d -skills %d -seed %d`\n\n", b.cfg.runs, b.cfg.buildRuns, b.cfg.skills, b.cfg.seed)
	fmt.Fprintf(w, "- Machine: %s, %d cores (GOMAXPROCS %d), %s, %s\n", m.CPU, m.Cores, m.MaxProc, m.OS, m.Go)
	if m.Load != "" {
		fmt.Fprintf(w, "- Load average (1, 5, 15 min): %s before, %s after; figures are only comparable on a quiet machine\n", loadBefore, m.Load)
	}
	st := b.st
	fmt.Fprintf(w, "- Corpus (seed %d): %s skill dirs in %d roots + %d in-house workflows; %s files, %s (%d rich skills, %d files ≥ 1 MiB, %d CRLF SKILL.md)\n",
		b.cfg.seed, fmtInt(int64(st.Skills)), len(st.Roots), len(st.Workflows), fmtInt(int64(st.Files)), fmtMiB(st.Bytes), st.Rich, st.BigAssets, st.CRLF)
	fmt.Fprintf(w, "- Registry: %d workflows (%d skills ingested, %d skipped as invalid, %d shadowed); unique embedded bytes %s\n",
		len(b.big.slugs), len(b.big.skills), b.big.skipped, len(st.Shadowed), fmtMiB(b.uniqueBytes))
	fmt.Fprintf(w, "- Work directory: %s (%s); figures 4 and 5 depend on its file system (set TMPDIR to choose it)\n", filepath.Dir(b.tmp), fsType(b.tmp))
	fmt.Fprintf(w, "- Medians of %d interleaved whole-process runs (start-up: at least 100; go build: %d); took %s\n\n", b.cfg.runs, b.cfg.buildRuns, took.Round(time.Second))
	fmt.Fprintln(w, "| # | figure | target | measured | ratio | result |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range b.rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.id, r.figure, r.target, r.measured, r.ratio, r.result)
	}
	fmt.Fprintln(w, "\nRatios: 1a agent ÷ empty, 1b scan ÷ host, 1c host ÷ empty, 2b allocations big ÷ small, 4 generate ÷ cp -r, 6b host ÷ floor, 6c host ÷ empty, 7 validate ÷ two cats; for absolute targets, measured ÷ target.")
	fmt.Fprintln(w, "\nMedian (min–max) of each timed command:")
	for _, s := range b.spreads {
		fmt.Fprintf(w, "- %s\n", s)
	}
	for _, n := range b.notes {
		fmt.Fprintf(w, "\nNote: %s\n", n)
	}
}
