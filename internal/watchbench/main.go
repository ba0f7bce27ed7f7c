// Command watchbench measures skillgen generate -watch on the 1,000-skill
// synthetic corpus (internal/corpus): the CPU the watcher uses while
// nothing changes, and the time from a change of an input to the summary
// line of the run it starts. It measures the inotify watcher and the
// polling one (SKILLGEN_WATCH=poll), and prints a Markdown table
// (README.md, "Watch"). The exit status is 1 when the default watcher
// misses its targets: under 1% of a core idle, every change summarized
// within 1 s.
//
//	go run ./internal/watchbench [-idle 30s] [-changes 5] [-skills 1000] [-skillgen path]
//
// It needs Linux: a process's CPU time is read from /proc/<pid>/stat.
// -skillgen measures another build (for instance a prototype), in place of
// the one it builds from this module. Everything is written under $TMPDIR
// and removed at the end.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skillgen/skillgen/internal/corpus"
)

type config struct {
	idle     time.Duration
	changes  int
	skills   int
	skillgen string
}

func main() {
	var cfg config
	flag.DurationVar(&cfg.idle, "idle", 30*time.Second, "how long to sample the idle watcher's CPU time")
	flag.IntVar(&cfg.changes, "changes", 5, "changes of each kind (edit, add, rename, remove) to time")
	flag.IntVar(&cfg.skills, "skills", 1000, "skill directories in the corpus")
	flag.StringVar(&cfg.skillgen, "skillgen", "", "a skillgen binary to measure instead of building this module's")
	flag.Parse()
	if flag.NArg() > 0 || cfg.idle <= 0 || cfg.changes < 1 || cfg.skills < 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/watchbench [-idle 30s] [-changes n] [-skills n] [-skillgen path]")
		os.Exit(2)
	}
	if err := run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "watchbench:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, "watchbench: "+format+"\n", args...) }

