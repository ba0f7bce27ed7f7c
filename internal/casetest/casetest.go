// Package casetest runs golden test cases stored as txtar archives.
//
// A case is one archive: its files are the inputs, written to a fresh
// temporary directory; its "want/<name>" sections are the expected outputs,
// which `go test -update` rewrites from what the code produces now.
//
// What plain text cannot hold is said by directives, one per line of the
// archive's comment (any other comment line is description):
//
//	args: a b c            arguments for the code under test
//	crlf: PATH             turn the file's "\n" into "\r\n"
//	bom: PATH              prefix the file with a UTF-8 BOM
//	bytes: PATH HEX        append raw bytes (e.g. "ff fe") to the file
//	pad: PATH N            append "x" lines to the file until it is N bytes
//	repeat: PATH N TEXT    append TEXT (Go-quoted) N times to the file
//	chmod: PATH MODE       set the mode (octal) of a file
//	symlink: PATH TARGET   create a symlink PATH -> TARGET
//	mkdir: PATH            create an (empty) directory
//	fifo: PATH             create a named pipe
//
// Directives run in order, after every file is written.
package casetest

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Update makes Check record what the code produces instead of comparing.
var Update = flag.Bool("update", false, "rewrite the want/ sections of txtar golden cases")

// WantPrefix marks the expected-output sections of an archive.
const WantPrefix = "want/"

// Case is one golden case.
type Case struct {
	Name    string // file name without .txtar
	File    string // path of the archive
	Archive *txtar.Archive
	Args    []string // from the "args:" directive

	directives [][2]string
	changed    bool
}

// Load reads every archive matching pattern (e.g. "testdata/validate/*.txtar").
func Load(t testing.TB, pattern string) []*Case {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no cases match %s", pattern)
	}
	var cases []*Case
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &Case{Name: strings.TrimSuffix(filepath.Base(f), ".txtar"), File: f, Archive: a}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			key, val, ok := strings.Cut(line, ": ")
			if !ok || strings.ContainsAny(key, " \t") {
				continue
			}
			switch key {
			case "args":
				c.Args = strings.Fields(val)
			case "crlf", "bom", "bytes", "pad", "repeat", "chmod", "symlink", "mkdir", "fifo":
				c.directives = append(c.directives, [2]string{key, val})
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// Inputs returns the archive's files that are not expected outputs.
func (c *Case) Inputs() []txtar.File {
	var in []txtar.File
	for _, f := range c.Archive.Files {
		if !strings.HasPrefix(f.Name, WantPrefix) {
			in = append(in, f)
		}
	}
	return in
}

// Materialize writes the inputs into dir and applies the directives.
func (c *Case) Materialize(t testing.TB, dir string) {
	t.Helper()
	for _, f := range c.Inputs() {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range c.directives {
		if err := apply(dir, d[0], d[1]); err != nil {
			t.Fatalf("%s: %s: %s: %v", c.File, d[0], d[1], err)
		}
	}
}

func apply(dir, key, val string) error {
	args := strings.Fields(val)
	if len(args) == 0 {
		return fmt.Errorf("missing path")
	}
	p := filepath.Join(dir, filepath.FromSlash(args[0]))
	modify := func(f func([]byte) []byte) error {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, f(b), 0o644)
	}
	switch key {
	case "crlf":
		return modify(func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) })
	case "bom":
		return modify(func(b []byte) []byte { return append([]byte("\xEF\xBB\xBF"), b...) })
	case "bytes":
		raw, err := hex.DecodeString(strings.Join(args[1:], ""))
		if err != nil {
			return err
		}
		return modify(func(b []byte) []byte { return append(b, raw...) })
	case "pad":
		n, err := strconv.Atoi(arg(args, 1))
		if err != nil {
			return err
		}
		return modify(func(b []byte) []byte {
			for len(b) < n {
				line := bytes.Repeat([]byte("x"), min(79, n-len(b)-1))
				b = append(append(b, line...), '\n')
			}
			return b
		})
	case "repeat":
		n, err := strconv.Atoi(arg(args, 1))
		if err != nil {
			return err
		}
		_, rest, _ := strings.Cut(val, " ")
		_, quoted, _ := strings.Cut(rest, " ")
		text, err := strconv.Unquote(quoted)
		if err != nil {
			return fmt.Errorf("TEXT must be Go-quoted: %v", err)
		}
		return modify(func(b []byte) []byte { return append(b, strings.Repeat(text, n)...) })
	case "chmod":
		mode, err := strconv.ParseUint(arg(args, 1), 8, 32)
		if err != nil {
			return err
		}
		return os.Chmod(p, os.FileMode(mode))
	case "symlink":
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.Symlink(filepath.FromSlash(arg(args, 1)), p)
	case "mkdir":
		return os.MkdirAll(p, 0o755)
	case "fifo":
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return mkfifo(p)
	}
	return fmt.Errorf("unknown directive")
}

func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// Want returns the expected content of section want/<name>, and whether
// the archive has it.
func (c *Case) Want(name string) (string, bool) {
	for _, f := range c.Archive.Files {
		if f.Name == WantPrefix+name {
			return string(f.Data), true
		}
	}
	return "", false
}

// Check compares got with section want/<name>. With -update it records got
// instead (Save writes the archive back).
func (c *Case) Check(t testing.TB, name, got string) {
	t.Helper()
	want, ok := c.Want(name)
	if *Update {
		if ok && want == got {
			return
		}
		c.set(name, got)
		return
	}
	if !ok {
		t.Errorf("%s: no section %s%s; run go test -update to record:\n%s", c.File, WantPrefix, name, got)
		return
	}
	if got != want {
		t.Errorf("%s: %s%s differs (-want +got):\n%s", c.File, WantPrefix, name, Diff(want, got))
	}
}

func (c *Case) set(name, data string) {
	c.changed = true
	for i, f := range c.Archive.Files {
		if f.Name == WantPrefix+name {
			c.Archive.Files[i].Data = []byte(data)
			return
		}
	}
	c.Archive.Files = append(c.Archive.Files, txtar.File{Name: WantPrefix + name, Data: []byte(data)})
}

// Save writes the archive back if -update changed it.
func (c *Case) Save(t testing.TB) {
	t.Helper()
	if !*Update || !c.changed {
		return
	}
	if err := os.WriteFile(c.File, txtar.Format(c.Archive), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", c.File)
}

// Diff is a small line diff for failure messages: "-" lines only in want,
// "+" lines only in got, in order (a longest-common-subsequence diff).
func Diff(want, got string) string {
	a, b := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	// LCS table; cases are small.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i])
			i++
			j++
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			out.WriteString("+ " + b[j])
			j++
		default:
			out.WriteString("- " + a[i])
			i++
		}
		if !strings.HasSuffix(out.String(), "\n") {
			out.WriteString("⏎\n")
		}
	}
	return out.String()
}

// WriteFile writes data to the file rel (a slash path) under dir, with
// mode 0644, creating the directories above it.
func WriteFile(t testing.TB, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
