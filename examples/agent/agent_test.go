package main

// These tests prove that the committed example output (skills/skills_gen.go
// and skills/skills_data/) is exactly what `go generate` produces now, and
// that the host, built from it, works from a directory with no skill files.

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/skillgen/skillgen/gen"
)

// generateArgs returns the arguments of skillgen on the package's single
// //go:generate line, which must run `go tool skillgen`.
func generateArgs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("skills", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "//go:generate "); ok {
			lines = append(lines, rest)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("skills/doc.go has %d //go:generate lines, want 1: %q", len(lines), lines)
	}
	f := strings.Fields(lines[0])
	if len(f) < 3 || f[0] != "go" || f[1] != "tool" || f[2] != "skillgen" {
		t.Fatalf("//go:generate %s: want go tool skillgen", lines[0])
	}
	return f[3:]
}

// TestCommittedOutputIsCurrent runs the generator in process with the
// configuration the //go:generate line implies (working directory
// skills/, package $GOPACKAGE = skills, output ".") and checks the
// committed files against it: nothing differs, is missing or is extra, and
// no leftovers lie around.
func TestCommittedOutputIsCurrent(t *testing.T) {
	if args := generateArgs(t); len(args) > 0 {
		t.Fatalf("//go:generate passes flags %q; map them onto gen.Config here", args)
	}
	dir, err := filepath.Abs("skills")
	if err != nil {
		t.Fatal(err)
	}
	r, err := gen.Generate(gen.Config{Dir: dir, Package: "skills"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() {
		t.Fatalf("generating the example failed: %v", r.Diagnostics)
	}
	if r.Out != dir || r.Package != "skills" {
		t.Errorf("output %s package %s; want %s, skills", r.Out, r.Package, dir)
	}
	rep, err := r.Check()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stale() || len(rep.Leftovers) > 0 {
		t.Fatalf("the committed example output is not what go generate produces now\n"+
			"changes: %v\nleftovers: %q\nrun: go generate ./examples/...", rep.Changes, rep.Leftovers)
	}
	// What the example is meant to show, counted by hand from its files:
	// in-house release and standup; code-review and pdf-tools from
	// .claude/skills, data-analysis from shared-skills; the skills release
	// and shared code-review shadowed; legacy-notes skipped.
	// The catalog: four model-invocable workflows (all but standup), three
	// of them skills; no budget. Its size is the largest of the three
	// texts a model reads, as the package serves them.
	reg := r.Registry()
	tool, _ := reg.ActivationTool()
	size := max(utf8.RuneCountInString(reg.Resident()), utf8.RuneCountInString(tool.Description),
		utf8.RuneCountInString(reg.SkillsXML(strings.Repeat("x", gen.XMLBudgetRoot))))
	want := gen.Summary{Workflows: 5, Skills: 3, Shadowed: 2, Skipped: 1, Files: 11, Bytes: 2807, Blobs: 11,
		Catalog: gen.Catalog{Size: size, Full: size, Entries: 4, XMLEntries: 3}}
	if r.Summary != want {
		t.Errorf("summary %+v, want %+v", r.Summary, want)
	}
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds the host and the skillgen command with one go build.
func binaries(t *testing.T) (agent, skillgen string) {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "skillgen-example-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), ".", "../../cmd/skillgen")
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	return filepath.Join(binDir, "agent"+exe), filepath.Join(binDir, "skillgen"+exe)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// TestSkillgenCheck runs what CI would: skillgen check, exactly as
// go generate would run skillgen (in skills/, with $GOPACKAGE set).
func TestSkillgenCheck(t *testing.T) {
	_, skillgen := binaries(t)
	cmd := exec.Command(skillgen, append([]string{"check"}, generateArgs(t)...)...)
	cmd.Dir = "skills"
	cmd.Env = append(os.Environ(), "GOPACKAGE=skills")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("skillgen check: %v\n%s", err, out)
	}
}

// runAgent runs the host from an empty directory with an empty $HOME.
func runAgent(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	agent, _ := binaries(t)
	empty, home := t.TempDir(), t.TempDir()
	cmd := exec.Command(agent, args...)
	cmd.Dir = empty
	cmd.Env = append(os.Environ(), "HOME="+home)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func TestHostOverview(t *testing.T) {
	out, stderr, err := runAgent(t)
	if err != nil {
		t.Fatalf("agent: %v\n%s", err, stderr)
	}
	resident, rest, ok1 := strings.Cut(out, "\n## Table\n")
	table, rest, ok2 := strings.Cut(rest, "\n## Notifications\n")
	notes, grants, ok3 := strings.Cut(rest, "\n## Grants\n")
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("the output lacks a section:\n%s", out)
	}

	// The resident block: a heading, then one line per model-invocable
	// workflow by slug (standup is not), descriptions with newlines folded.
	wantResident := []string{
		"- code-review: Review a change for correctness, tests and style, using the team checklist. Use when asked to review a diff or a pull request.",
		"- data-analysis: Load a CSV file, summarize its columns and plot distributions. Use for quick exploratory analysis of tabular data.",
		"- pdf-tools: Extract text and tables from PDF files, fill PDF forms, and merge documents. Use when the user mentions PDFs, forms, or document extraction.",
		"- release: Cut a release of this repository the way we do it in-house (tag, changelog, announcement).",
	}
	lines := strings.Split(strings.TrimSuffix(resident, "\n"), "\n")
	if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "- ") }); i < 1 || !slices.Equal(lines[i:], wantResident) {
		t.Errorf("resident block:\n%s\nwant a heading, then:\n%s", resident, strings.Join(wantResident, "\n"))
	}

	wantTable := "" +
		"/code-review    skill    model=true  user=true  files=3  .claude/skills/code-review/SKILL.md\n" +
		"/data-analysis  skill    model=true  user=true  files=4  shared-skills/data-analysis/SKILL.md\n" +
		"/pdf-tools      skill    model=true  user=true  files=4  .claude/skills/pdf-tools/SKILL.md\n" +
		"/release        workflow model=true  user=true  files=0  .insomnia/memory/workflow/release.md\n" +
		"/standup        workflow model=false user=true  files=0  .insomnia/memory/workflow/standup.md\n"
	if table != wantTable {
		t.Errorf("table:\n%s\nwant:\n%s", table, wantTable)
	}

	// In resolution order: the in-house release shadows the .claude skill;
	// then .claude/skills' code-review shadows shared-skills' one; then
	// shared-skills' legacy-notes is skipped (its name is invalid).
	noteLines := strings.Split(strings.TrimSuffix(notes, "\n"), "\n")
	wantNotes := []string{
		"[shadowed] skill /release from skill (.claude/skills/release/SKILL.md) was shadowed by existing workspace workflow (.insomnia/memory/workflow/release.md)",
		"[shadowed] skill /code-review from skill (shared-skills/code-review/SKILL.md) was shadowed by existing skill (.claude/skills/code-review/SKILL.md)",
	}
	const skipped = "[skipped] skill /legacy-notes from skill (shared-skills/legacy-notes/SKILL.md) was skipped"
	if len(noteLines) != 3 || !slices.Equal(noteLines[:2], wantNotes) || !strings.HasPrefix(noteLines[2], skipped) {
		t.Errorf("notifications:\n%s\nwant:\n%s\n%s…", notes, strings.Join(wantNotes, "\n"), skipped)
	}

	wantGrants := "read code-review/ recursive=true\nread data-analysis/ recursive=true\nread pdf-tools/ recursive=true\n"
	if grants != wantGrants {
		t.Errorf("grants:\n%s\nwant:\n%s", grants, wantGrants)
	}
}