func run(cfg config, stdout io.Writer) error {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return errors.New("needs /proc/<pid>/stat (Linux)")
	}
	tmp, err := os.MkdirTemp("", "skillgen-watchbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := cfg.skillgen
	if bin == "" {
		bin = filepath.Join(tmp, "skillgen")
		logf("building skillgen")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/skillgen/skillgen/cmd/skillgen").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	ws := filepath.Join(tmp, "ws")
	logf("writing the corpus: %d skills", cfg.skills)
	st, err := corpus.Write(ws, corpus.Options{Seed: 1, Skills: cfg.skills})
	if err != nil {
		return err
	}
	dirs := 0
	filepath.WalkDir(ws, func(_ string, d os.DirEntry, _ error) error {
		if d != nil && d.IsDir() {
			dirs++
		}
		return nil
	})

	run, err := runAlone(cfg, bin, ws, tmp, st)
	if err != nil {
		return err
	}
	var rows []string
	pass := true
	for _, mode := range []string{"", "poll"} {
		r, ok, err := measure(cfg, bin, ws, tmp, mode, st)
		if err != nil {
			return fmt.Errorf("SKILLGEN_WATCH=%s: %w", mode, err)
		}
		rows = append(rows, r)
		pass = pass && ok
	}
	fmt.Fprintf(stdout, "corpus: %d skills in %d roots, %d files, %d directories; %s\n\n", st.Skills, len(st.Roots), st.Files, dirs, machine())
	fmt.Fprintln(stdout, "| watcher | idle CPU over "+cfg.idle.String()+" | runs while idle | change → summary, median | max | changes timed | targets: idle < 1%, max ≤ 1 s |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintln(stdout, r)
	}
	fmt.Fprintf(stdout, "\nFor comparison, one skillgen generate (a new process) after an edit of one SKILL.md, hash cache warm, median of %d: %s\n", cfg.changes, run.Round(time.Millisecond))
	if !pass {
		return errors.New("the default watcher misses its targets")
	}
	return nil
}

// runAlone times skillgen generate (not watching) after an edit of one
// SKILL.md: the part of a watch's latency that is the run itself.
func runAlone(cfg config, bin, ws, tmp string, st corpus.Stats) (time.Duration, error) {
	var times []time.Duration
	edited := filepath.Join(ws, filepath.FromSlash(st.Ingested[0]), "SKILL.md")
	for i := range cfg.changes + 1 {
		if err := appendFile(edited, "\nEdited by watchbench.\n"); err != nil {
			return 0, err
		}
		cmd := exec.Command(bin, "generate", "-out", filepath.Join(tmp, "out"), "-pkg", "skills")
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "SKILLGEN_CACHE="+filepath.Join(tmp, "cache"))
		t := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("skillgen generate: %v\n%s", err, out)
		}
		if i > 0 { // the first run fills the hash cache
			times = append(times, time.Since(t))
		}
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// summaryLine is generate's one-line summary.
var summaryLine = regexp.MustCompile(`^skillgen: \d+ workflows?, .*; \d+ written, \d+ removed in `)

// watcher is a running skillgen generate -watch.
type watcher struct {
	cmd       *exec.Cmd
	summaries chan time.Time // when each summary line was read
	mode      string         // from the "watching …" line
}

func start(bin, ws, tmp, mode string) (*watcher, error) {
	cmd := exec.Command(bin, "generate", "-watch", "-out", filepath.Join(tmp, "out"), "-pkg", "skills")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "SKILLGEN_CACHE="+filepath.Join(tmp, "cache"), "SKILLGEN_WATCH="+mode)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := &watcher{cmd: cmd, summaries: make(chan time.Time, 100)}
	modeLine := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			now := time.Now()
			line := sc.Text()
			switch {
			case summaryLine.MatchString(line):
				w.summaries <- now
			case strings.HasPrefix(line, "skillgen: watching "):
				modeLine <- line
			case strings.Contains(line, " failed") || strings.HasPrefix(line, "skillgen: watch:"):
				logf("%s", line)
			}
		}
		close(w.summaries)
	}()
	select {
	case line := <-modeLine:
		w.mode = line[strings.LastIndex(line, "(")+1 : strings.LastIndex(line, ")")]
	case <-time.After(2 * time.Minute):
		w.stop()
		return nil, errors.New("no \"watching\" line")
	}
	return w, nil
}

// next waits for the next summary line.
func (w *watcher) next(timeout time.Duration) (time.Time, error) {
	select {
	case t, ok := <-w.summaries:
		if !ok {
			return time.Time{}, errors.New("skillgen exited")
		}
		return t, nil
	case <-time.After(timeout):
		return time.Time{}, fmt.Errorf("no summary within %s", timeout)
	}
}

// drain returns how many summary lines are waiting.
func (w *watcher) drain() int {
	n := 0
	for {
		select {
		case _, ok := <-w.summaries:
			if !ok {
				return n
			}
			n++
		default:
			return n
		}
	}
}

func (w *watcher) stop() error {
	w.cmd.Process.Signal(os.Interrupt)
	return w.cmd.Wait()
}

// cpuTime is the CPU time (user and system, all threads) the process has
// used so far.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: fields count from
	// after its closing parenthesis, where field 3 (state) starts.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14
	stime, err2 := strconv.ParseInt(f[12], 10, 64) // field 15
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const userHZ = 100 // /proc's clock ticks: USER_HZ, 100 on Linux
	return time.Duration(utime+stime) * time.Second / userHZ, nil
}

// change is one edit of the inputs, as an author makes them.
type change struct {
	kind string
	do   func() error
}

// Targets of the default watcher (README.md, "Watch"): idle under 1% of a
// core; every change summarized within 1 s.
const (
	idleTarget    = 1.0 // percent of a core
	latencyTarget = time.Second
)

