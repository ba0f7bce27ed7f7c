package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/skillgen/skillgen/internal/testmod"
)

// benchModule is the throw-away module that holds the programs under test:
// the generated packages, the hosts, the empty program and the scanner.
const benchModule = "skillbench"

// findRepo returns the root of the skillgen module at or above dir.
func findRepo(dir string) (string, error) { return testmod.Repo(dir) }

// goCmd runs the go command in dir and returns its combined output.
func goCmd(dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

// writeModule creates the bench module in dir: it uses the skillgen
// module at repo (for runtime) and yaml.v3 (for the scanner).
func writeModule(dir, repo string) error {
	_, err := testmod.Write(dir, benchModule, repo, "gopkg.in/yaml.v3 v3.0.1")
	return err
}

// writeFile writes a source file, creating its directory.
func writeFile(name, text string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, []byte(text), 0o644)
}

// slugList renders a Go array literal of slugs, one per line.
func slugList(slugs []string) string {
	var b strings.Builder
	b.WriteString("[...]string{\n")
	for _, s := range slugs {
		fmt.Fprintf(&b, "\t%q,\n", s)
	}
	b.WriteString("}")
	return b.String()
}

// emptySource is the "empty program" of README.md's figures: a main that prints one line
// with fmt.
const emptySource = `// Command empty prints one line with fmt: the start-up floor of a Go program.
package main

import "fmt"

func main() { fmt.Println("hello") }
`

// hostSource is a host of a generated package (README.md, "Performance"): it imports the
// package and fmt only, and looks every slug up once.
func hostSource(pkg string, slugs []string) string {
	return fmt.Sprintf(`// Command host looks every slug of a generated registry up once.
package main

import (
	"fmt"

	%q
)

var slugs = %s

func main() {
	found := 0
	for _, s := range slugs {
		if _, ok := %s.Registry.Lookup(s); ok {
			found++
		}
	}
	fmt.Println("found", found, "of", len(slugs))
}
`, benchModule+"/"+pkg, slugList(slugs), pkg)
}

// agentSource is what an agent does at start with a generated package: it
// takes the Resident block for its system prompt and looks up the one slug
// it was given.
func agentSource(pkg string) string {
	return fmt.Sprintf(`// Command agent takes the catalog and looks up the slug it was given.
package main

import (
	"fmt"
	"os"

	%q
)

func main() {
	r := %s.Registry
	resident := r.Resident()
	w, ok := r.Lookup(os.Args[1])
	if !ok {
		os.Exit(1)
	}
	fmt.Println("found", w.Slug, len(resident), len(w.Body))
}
`, benchModule+"/"+pkg, pkg)
}