func TestHostActivate(t *testing.T) {
	out, stderr, err := runAgent(t, "-activate", "pdf-tools")
	if err != nil {
		t.Fatalf("agent -activate pdf-tools: %v\n%s", err, stderr)
	}
	want := "<skill_content name=\"pdf-tools\">\n" + bodyOf(t, ".claude/skills/pdf-tools/SKILL.md") +
		"\nSkill directory: skill://pdf-tools\nRelative paths in this skill are relative to the skill directory.\n" +
		"\n<skill_resources>\n  <file>assets/form-template.txt</file>\n  <file>references/REFERENCE.md</file>\n" +
		"  <file>scripts/extract_text.sh</file>\n</skill_resources>\n</skill_content>\n"
	if out != want {
		t.Errorf("agent -activate pdf-tools printed:\n%s\nwant:\n%s", out, want)
	}
	for name, msg := range map[string]string{"standup": "not model invocable", "legacy-notes": "no such workflow"} {
		if _, stderr, err := runAgent(t, "-activate", name); err == nil || !strings.Contains(stderr, msg) {
			t.Errorf("agent -activate %s: err %v, stderr %q; want exit 1, %s", name, err, stderr, msg)
		}
	}
}

// bodyOf is the Markdown after a file's frontmatter, read from the source.
func bodyOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(strings.TrimPrefix(string(data), "---\n"), "\n---\n")
	if !ok {
		t.Fatalf("%s has no frontmatter", path)
	}
	return body
}