// measure returns the table row of one watcher and, for the default one,
// whether it meets the targets.
func measure(cfg config, bin, ws, tmp, mode string, st corpus.Stats) (string, bool, error) {
	w, err := start(bin, ws, tmp, mode)
	if err != nil {
		return "", false, err
	}
	name := w.mode + " (default)"
	if mode != "" {
		name = w.mode + " (SKILLGEN_WATCH=" + mode + ")"
	}
	defer w.stop()
	if _, err := w.next(2 * time.Minute); err != nil {
		return "", false, fmt.Errorf("first run: %w", err)
	}
	time.Sleep(3 * time.Second) // let the first run's garbage and timers settle
	w.drain()

	logf("%s: idle for %s", name, cfg.idle)
	pid := w.cmd.Process.Pid
	c0, err := cpuTime(pid)
	if err != nil {
		return "", false, err
	}
	t0 := time.Now()
	time.Sleep(cfg.idle)
	c1, err := cpuTime(pid)
	if err != nil {
		return "", false, err
	}
	took := time.Since(t0)
	idlePct := float64(c1-c0) / float64(took) * 100
	// /proc counts CPU time in ticks of 10 ms: no tick is less than one.
	idle := fmt.Sprintf("%.2f%% (%s of CPU)", idlePct, c1-c0)
	if c1 == c0 {
		idle = fmt.Sprintf("< %.2f%% (not one 10 ms tick of CPU)", float64(10*time.Millisecond)/float64(took)*100)
	}
	idleRuns := w.drain()

	// Changes of every kind, in a root the manifest lists first and in a
	// later one; each waits for the summary of the run it starts.
	var lat []time.Duration
	root := filepath.Join(ws, filepath.FromSlash(st.Roots[0]))
	for i := range cfg.changes {
		slug := fmt.Sprintf("watchbench-%s-%d", mode, i)
		dir := filepath.Join(root, slug)
		edited := filepath.Join(ws, filepath.FromSlash(st.Ingested[i%len(st.Ingested)]), "SKILL.md")
		for _, ch := range []change{
			{"edit", func() error { return appendFile(edited, "\nEdited by watchbench.\n") }},
			{"add", func() error {
				if err := os.Mkdir(dir, 0o755); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+slug+"\ndescription: Added by watchbench.\n---\nBody.\n"), 0o644)
			}},
			{"rename", func() error { return os.Rename(dir, dir+"-renamed") }},
			{"remove", func() error { return os.RemoveAll(dir + "-renamed") }},
		} {
			time.Sleep(500 * time.Millisecond) // apart from the last run
			w.drain()
			t := time.Now()
			if err := ch.do(); err != nil {
				return "", false, err
			}
			got, err := w.next(30 * time.Second)
			if err != nil {
				return "", false, fmt.Errorf("%s: %w", ch.kind, err)
			}
			lat = append(lat, got.Sub(t))
		}
	}
	slices.Sort(lat)
	if err := w.stop(); err != nil {
		return "", false, fmt.Errorf("after SIGINT: %w", err)
	}
	verdict := "—"
	ok := idlePct < idleTarget && lat[len(lat)-1] <= latencyTarget
	if mode == "" {
		verdict = "pass"
		if !ok {
			verdict = "**FAIL**"
		}
	}
	return fmt.Sprintf("| %s | %s | %d | %s | %s | %d | %s |", name, idle, idleRuns,
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond), len(lat), verdict), ok || mode != "", nil
}

func appendFile(name, s string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	return errors.Join(err, f.Close())
}

// machine describes where the figures were taken.
func machine() string {
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	load, _ := os.ReadFile("/proc/loadavg")
	cpus := 0
	model := ""
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(info), "\n") {
			k, v, _ := strings.Cut(line, ":")
			switch strings.TrimSpace(k) {
			case "processor":
				cpus++
			case "model name":
				model = strings.TrimSpace(v)
			}
		}
	}
	return fmt.Sprintf("%s, %d CPUs, Linux %s, load average %s", model, cpus, strings.TrimSpace(string(kernel)),
		strings.Join(strings.Fields(string(load))[:3], " "))
}
