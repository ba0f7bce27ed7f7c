package main

// The CLI is tested as users run it: TestMain re-executes the test binary
// as `skillgen` (the x/tools cmd/stringer pattern), so every test sees the
// real argv handling, exit status, stdout and stderr, with no separate
// build step.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// runAsSkillgen, when set in the environment, makes the test binary be skillgen.
const runAsSkillgen = "SKILLGEN_CLI_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsSkillgen) == "1" {
		main()
		panic("main returned instead of exiting")
	}
	os.Exit(m.Run())
}

// result is what one skillgen process did.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout:\n%s--- stderr:\n%s", r.code, r.stdout, r.stderr)
}

// stderrLines and stdoutLines split the output into lines (no trailing "").
func (r result) stderrLines() []string { return lines(r.stderr) }
func (r result) stdoutLines() []string { return lines(r.stdout) }

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// skillgen runs the command in dir with args. extraEnv adds KEY=VALUE
// pairs to a cleaned environment: no GOPACKAGE (go generate's), HOME in a
// temporary directory so that "~" never reaches the real one.
func skillgen(t *testing.T, dir string, extraEnv []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := skillgenCmd(ctx, t, dir, extraEnv, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("skillgen %q: %v", args, err)
	}
	// A panic also exits with status 2: never let it pass for a usage error.
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("skillgen %q panicked:\n%s", args, r)
	}
	if ctx.Err() != nil {
		t.Fatalf("skillgen %q timed out:\n%s", args, r)
	}
	return r
}

// skillgenCmd is the command skillgen runs, not started.
func skillgenCmd(ctx context.Context, t *testing.T, dir string, extraEnv []string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPACKAGE", "GOFILE", "GOLINE", "HOME", "SKILLGEN_WATCH", runAsSkillgen:
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, runAsSkillgen+"=1", "HOME="+t.TempDir())
	cmd.Env = append(cmd.Env, extraEnv...)
	return cmd
}

// wantCode fails the test unless r exited with code.
func wantCode(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\n%s", r.code, code, r)
	}
}

// wantLines fails the test unless got equals want, line by line.
func wantLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
}

// tempDir is t.TempDir with symlinks resolved, so that paths the command
// prints (from its working directory) and the test's paths agree.
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeTree writes the files of a txtar archive under dir. A file whose
// name ends in ".sh" is made executable.
func writeTree(t *testing.T, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := fs.FileMode(0o644)
		if strings.HasSuffix(f.Name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, f.Data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
}

// archiveFile returns the content of one file of a txtar archive.
func archiveFile(t *testing.T, archive, name string) []byte {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("no %s in the archive", name)
	return nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// fileState is what a snapshot records of one file or directory.
type fileState struct {
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
	SHA256  string // files only
}

// snapshot records every file and directory under dir, so that a test can
// prove that a command changed nothing: not a byte, not a mode, not an mtime.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fileState{Mode: info.Mode(), Size: info.Size(), ModTime: info.ModTime()}
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st.SHA256 = sha256Hex(b)
		}
		if d.IsDir() {
			st.Size = 0 // a directory's size is not its state
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameSnapshot fails the test if anything under dir differs from before.
func sameSnapshot(t *testing.T, what string, before, after map[string]fileState) {
	t.Helper()
	var diffs []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			diffs = append(diffs, p+": removed")
		case a != b:
			diffs = append(diffs, fmt.Sprintf("%s: changed: %+v -> %+v", p, b, a))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, p+": created")
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s changed the file tree:\n\t%s", what, strings.Join(diffs, "\n\t"))
	}
}

// jsonLines parses every line of s as one JSON object, failing the test on
// any line that is not one.
func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for i, line := range lines(s) {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, line)
		}
		if dec.More() {
			t.Fatalf("line %d holds more than one JSON value:\n%s", i+1, line)
		}
		objs = append(objs, m)
	}
	return objs
}

// diagKeys are exactly the keys of a -json diagnostic (README.md, "Command line").
var diagKeys = []string{"code", "col", "file", "line", "message", "severity", "skill"}

// jsonDiag is a -json diagnostic line after its keys were checked.
type jsonDiag struct {
	Severity, Code, File string
	Line, Col            int
	Skill, Message       string
}

// parseDiag checks that m has exactly the keys of a diagnostic, with the
// right types, and returns it.
func parseDiag(t *testing.T, m map[string]any) jsonDiag {
	t.Helper()
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, diagKeys) {
		t.Fatalf("diagnostic has keys %q, want exactly %q: %v", keys, diagKeys, m)
	}
	str := func(k string) string {
		s, ok := m[k].(string)
		if !ok {
			t.Fatalf("%q is %T, want a string: %v", k, m[k], m)
		}
		return s
	}
	num := func(k string) int {
		f, ok := m[k].(float64)
		if !ok || f != float64(int(f)) || f < 0 {
			t.Fatalf("%q is %v, want a non-negative integer: %v", k, m[k], m)
		}
		return int(f)
	}
	d := jsonDiag{
		Severity: str("severity"), Code: str("code"), File: str("file"),
		Line: num("line"), Col: num("col"), Skill: str("skill"), Message: str("message"),
	}
	if d.Severity != "error" && d.Severity != "warning" && d.Severity != "info" {
		t.Fatalf("severity %q is not error, warning or info", d.Severity)
	}
	if (d.Line == 0) != (d.Col == 0) {
		t.Fatalf("line %d col %d: both or neither must be 0", d.Line, d.Col)
	}
	return d
}