func TestHostInvoke(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"/pdf-tools", "report.pdf"}, "# /pdf-tools (skill .claude/skills/pdf-tools/SKILL.md)\n# arguments: report.pdf\n" +
			bodyOf(t, ".claude/skills/pdf-tools/SKILL.md")},
		{[]string{"/data-analysis  sales.csv  --plot"}, "# /data-analysis (skill shared-skills/data-analysis/SKILL.md)\n# arguments: sales.csv  --plot\n" +
			bodyOf(t, "shared-skills/data-analysis/SKILL.md")},
		{[]string{"/standup"}, "# /standup (workflow .insomnia/memory/workflow/standup.md)\n" +
			bodyOf(t, ".insomnia/memory/workflow/standup.md")},
	} {
		out, stderr, err := runAgent(t, tc.args...)
		if err != nil {
			t.Errorf("agent %q: %v\n%s", tc.args, err, stderr)
			continue
		}
		if out != tc.want {
			t.Errorf("agent %q printed:\n%s\nwant:\n%s", tc.args, out, tc.want)
		}
	}
	if !strings.Contains(bodyOf(t, ".claude/skills/pdf-tools/SKILL.md"), "# PDF tools\n") {
		t.Errorf("bodyOf did not find the body of pdf-tools")
	}

	_, stderr, err := runAgent(t, "/legacy-notes")
	if err == nil || !strings.Contains(stderr, "no such workflow") {
		t.Errorf("agent /legacy-notes (a skipped skill): err %v, stderr %q; want exit 1, no such workflow", err, stderr)
	}
}

func TestHostMaterialize(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	out, stderr, err := runAgent(t, "-materialize", dir)
	if err != nil {
		t.Fatalf("agent -materialize: %v\n%s", err, stderr)
	}
	sources := map[string]string{
		"code-review":   ".claude/skills/code-review",
		"data-analysis": "shared-skills/data-analysis",
		"pdf-tools":     ".claude/skills/pdf-tools",
	}
	var wantOut string
	for _, slug := range []string{"code-review", "data-analysis", "pdf-tools"} {
		wantOut += fmt.Sprintf("read %s recursive=true\n", filepath.Join(dir, slug))
	}
	if out != wantOut {
		t.Errorf("agent -materialize printed:\n%s\nwant:\n%s", out, wantOut)
	}

	// Every source file, byte for byte, with its exec bit; nothing else.
	want := map[string]bool{}
	for slug, src := range sources {
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			got := filepath.Join(dir, slug, rel)
			want[got] = true
			srcInfo, err := os.Stat(p)
			if err != nil {
				return err
			}
			info, err := os.Stat(got)
			if err != nil {
				t.Errorf("not materialized: %v", err)
				return nil
			}
			if runtime.GOOS != "windows" && (info.Mode()&0o111 != 0) != (srcInfo.Mode()&0o111 != 0) {
				t.Errorf("%s: mode %v, source %v", got, info.Mode(), srcInfo.Mode())
			}
			a, _ := os.ReadFile(p)
			b, _ := os.ReadFile(got)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: bytes differ from %s", got, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(want) != 11 {
		t.Errorf("the example's ingested skills hold %d files, want 11", len(want))
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !want[p] {
			t.Errorf("materialized a file that is no skill file: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, script := range []string{"code-review/scripts/lint.py", "pdf-tools/scripts/extract_text.sh", "data-analysis/scripts/summarize.py"} {
		if info, err := os.Stat(filepath.Join(dir, script)); err != nil || (runtime.GOOS != "windows" && info.Mode()&0o100 == 0) {
			t.Errorf("%s: not materialized as an executable (%v)", script, err)
		}
	}
}
