package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// proc is one command whose whole-process runs are timed.
type proc struct {
	name     string
	path     string
	args     []string
	dir      string
	env      []string     // added to the environment
	before   func() error // untimed preparation before every run
	wantExit int
	// alongside are the arguments of more processes of the same program,
	// started with the first: a run ends when all have.
	alongside [][]string
}

// sample is one run of a proc.
type sample struct {
	wall   time.Duration
	maxRSS int64 // bytes; 0 where the OS does not say
}

var devNull = func() *os.File {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	return f
}()

// run runs p once. With capture, its stdout and stderr are returned (and
// the run is not a clean timing: pipes are read on the side).
func (p *proc) run(capture bool) (s sample, stdout, stderr []byte, err error) {
	if p.before != nil {
		if err := p.before(); err != nil {
			return s, nil, nil, fmt.Errorf("%s: preparing: %w", p.name, err)
		}
	}
	cmd := exec.Command(p.path, p.args...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), p.env...)
	var out, errb bytes.Buffer
	if capture {
		cmd.Stdout, cmd.Stderr = &out, &errb
	} else {
		cmd.Stdout, cmd.Stderr = devNull, devNull
	}
	var others []*exec.Cmd
	for _, args := range p.alongside {
		c := exec.Command(p.path, args...)
		c.Dir, c.Env, c.Stdout, c.Stderr = p.dir, cmd.Env, devNull, devNull
		others = append(others, c)
	}
	start := time.Now()
	for _, c := range others {
		if err := c.Start(); err != nil {
			return s, nil, nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	if err := cmd.Start(); err != nil {
		return s, nil, nil, fmt.Errorf("%s: %w", p.name, err)
	}
	err = cmd.Wait()
	for _, c := range others {
		if werr := c.Wait(); werr != nil && err == nil {
			err = fmt.Errorf("%s: %v", strings.Join(c.Args, " "), werr)
		}
	}
	s.wall = time.Since(start)
	if cmd.ProcessState == nil {
		return s, nil, nil, fmt.Errorf("%s: %w", p.name, err)
	}
	s.maxRSS = maxRSS(cmd.ProcessState)
	if code := cmd.ProcessState.ExitCode(); code != p.wantExit {
		msg := errb.String()
		if !capture {
			msg = "(run it again with -keep to see its output)"
		}
		return s, out.Bytes(), errb.Bytes(), fmt.Errorf("%s exited with %d, want %d: %s %s\n%s",
			p.name, code, p.wantExit, p.path, strings.Join(p.args, " "), tail(msg, 2000))
	}
	return s, out.Bytes(), errb.Bytes(), nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// interleave runs the procs in turn, runs times (A B C A B C …), after one
// untimed warm-up round, and returns each one's samples.
func interleave(runs int, procs ...*proc) (map[string][]sample, error) {
	for _, p := range procs {
		if _, _, _, err := p.run(false); err != nil {
			return nil, err
		}
	}
	got := map[string][]sample{}
	for range runs {
		for _, p := range procs {
			s, _, _, err := p.run(false)
			if err != nil {
				return nil, err
			}
			got[p.name] = append(got[p.name], s)
		}
	}
	return got, nil
}

func medianWall(ss []sample) time.Duration {
	ds := make([]time.Duration, len(ss))
	for i, s := range ss {
		ds[i] = s.wall
	}
	return median(ds)
}

func maxOfRSS(ss []sample) int64 {
	var m int64
	for _, s := range ss {
		m = max(m, s.maxRSS)
	}
	return m
}

func median[T int64 | float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// benchLine matches a line of `go test -bench -benchmem` output.
var benchLine = regexp.MustCompile(`^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op\s+([0-9]+) B/op\s+([0-9]+) allocs/op`)

// goBench is a Go benchmark's figures over several -count runs.
type goBench struct {
	NsPerOp     float64 // median
	AllocsPerOp int64   // the most seen
	BytesPerOp  int64   // the most seen
	Runs        int
}

// parseGoBench collects the benchmarks of `go test -bench -benchmem` output.
func parseGoBench(out []byte) map[string]goBench {
	ns := map[string][]float64{}
	res := map[string]goBench{}
	for _, l := range strings.Split(string(out), "\n") {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[2], 64)
		bytesOp, _ := strconv.ParseInt(m[3], 10, 64)
		allocs, _ := strconv.ParseInt(m[4], 10, 64)
		ns[m[1]] = append(ns[m[1]], v)
		b := res[m[1]]
		b.AllocsPerOp = max(b.AllocsPerOp, allocs)
		b.BytesPerOp = max(b.BytesPerOp, bytesOp)
		b.Runs++
		res[m[1]] = b
	}
	for name, b := range res {
		b.NsPerOp = median(ns[name])
		res[name] = b
	}
	return res
}

// Formatting of figures.

func fmtDur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 1:
		return fmt.Sprintf("%.3f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 10_000:
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}

func fmtMiB(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func fmtRatio(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.1f×", x)
	}
	return fmt.Sprintf("%.2f×", x)
}

func fmtInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
