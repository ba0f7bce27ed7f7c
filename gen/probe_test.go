package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/internal/testmod"

	"github.com/skillgen/skillgen/internal/casetest"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// The probe: every successful golden case's output is written into one
// temporary module as package probe/cases/<name>; one main package imports
// them all and prints, per case, what the runtime answers (probeMain). It is
// built and run once, and its output is split per case into want/run.

// probeModule is a temporary consumer module (internal/testmod) whose
// cases/ directory receives the generated packages.
type probeModule struct {
	*testmod.Module
	dir      string
	casesDir string
}

func newProbeModule(t *testing.T) *probeModule {
	t.Helper()
	m := testmod.New(t, "probe")
	return &probeModule{Module: m, dir: m.Dir, casesDir: filepath.Join(m.Dir, "cases")}
}

// goCmd runs the go command in the module, hermetically.
func (m *probeModule) goCmd(args ...string) *exec.Cmd { return m.Go(args...) }

// run builds one program over every case package, runs it, and returns its
// output split per case.
func (m *probeModule) run(t *testing.T, cases []*casetest.Case) (map[string]string, error) {
	t.Helper()
	var imports, calls strings.Builder
	for i, c := range cases {
		fmt.Fprintf(&imports, "\tc%d %q\n", i, "probe/cases/"+c.Name)
		fmt.Fprintf(&calls, "\tdump(%q, c%d.Registry)\n", c.Name, i)
	}
	src := fmt.Sprintf("package main\n\nimport (\n%s)\n\nfunc main() {\n%s\tfinish()\n}\n", imports.String(), calls.String())
	if err := os.WriteFile(filepath.Join(m.dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.dir, "dump.go"), []byte(probeMain), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(m.dir, "probe.bin")
	if out, err := m.goCmd("build", "-o", bin, ".").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the probe: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if runErr != nil {
		t.Errorf("the probe failed: %v\n%s", runErr, stderr.String())
	}
	sections := map[string]*strings.Builder{}
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(stdout.String(), "\n") {
		if n, ok := strings.CutPrefix(line, probeSep); ok {
			cur = &strings.Builder{}
			sections[strings.TrimSuffix(n, "\n")] = cur
			continue
		}
		if cur == nil {
			if line != "" {
				t.Errorf("probe printed outside any case: %q", line)
			}
			continue
		}
		cur.WriteString(line)
	}
	outputs := map[string]string{}
	for name, b := range sections {
		outputs[name] = b.String()
	}
	return outputs, nil
}

// probeSep starts each case's section of the probe's output.
const probeSep = "=== case "

func TestProbeSourceIsFormatted(t *testing.T) {
	got, err := format.Source([]byte(probeMain))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != probeMain {
		t.Errorf("probeMain is not gofmt-ed")
	}
}

// TestVersionHandshake checks that the generated code refuses to compile
// against a runtime whose version range excludes it: the file's version
// constant set below MinVersion or above MaxVersion is a build error that
// names EnforceVersion. The unedited copy builds (the control).
func TestVersionHandshake(t *testing.T) {
	mod := newProbeModule(t)
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "ws")
	for name, data := range map[string]string{
		".insomnia/manifest.toml":              "[skills]\ndirectories = [\"skills\"]\n",
		"skills/hello/SKILL.md":                "---\nname: hello\ndescription: Says hello.\n---\nHello.\n",
		".insomnia/memory/workflow/deploy.md":  "---\ndescription: Deploys.\n---\nDeploy.\n",
		".insomnia/memory/workflow/unused.txt": "not a workflow",
	} {
		casetest.WriteFile(t, ws, name, data)
	}
	write := func(name string) []byte {
		res, err := Generate(Config{Dir: ws, Out: filepath.Join(mod.dir, name), Home: tmp})
		if err != nil || !res.OK() {
			t.Fatalf("Generate: %v %v", err, res.Diagnostics)
		}
		if _, err := res.Write(); err != nil {
			t.Fatal(err)
		}
		return res.GoSource()
	}
	src := write("current")
	g := skillgenimpl.GenVersion
	lines := map[string]int{} // the edited line of each variant
	for _, tc := range []struct {
		name     string
		old, new string
	}{
		// Older than MinVersion: the first line overflows.
		{"older", fmt.Sprintf("EnforceVersion(%d - skillgenimpl.MinVersion)", g), fmt.Sprintf("EnforceVersion(%d - skillgenimpl.MinVersion)", skillgenimpl.MinVersion-1)},
		// Newer than MaxVersion: the second line overflows.
		{"newer", fmt.Sprintf("EnforceVersion(skillgenimpl.MaxVersion - %d)", g), fmt.Sprintf("EnforceVersion(skillgenimpl.MaxVersion - %d)", skillgenimpl.MaxVersion+1)},
	} {
		if n := bytes.Count(src, []byte(tc.old)); n != 1 {
			t.Fatalf("the generated file holds %q %d times, want once:\n%s", tc.old, n, src)
		}
		write(tc.name)
		edited := bytes.Replace(src, []byte(tc.old), []byte(tc.new), 1)
		lines[tc.name] = 1 + bytes.Count(edited[:bytes.Index(edited, []byte(tc.new))], []byte("\n"))
		if err := os.WriteFile(filepath.Join(mod.dir, tc.name, GoFileName), edited, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Generated code of version 1 shook hands with package runtime itself
	// (and used names that no longer exist): its first error must still be
	// the handshake, on the line its comment explains.
	const v1 = `// Code generated by skillgen. DO NOT EDIT.

package v1

import "github.com/skillgen/skillgen/runtime"

// If the first line fails to compile, this file is older than the runtime: run
// go generate with a newer skillgen.
const (
	_ = runtime.EnforceVersion(1 - runtime.MinVersion)
	_ = runtime.EnforceVersion(runtime.MaxVersion - 1)
)

var Registry = runtime.New(&skillgenTable)

var skillgenTable = runtime.Table{}
`
	if err := os.MkdirAll(filepath.Join(mod.dir, "v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod.dir, "v1", GoFileName), []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	lines["v1"] = 10
	if out, err := mod.goCmd("build", "./current").CombinedOutput(); err != nil {
		t.Fatalf("the unedited output does not build: %v\n%s", err, out)
	}
	for _, name := range []string{"older", "newer", "v1"} {
		out, err := mod.goCmd("build", "./"+name).CombinedOutput()
		if err == nil {
			t.Errorf("%s: the build succeeded; want a version handshake error", name)
			continue
		}
		if !strings.Contains(string(out), "EnforceVersion") || !strings.Contains(string(out), "overflows") {
			t.Errorf("%s: the build error does not name EnforceVersion and the overflow:\n%s", name, out)
		}
		if at := fmt.Sprintf("%s/%s:%d:", name, GoFileName, lines[name]); !strings.Contains(string(out), at) {
			t.Errorf("%s: the build error is not at %s (the edited line):\n%s", name, at, out)
		}
		if first := strings.SplitN(string(out), "\n", 3); len(first) < 2 || !strings.Contains(first[1], "overflows") {
			t.Errorf("%s: the first build error is not the handshake:\n%s", name, out)
		}
	}
}

// probeMain is the probe's dump: for one case, every answer of the runtime
// API, checked against the File table where the two must agree. A line
// containing MISMATCH is a failure whatever the golden says.
const probeMain = `package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"
	"unicode"

	"github.com/skillgen/skillgen/runtime"
)

var failed bool

func mismatch(format string, args ...any) {
	failed = true
	fmt.Printf("MISMATCH: "+format+"\n", args...)
}

func finish() {
	if failed {
		os.Exit(3)
	}
}

// block prints s line by line behind "| ", and says so when s does not end
// in a newline. A line holding a control character other than a tab (a CR,
// say) is printed Go-quoted behind "|q ", so that the golden stays plain text.
func block(title, s string) {
	if s == "" {
		fmt.Printf("%s: (empty)\n", title)
		return
	}
	fmt.Printf("%s:\n", title)
	lines := strings.SplitAfter(s, "\n")
	for _, l := range lines {
		if l == "" {
			continue
		}
		if strings.ContainsFunc(strings.TrimSuffix(l, "\n"), func(r rune) bool { return r != '\t' && !unicode.IsPrint(r) }) {
			fmt.Printf("  |q %q\n", l)
		} else if strings.HasSuffix(l, "\n") {
			fmt.Printf("  | %s", l)
		} else {
			fmt.Printf("  | %s\n  \\ no newline at end\n", l)
		}
	}
}

func sum(data []byte) string {
	return fmt.Sprintf("%x", sha256.Sum256(data))
}

func dump(name string, r *runtime.Registry) {
	fmt.Printf("=== case %s\n", name)
	ws := r.Workflows()
	table := map[string]runtime.File{}
	var tablePaths []string
	fmt.Printf("workflows: %d\n", len(ws))
	for i, w := range ws {
		if i > 0 && ws[i-1].Slug >= w.Slug {
			mismatch("workflows not sorted by slug: %q before %q", ws[i-1].Slug, w.Slug)
		}
		fmt.Printf("- slug: %s\n", w.Slug)
		fmt.Printf("  description: %q\n", w.Description)
		fmt.Printf("  model_invocation: %v, user_invocable: %v\n", w.ModelInvocation, w.UserInvocable)
		fmt.Printf("  requires: %q\n", w.Requires)
		fmt.Printf("  source: %s %s\n", w.Source.Kind, w.Source.Path)
		if w.License != "" {
			fmt.Printf("  license: %q\n", w.License)
		}
		if w.Compatibility != "" {
			fmt.Printf("  compatibility: %q\n", w.Compatibility)
		}
		if w.AllowedTools != "" {
			fmt.Printf("  allowed_tools: %q\n", w.AllowedTools)
		}
		for _, m := range w.Metadata {
			fmt.Printf("  metadata: %q = %q\n", m.Key, m.Value)
		}
		for _, f := range w.Files {
			fmt.Printf("  file: %q %v %d %s\n", f.Path, f.Mode, f.Size, f.SHA256)
			p := w.Slug + "/" + f.Path
			table[p] = f
			tablePaths = append(tablePaths, p)
		}
		if w.Source.Kind == runtime.KindSkill && len(w.Files) == 0 {
			mismatch("skill %s has no files", w.Slug)
		}
		if w.Source.Kind == runtime.KindWorkflow && len(w.Files) != 0 {
			mismatch("in-house workflow %s has files", w.Slug)
		}
		block("  body", w.Body)
		if p, ok := r.Lookup(w.Slug); !ok || p.Slug != w.Slug || p.Body != w.Body {
			mismatch("Lookup(%q) = %v, %v", w.Slug, p, ok)
		}
	}
	if p, ok := r.Lookup("no-such-workflow"); ok || p != nil {
		mismatch("Lookup of a missing slug = %v, %v", p, ok)
	}
	block("resident", r.Resident())
	block("skills_xml", r.SkillsXML("/skills"))
	var modelSlugs []string
	for _, w := range ws {
		if w.ModelInvocation {
			modelSlugs = append(modelSlugs, w.Slug)
		}
	}
	if tool, ok := r.ActivationTool(); ok {
		fmt.Printf("activation tool: %s\n", tool.Name)
		block("  description", tool.Description)
		fmt.Printf("  input schema: %s\n", tool.InputSchema)
		var schema struct {
			Properties struct{ Name struct{ Enum []string } }
		}
		if err := json.Unmarshal([]byte(tool.InputSchema), &schema); err != nil || !slices.Equal(schema.Properties.Name.Enum, modelSlugs) {
			mismatch("the tool's schema is not valid JSON or its enum is not %q: %v", modelSlugs, err)
		}
		if !strings.HasSuffix(tool.Description, strings.TrimPrefix(r.Resident(), "## Workflows\n\nRun one by its slug as /<slug>.\n\n")) {
			mismatch("the tool's catalog is not Resident's")
		}
	} else {
		fmt.Println("activation tool: none")
		if len(modelSlugs) > 0 {
			mismatch("no activation tool, but %q are model-invocable", modelSlugs)
		}
	}
	for _, w := range ws {
		out, err := r.Activate(w.Slug, "/skills/"+w.Slug)
		switch {
		case w.ModelInvocation && err == nil:
			block("activate "+w.Slug, out)
		case !w.ModelInvocation && errors.Is(err, runtime.ErrNotModelInvocable):
			fmt.Printf("activate %s: ErrNotModelInvocable\n", w.Slug)
		default:
			mismatch("Activate(%q) = %v (model invocable: %v)", w.Slug, err, w.ModelInvocation)
		}
		const args = "first 'second word' third"
		if e := w.Expand(args); strings.HasPrefix(e, w.Body) {
			fmt.Printf("expand %s: the body + %q\n", w.Slug, e[len(w.Body):])
		} else {
			block("expand "+w.Slug, e)
		}
	}
	if _, err := r.Activate("no-such-workflow", ""); !errors.Is(err, runtime.ErrNotFound) {
		mismatch("Activate of a missing slug: %v", err)
	}
	for _, g := range r.Grants() {
		fmt.Printf("grant: %s %s recursive=%v\n", g.Target, g.Permission, g.Recursive)
	}
	for _, n := range r.Notifications() {
		fmt.Printf("notification: %s: %s\n", n.Code, n.Message)
	}

	inputs := []string{"/no-such-workflow with args", "no-slash", ""}
	for _, w := range ws {
		inputs = append(inputs, "/"+w.Slug, "/"+w.Slug+"  two words\tand a tab ")
	}
	for _, in := range inputs {
		w, args, err := r.Invoke(in)
		slug := "<nil>"
		if w != nil {
			slug = w.Slug
		}
		var code string
		switch {
		case err == nil:
			code = "ok"
		case errors.Is(err, runtime.ErrNotFound):
			code = "ErrNotFound"
		case errors.Is(err, runtime.ErrNotInvocation):
			code = "ErrNotInvocation"
		case errors.Is(err, runtime.ErrNotUserInvocable):
			code = "ErrNotUserInvocable"
		default:
			code = "unexpected error " + err.Error()
		}
		fmt.Printf("invoke %q: %s %q %s\n", in, slug, args, code)
	}

	fsys := r.FS()
	seen := map[string]bool{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			mismatch("walk %q: %v", p, err)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			mismatch("info %q: %v", p, err)
			return nil
		}
		if d.IsDir() {
			fmt.Printf("fs: %q %v\n", p, info.Mode())
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			mismatch("read %q: %v", p, err)
			return nil
		}
		s := sum(data)
		fmt.Printf("fs: %q %v %d %s\n", p, info.Mode(), len(data), s)
		seen[p] = true
		f, ok := table[p]
		switch {
		case !ok:
			mismatch("fs serves %q, which no workflow lists", p)
		case f.Mode != info.Mode() || f.Size != int64(len(data)) || f.Size != info.Size() || f.SHA256 != s:
			mismatch("fs serves %q as %v %d %s; the table says %v %d %s", p, info.Mode(), len(data), s, f.Mode, f.Size, f.SHA256)
		}
		return nil
	})
	if err != nil {
		mismatch("walk: %v", err)
	}
	for _, p := range tablePaths {
		if !seen[p] {
			mismatch("the table lists %q, which fs does not serve", p)
		}
	}
	if err := fstest.TestFS(fsys, tablePaths...); err != nil {
		// fstest rejects names holding a backslash, which io/fs allows
		// and skills may have; any other complaint is a failure.
		lines := strings.Split(err.Error(), "\n")
		fmt.Printf("fstest.TestFS: %s\n", lines[0])
		for _, l := range lines[1:] {
			if strings.Contains(l, "\\") {
				fmt.Printf("  %s\n", l)
			} else {
				mismatch("fstest.TestFS: %s", l)
			}
		}
	} else {
		fmt.Printf("fstest.TestFS: ok (%d files)\n", len(tablePaths))
	}

	dir, err := os.MkdirTemp("", "materialize-")
	if err != nil {
		mismatch("%v", err)
		return
	}
	defer os.RemoveAll(dir)
	target := filepath.Join(dir, "out")
	grants, err := r.Materialize(target)
	if err != nil {
		mismatch("Materialize: %v", err)
		return
	}
	for _, g := range grants {
		rel, err := filepath.Rel(target, g.Target)
		if err != nil || !filepath.IsAbs(g.Target) {
			mismatch("grant target %q is not under %q", g.Target, target)
		}
		fmt.Printf("materialize grant: $DIR/%s %s recursive=%v\n", filepath.ToSlash(rel), g.Permission, g.Recursive)
	}
	var onDisk []string
	err = filepath.WalkDir(target, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(target, p)
		rel = filepath.ToSlash(rel)
		onDisk = append(onDisk, rel)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, ok := table[rel]
		switch {
		case !ok:
			mismatch("Materialize wrote %q, which no workflow lists", rel)
		case !info.Mode().IsRegular():
			mismatch("Materialize wrote %q as %v", rel, info.Mode())
		case info.Mode().Perm() != f.Mode.Perm():
			mismatch("Materialize wrote %q with mode %v; the table says %v", rel, info.Mode(), f.Mode)
		case sum(data) != f.SHA256:
			mismatch("Materialize wrote other bytes to %q", rel)
		}
		return nil
	})
	if err != nil {
		mismatch("walking the materialized files: %v", err)
	}
	slices.Sort(onDisk)
	want := slices.Clone(tablePaths)
	slices.Sort(want)
	if !slices.Equal(onDisk, want) {
		mismatch("Materialize wrote %q; want %q", onDisk, want)
	}
	exec := 0
	for _, p := range want {
		if table[p].Mode&0o111 != 0 {
			exec++
		}
	}
	fmt.Printf("materialize: %d files, %d executable, modes and bytes as in the table\n", len(onDisk), exec)
}
`