// writeFloor writes the floor of go build: a plain package, in dir, that
// //go:embeds the files of data (hard-linked, or copied), one string
// variable each, and lists them so that the linker keeps every one.
func writeFloor(data, dir string) error {
	entries, err := os.ReadDir(data)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	var src, list strings.Builder
	src.WriteString("// Package floor embeds the generated package's data files, one variable each.\npackage floor\n\nimport _ \"embed\"\n")
	for i, e := range entries {
		from, to := filepath.Join(data, e.Name()), filepath.Join(dir, "data", e.Name())
		if err := os.Link(from, to); err != nil {
			b, err := os.ReadFile(from)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, b, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(&src, "\n//go:embed data/%s\nvar b%d string\n", e.Name(), i)
		fmt.Fprintf(&list, "\t&b%d,\n", i)
	}
	fmt.Fprintf(&src, "\n// All is every file.\nvar All = [...]*string{\n%s}\n", list.String())
	return writeFile(filepath.Join(dir, "floor.go"), src.String())
}

// floorHostSource is a host of the floor package.
const floorHostSource = `// Command host-floor uses every file of the floor package.
package main

import (
	"fmt"

	"skillbench/floor"
)

func main() {
	n := 0
	for _, s := range floor.All {
		n += len(*s)
	}
	fmt.Println(len(floor.All), n)
}
`

// hostBenchSource holds the runtime benchmarks of a host's registry:
// Lookup, Invoke and Resident over every slug in turn.
func hostBenchSource(pkg string) string {
	return fmt.Sprintf(`package main

import (
	"testing"

	%q
)

var invocations = func() []string {
	var in []string
	for _, s := range slugs {
		in = append(in, "/"+s+"  summarize the attached report, please")
	}
	return in
}()

func BenchmarkLookup(b *testing.B) {
	r := %[2]s.Registry
	i := 0
	for b.Loop() {
		if _, ok := r.Lookup(slugs[i%%len(slugs)]); !ok {
			b.Fatal("not found")
		}
		i++
	}
}

func BenchmarkInvoke(b *testing.B) {
	r := %[2]s.Registry
	i := 0
	for b.Loop() {
		if _, args, err := r.Invoke(invocations[i%%len(invocations)]); err != nil || args == "" {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkResident(b *testing.B) {
	r := %[2]s.Registry
	for b.Loop() {
		if r.Resident() == "" {
			b.Fatal("empty")
		}
	}
}
`, benchModule+"/"+pkg, pkg)
}

// scanSource is the "scan at start" of README.md's figures: the same skills listed with
// os.ReadDir, each SKILL.md read and its frontmatter parsed with yaml.v3,
// then every slug looked up once. It does the least a scanner must (no
// manifest, no validation, no file walk), so its figure is a floor.
func scanSource(workflowDir string, roots, slugs []string) string {
	var rs strings.Builder
	for _, r := range roots {
		fmt.Fprintf(&rs, "\t%q,\n", r)
	}
	return fmt.Sprintf(`// Command scan finds its skills at start-up, as agents without skillgen do.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

var workflowDir = %q

var roots = []string{
%s}

var slugs = %s

type skill struct {
	Name        string            `+"`yaml:\"name\"`"+`
	Description string            `+"`yaml:\"description\"`"+`
	License     string            `+"`yaml:\"license\"`"+`
	Metadata    map[string]any    `+"`yaml:\"metadata\"`"+`
	Body        string            `+"`yaml:\"-\"`"+`
	Path        string            `+"`yaml:\"-\"`"+`
}

// frontmatter splits a file at its "---" fences.
func frontmatter(src []byte) (fm, body []byte, ok bool) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	i := bytes.IndexByte(src, '\n')
	if i < 0 || string(bytes.TrimRight(src[:i], " \t\r")) != "---" {
		return nil, nil, false
	}
	rest := src[i+1:]
	for off := 0; off < len(rest); {
		line, next := rest[off:], len(rest)
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line, next = line[:j], off+j+1
		}
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return rest[:off], rest[next:], true
		}
		off = next
	}
	return nil, nil, false
}

func load(table map[string]*skill, slug string, files ...string) {
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		fm, body, ok := frontmatter(src)
		if !ok {
			return
		}
		s := &skill{Body: string(body), Path: file}
		if yaml.Unmarshal(fm, s) != nil {
			return
		}
		if _, taken := table[slug]; !taken {
			table[slug] = s
		}
		return
	}
}

func main() {
	table := map[string]*skill{}
	if entries, err := os.ReadDir(workflowDir); err == nil {
		for _, e := range entries {
			if name := e.Name(); strings.HasSuffix(name, ".md") {
				load(table, strings.TrimSuffix(name, ".md"), filepath.Join(workflowDir, name))
			}
		}
	}
	for _, root := range roots {
		entries, err := os.ReadDir(root)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			dir := filepath.Join(root, e.Name())
			load(table, e.Name(), filepath.Join(dir, "SKILL.md"), filepath.Join(dir, "skill.md"))
		}
	}
	found := 0
	for _, s := range slugs {
		if _, ok := table[s]; ok {
			found++
		}
	}
	fmt.Println("found", found, "of", len(slugs))
}
`, workflowDir, rs.String(), slugList(slugs))
}

// dirSize returns the total size of the regular files below dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}

// initLine matches a line of GODEBUG=inittrace=1 output.
var initLine = regexp.MustCompile(`^init (\S+) @([0-9.]+) ms, ([0-9.]+) ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	ClockMs float64
	Bytes   int64
	Allocs  int64
}

// parseInitTrace returns the cost of pkg's init from inittrace output. A
// package with no init work prints no line: ok is then false, and the
// output must still hold lines of other packages (or the trace did not
// run at all, which is an error).
func parseInitTrace(stderr []byte, pkg string) (c initCost, ok bool, err error) {
	lines := 0
	for _, l := range strings.Split(string(stderr), "\n") {
		m := initLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		lines++
		if m[1] != pkg {
			continue
		}
		c.ClockMs, _ = strconv.ParseFloat(m[3], 64)
		c.Bytes, _ = strconv.ParseInt(m[4], 10, 64)
		c.Allocs, _ = strconv.ParseInt(m[5], 10, 64)
		ok = true
	}
	if lines == 0 {
		return c, false, errors.New("no inittrace lines in the output: is GODEBUG=inittrace=1 supported?")
	}
	return c, ok, nil
}