// text is the text form of a -json diagnostic, to compare with text output.
func (d jsonDiag) text() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.File, d.Line, d.Col, d.Severity, d.Message, d.Code)
}

// synopses are the command lines every usage text lists (README.md,
// "Command line").
var synopses = []string{
	"skillgen [generate] [flags]",
	"skillgen check      [flags]",
	"skillgen list       [flags]",
	"skillgen prompt     [flags] [-format resident|xml|tool]",
	"skillgen validate   [-json|-format f] PATH...",
	"skillgen version",
}

func TestVersion(t *testing.T) {
	r := skillgen(t, tempDir(t), nil, "version")
	wantCode(t, r, 0)
	want := regexp.MustCompile(fmt.Sprintf(`^skillgen \S+ \(generated code version %d\)\n$`, skillgenimpl.GenVersion))
	if !want.MatchString(r.stdout) {
		t.Errorf("version printed %q, want a match for %s", r.stdout, want)
	}
	if r.stderr != "" {
		t.Errorf("version wrote to stderr: %q", r.stderr)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"-help"}, {"--help"}, {"help"},
		{"generate", "-h"}, {"check", "-h"}, {"list", "-h"}, {"prompt", "-h"}, {"validate", "-h"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := tempDir(t)
			r := skillgen(t, dir, nil, args...)
			wantCode(t, r, 0)
			if !strings.HasPrefix(r.stdout, "usage:\n") {
				t.Errorf("stdout does not start with the usage:\n%s", r)
			}
			for _, s := range synopses {
				if !strings.Contains(r.stdout, "\n  "+s) {
					t.Errorf("usage lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, flag := range []string{"-C dir", "-manifest file", "-workspace dir", "-out dir", "-pkg name", "-strict", "-hidden", "-json", "-format f", "-catalog-budget n", "-watch"} {
				if !strings.Contains(r.stdout, "\n  "+flag+" ") {
					t.Errorf("usage lacks the flag %q", flag)
				}
			}
			if r.stderr != "" {
				t.Errorf("help wrote to stderr: %q", r.stderr)
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("help wrote %d file(s) into the working directory", len(ents))
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string // the first line of stderr
	}{
		{[]string{"frobnicate"}, `skillgen: unknown command "frobnicate"`},
		{[]string{"-bogus"}, "skillgen: flag provided but not defined: -bogus"},
		{[]string{"generate", "-bogus"}, "skillgen: flag provided but not defined: -bogus"},
		{[]string{"check", "-bogus"}, "skillgen: flag provided but not defined: -bogus"},
		{[]string{"list", "-format", "xml"}, "skillgen: flag provided but not defined: -format"},
		{[]string{"generate", "extra"}, `skillgen: generate takes no arguments, got ["extra"]`},
		{[]string{"-C"}, "skillgen: flag needs an argument: -C"},
		{[]string{"-C", "no/such/dir"}, "skillgen: -C no/such/dir: not a directory"},
		{[]string{"-max-file-size", "0"}, "skillgen: size caps must be positive"},
		{[]string{"-strict=maybe"}, `skillgen: invalid boolean value "maybe" for -strict: parse error`},
		{[]string{"-pkg", "1abc"}, `skillgen: invalid package name "1abc"`},
		{[]string{"-pkg", "func"}, `skillgen: invalid package name "func"`},
		{[]string{"list", "-pkg", "_"}, `skillgen: invalid package name "_"`},
		{[]string{"prompt", "-format", "html"}, `skillgen: -format must be resident, xml or tool, not "html"`},
		{[]string{"generate", "-format", "xml"}, `skillgen: -format must be text, json or github, not "xml"`},
		{[]string{"check", "-format", ""}, `skillgen: -format must be text, json or github, not ""`},
		{[]string{"validate", "-format", "yaml", "."}, `skillgen: -format must be text, json or github, not "yaml"`},
		{[]string{"validate", "-json", "-format", "github", "."}, "skillgen: -json and -format github contradict each other"},
		{[]string{"generate", "-format", "text", "-json"}, "skillgen: -json and -format text contradict each other"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			// A workspace that would generate fine: a usage error must stop first.
			dir := tempDir(t)
			writeTree(t, dir, workspace)
			before := snapshot(t, dir)
			r := skillgen(t, dir, nil, tc.args...)
			wantCode(t, r, 2)
			if got := r.stderrLines(); len(got) == 0 || got[0] != tc.msg {
				t.Errorf("first line of stderr is not %q:\n%s", tc.msg, r)
			}
			if !strings.Contains(r.stderr, "usage:") {
				t.Errorf("no usage on stderr:\n%s", r)
			}
			if r.stdout != "" {
				t.Errorf("stdout is not empty:\n%s", r)
			}
			sameSnapshot(t, "a usage error", before, snapshot(t, dir))
		})
	}
}
