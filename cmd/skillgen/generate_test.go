package main

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// workspace is a small agent repo: a project manifest with two skill roots,
// two in-house Workflows, a skill shadowed by a Workflow, a skill shadowed
// by an earlier root's skill, and an invalid skill.
const workspace = `
-- .insomnia/manifest.toml --
# The host's manifest: skillgen reads only [skills].
[scope]
allow = []

[skills]
directories = [".claude/skills", "shared"]
-- .insomnia/memory/workflow/deploy.md --
---
description: Deploy the app.
model_invokation: true
---
Deploy body.
-- .insomnia/memory/workflow/notes.md --
---
description: Daily notes.
---
Notes body.
-- .claude/skills/alpha/SKILL.md --
---
name: alpha
description: Alpha skill.
---
Alpha body.
-- .claude/skills/alpha/scripts/run.sh --
#!/bin/sh
echo alpha
-- .claude/skills/deploy/SKILL.md --
---
name: deploy
description: Deploy skill.
---
-- shared/alpha/SKILL.md --
---
name: alpha
description: Other alpha.
---
-- shared/beta/SKILL.md --
---
name: beta
description: Beta <skill> & co.
---
Beta body.
-- shared/broken/SKILL.md --
---
name: broken-name
description: Broken.
---
-- shared/not-a-skill/README.md --
A directory without a SKILL.md is not a skill.
`

// workspaceDiags are the diagnostics of the workspace, as printed from its
// root. Positions: line 2 of broken's SKILL.md is "name: broken-name",
// whose value starts at column 7.
var workspaceDiags = []string{
	".claude/skills/deploy/SKILL.md:0:0: warning: skill /deploy from skill (.claude/skills/deploy/SKILL.md) was shadowed by existing workspace workflow (.insomnia/memory/workflow/deploy.md) [shadowed]",
	"shared/alpha/SKILL.md:0:0: warning: skill /alpha from skill (shared/alpha/SKILL.md) was shadowed by existing skill (.claude/skills/alpha/SKILL.md) [shadowed]",
	`shared/broken/SKILL.md:0:0: warning: skill "broken" is skipped: it has errors [skipped]`,
	`shared/broken/SKILL.md:2:7: warning: name "broken-name" does not match the directory name "broken" [name-mismatch]`,
}

// embedded are the skill files the workspace's package serves: alpha's two
// (from .claude/skills, the first root) and beta's SKILL.md.
var embedded = []string{
	".claude/skills/alpha/SKILL.md",
	".claude/skills/alpha/scripts/run.sh",
	"shared/beta/SKILL.md",
}

// workspaceSummary is the closing summary's counts, worked out by hand:
// 4 workflows (deploy, notes, alpha, beta), 2 of them skills, 2 shadowed
// (deploy and shared/alpha), 1 skipped (broken), 3 files, and their bytes;
// and the catalog's size, measured on what prompt prints.
func workspaceSummary(t *testing.T) string {
	return fmt.Sprintf("4 workflows, 2 skills, 2 shadowed, 1 skipped, 3 files, %d bytes, catalog %d characters", embeddedBytes(t), workspaceCatalog(t))
}

var (
	catalogOnce sync.Once
	catalogSize int
)

// workspaceCatalog is the size of the workspace's catalog as the summary
// defines it: the largest, in characters, of the Resident block, the
// activation tool's description and SkillsXML for a root of 64 characters,
// each as skillgen prompt prints it.
func workspaceCatalog(t *testing.T) int {
	catalogOnce.Do(func() {
		ws := newWorkspace(t)
		resident := skillgen(t, ws, nil, "prompt")
		xml := skillgen(t, ws, nil, "prompt", "-format", "xml", "-root", strings.Repeat("r", 64))
		tool := skillgen(t, ws, nil, "prompt", "-format", "tool")
		var decoded struct{ Description string }
		if err := json.Unmarshal([]byte(tool.stdout), &decoded); err != nil || resident.code != 0 || xml.code != 0 {
			t.Fatalf("prompt: %v\n%s\n%s\n%s", err, resident, xml, tool)
		}
		catalogSize = max(utf8.RuneCountInString(resident.stdout), utf8.RuneCountInString(decoded.Description),
			utf8.RuneCountInString(strings.TrimSuffix(xml.stdout, "\n")))
	})
	return catalogSize
}

func embeddedBytes(t *testing.T) int {
	var n int
	for _, f := range embedded {
		n += len(archiveFile(t, workspace, f))
	}
	return n
}

// blobNames are the names of the data files: the SHA-256 of each embedded
// file's content (the content-addressed layout of ARCHITECTURE.md), sorted.
func blobNames(t *testing.T) []string {
	var names []string
	for _, f := range embedded {
		names = append(names, sha256Hex(archiveFile(t, workspace, f)))
	}
	slices.Sort(names)
	return names
}

// tableBlob returns the name of the data file that holds the encoded
// table of the package in out: the one its Go file embeds into skillgenData.
func tableBlob(t *testing.T, out string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(out, "skills_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`//go:embed skills_data/([0-9a-f]{64})\nvar skillgenData string\n`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s/skills_gen.go embeds no table", out)
	}
	return string(m[1])
}

// dataNames are the names skills_data must hold: the blobs and the table.
func dataNames(t *testing.T, out string) []string {
	names := append(blobNames(t), tableBlob(t, out))
	slices.Sort(names)
	return names
}

// newWorkspace writes the workspace into a fresh directory named like a
// repository, my-agent: not a valid package name.
func newWorkspace(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(tempDir(t), "my-agent")
	writeTree(t, dir, workspace)
	return dir
}

// packageName parses the package clause of a generated file.
func packageName(t *testing.T, file string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f.Name.Name
}

// checkOutput verifies a generated package in out: the Go file with the
// header and package name, and one blob per distinct embedded file.
func checkOutput(t *testing.T, out, pkg string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(out, "skills_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src), "// Code generated by skillgen. DO NOT EDIT.\n") {
		t.Errorf("skills_gen.go does not start with the generated-code header:\n%.200s", src)
	}
	if got := packageName(t, filepath.Join(out, "skills_gen.go")); got != pkg {
		t.Errorf("package %s, want %s", got, pkg)
	}
	ents, err := os.ReadDir(filepath.Join(out, "skills_data"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	wantLines(t, "skills_data", names, dataNames(t, out))
	ents, err = os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, e := range ents {
		names = append(names, e.Name())
	}
	wantLines(t, "the output directory", names, []string{"skills_data", "skills_gen.go"})
}

// noFile fails the test if p exists.
func noFile(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Lstat(p); err == nil {
		t.Errorf("%s exists; nothing should have been written", p)
	}
}

func TestGenerate(t *testing.T) {
	ws := newWorkspace(t)
	r := skillgen(t, ws, nil, "-out", "gen/skills")
	wantCode(t, r, 0)
	wantLines(t, "stderr", r.stderrLines(), append(slices.Clone(workspaceDiags),
		"skillgen: "+workspaceSummary(t)+"; 5 written, 0 removed in gen/skills"))
	if r.stdout != "" {
		t.Errorf("generate wrote to stdout:\n%s", r.stdout)
	}
	checkOutput(t, filepath.Join(ws, "gen/skills"), "skills")
	// The blobs are the files, byte for byte.
	for _, f := range embedded {
		data := archiveFile(t, workspace, f)
		got, err := os.ReadFile(filepath.Join(ws, "gen/skills/skills_data", sha256Hex(data)))
		if err != nil || string(got) != string(data) {
			t.Errorf("blob of %s: %q, %v; want %q", f, got, err, data)
		}
	}

	// Generating again changes nothing and says so.
	before := snapshot(t, ws)
	r = skillgen(t, ws, nil, "generate", "-out", "gen/skills")
	wantCode(t, r, 0)
	wantLines(t, "stderr of a no-op run", r.stderrLines(), append(slices.Clone(workspaceDiags),
		"skillgen: "+workspaceSummary(t)+"; 0 written, 0 removed in gen/skills"))
	sameSnapshot(t, "a no-op generate", before, snapshot(t, ws))

	// The same command from elsewhere with -C gives the same output, with
	// paths relative to the -C directory.
	r = skillgen(t, tempDir(t), nil, "-C", ws, "-out", "gen/skills")
	wantCode(t, r, 0)
	wantLines(t, "stderr with -C", r.stderrLines(), append(slices.Clone(workspaceDiags),
		"skillgen: "+workspaceSummary(t)+"; 0 written, 0 removed in gen/skills"))
	sameSnapshot(t, "generate -C", before, snapshot(t, ws))
}

func TestGenerateDefaultOut(t *testing.T) {
	// //go:generate runs skillgen in the package's directory: -out defaults
	// to it and the package name to $GOPACKAGE. The manifest is found by
	// walking up.
	ws := newWorkspace(t)
	pkgDir := filepath.Join(ws, "internal", "agentskills")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := skillgen(t, pkgDir, []string{"GOPACKAGE=fromenv"})
	wantCode(t, r, 0)
	// Every input lies above the working directory: paths are absolute.
	var want []string
	for _, l := range workspaceDiags {
		want = append(want, filepath.ToSlash(ws)+"/"+l)
	}
	want = append(want, "skillgen: "+workspaceSummary(t)+"; 5 written, 0 removed in .")
	wantLines(t, "stderr", r.stderrLines(), want)
	checkOutput(t, pkgDir, "fromenv")

	// With neither -pkg nor $GOPACKAGE: the base name of -out.
	r = skillgen(t, pkgDir, nil, "-out", "../other")
	wantCode(t, r, 0)
	checkOutput(t, filepath.Join(ws, "internal", "other"), "other")

	// -pkg wins over $GOPACKAGE.
	r = skillgen(t, pkgDir, []string{"GOPACKAGE=fromenv"}, "-pkg", "fromflag", "-out", "../third")
	wantCode(t, r, 0)
	checkOutput(t, filepath.Join(ws, "internal", "third"), "fromflag")
}

func TestGenerateOutAndPkg(t *testing.T) {
	ws := newWorkspace(t)
	r := skillgen(t, ws, []string{"GOPACKAGE=ignored"}, "-out", "a/b/c", "-pkg", "mypkg")
	wantCode(t, r, 0)
	if got := r.stderrLines(); got[len(got)-1] != "skillgen: "+workspaceSummary(t)+"; 5 written, 0 removed in a/b/c" {
		t.Errorf("summary: %q", got[len(got)-1])
	}
	checkOutput(t, filepath.Join(ws, "a/b/c"), "mypkg")

	// An absolute -out outside the working directory is printed absolute.
	out := filepath.Join(tempDir(t), "skills")
	r = skillgen(t, ws, nil, "-out", out)
	wantCode(t, r, 0)
	if got := r.stderrLines(); got[len(got)-1] != "skillgen: "+workspaceSummary(t)+"; 5 written, 0 removed in "+filepath.ToSlash(out) {
		t.Errorf("summary: %q", got[len(got)-1])
	}
	checkOutput(t, out, "skills")
}

func TestGeneratePackageNameNotDerivable(t *testing.T) {
	ws := newWorkspace(t)
	for _, out := range []string{"my-skills", "1st", "type", "_"} {
		r := skillgen(t, ws, nil, "-out", out)
		wantCode(t, r, 1)
		wantLines(t, "stderr", r.stderrLines(), []string{
			fmt.Sprintf("skillgen: cannot use the output directory's name %q as a package name; give -pkg", out),
		})
		noFile(t, filepath.Join(ws, out))
	}
	// -pkg (or $GOPACKAGE) makes any directory name work.
	r := skillgen(t, ws, []string{"GOPACKAGE=myskills"}, "-out", "my-skills")
	wantCode(t, r, 0)
	checkOutput(t, filepath.Join(ws, "my-skills"), "myskills")
}

func TestGenerateJSON(t *testing.T) {
	ws := newWorkspace(t)
	r := skillgen(t, ws, nil, "-json", "-out", "gen/skills")
	wantCode(t, r, 0)
	var got []string
	for _, m := range jsonLines(t, r.stdout) {
		d := parseDiag(t, m)
		got = append(got, d.text())
		if want := filepath.Base(filepath.Dir(d.File)); d.Skill != want {
			t.Errorf("skill %q, want the directory name %q: %+v", d.Skill, want, d)
		}
	}
	wantLines(t, "-json diagnostics", got, workspaceDiags)
	wantLines(t, "stderr", r.stderrLines(), []string{"skillgen: " + workspaceSummary(t) + "; 5 written, 0 removed in gen/skills"})
	checkOutput(t, filepath.Join(ws, "gen/skills"), "skills")
}

func TestGenerateManifestLayers(t *testing.T) {
	ws := newWorkspace(t)
	writeTree(t, ws, `
-- layer/extra.toml --
[skills]
# Relative to this file's directory; ../shared is a duplicate, dropped.
directories = ["more", "../shared"]
-- layer/more/gamma/SKILL.md --
---
name: gamma
description: Gamma.
---
-- layer/more/alpha/SKILL.md --
---
name: alpha
description: Layer alpha.
---
`)
	type row struct{ slug, status, source, by string }
	rows := func(r result) []row {
		t.Helper()
		var out []row
		for _, m := range jsonLines(t, r.stdout) {
			if _, ok := m["slug"]; !ok {
				continue // a diagnostic
			}
			e := decodeEntry(t, m)
			by := ""
			if e.By != nil {
				by = e.By.Path
			}
			out = append(out, row{e.Slug, e.Status, e.Source.Path, by})
		}
		return out
	}
	wf := ".insomnia/memory/workflow/"

	// Project manifest first: its roots come first.
	r := skillgen(t, ws, nil, "list", "-json", "-manifest", ".insomnia/manifest.toml", "-manifest", "layer/extra.toml")
	wantCode(t, r, 0)
	want := []row{
		{"deploy", "ingested", wf + "deploy.md", ""},
		{"notes", "ingested", wf + "notes.md", ""},
		{"alpha", "ingested", ".claude/skills/alpha/SKILL.md", ""},
		{"deploy", "shadowed", ".claude/skills/deploy/SKILL.md", wf + "deploy.md"},
		{"alpha", "shadowed", "shared/alpha/SKILL.md", ".claude/skills/alpha/SKILL.md"},
		{"beta", "ingested", "shared/beta/SKILL.md", ""},
		{"broken", "skipped", "shared/broken/SKILL.md", ""},
		{"alpha", "shadowed", "layer/more/alpha/SKILL.md", ".claude/skills/alpha/SKILL.md"},
		{"gamma", "ingested", "layer/more/gamma/SKILL.md", ""},
	}
	if got := rows(r); !slices.Equal(got, want) {
		t.Errorf("rows:\ngot  %v\nwant %v", got, want)
	}

	// The other order: the layer's roots first, then the project's
	// (shared, already listed, is not scanned twice).
	r = skillgen(t, ws, nil, "list", "-json", "-manifest", "layer/extra.toml", "-manifest", ".insomnia/manifest.toml")
	wantCode(t, r, 0)
	want = []row{
		{"deploy", "ingested", wf + "deploy.md", ""},
		{"notes", "ingested", wf + "notes.md", ""},
		{"alpha", "ingested", "layer/more/alpha/SKILL.md", ""},
		{"gamma", "ingested", "layer/more/gamma/SKILL.md", ""},
		{"alpha", "shadowed", "shared/alpha/SKILL.md", "layer/more/alpha/SKILL.md"},
		{"beta", "ingested", "shared/beta/SKILL.md", ""},
		{"broken", "skipped", "shared/broken/SKILL.md", ""},
		{"alpha", "shadowed", ".claude/skills/alpha/SKILL.md", "layer/more/alpha/SKILL.md"},
		{"deploy", "shadowed", ".claude/skills/deploy/SKILL.md", wf + "deploy.md"},
	}
	if got := rows(r); !slices.Equal(got, want) {
		t.Errorf("rows:\ngot  %v\nwant %v", got, want)
	}

	// Layers apply to generate too: gamma is embedded.
	r = skillgen(t, ws, nil, "-out", "gen/skills", "-manifest", ".insomnia/manifest.toml", "-manifest", "layer/extra.toml")
	wantCode(t, r, 0)
	gamma, err := os.ReadFile(filepath.Join(ws, "layer/more/gamma/SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, "gen/skills/skills_data", sha256Hex(gamma))); err != nil {
		t.Errorf("gamma's SKILL.md is not embedded: %v", err)
	}
}

func TestGenerateNoManifest(t *testing.T) {
	dir := tempDir(t)
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".insomnia", "manifest.toml")); err == nil {
			t.Fatalf("the manifest in %s, above the test's directory, spoils this test", d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, cmd := range []string{"generate", "check", "list", "prompt"} {
		r := skillgen(t, dir, []string{"GOPACKAGE=skills"}, cmd)
		wantCode(t, r, 1)
		wantLines(t, cmd+" stderr", r.stderrLines(), []string{
			".:0:0: error: no .insomnia/manifest.toml found here or in any parent directory; give -manifest [manifest-missing]",
			"skillgen: " + cmd + " failed: 1 error; nothing was written",
		})
		if r.stdout != "" {
			t.Errorf("%s wrote to stdout:\n%s", cmd, r.stdout)
		}
	}
	// A -manifest that does not exist.
	r := skillgen(t, dir, []string{"GOPACKAGE=skills"}, "-manifest", "conf/skills.toml")
	wantCode(t, r, 1)
	wantLines(t, "stderr", r.stderrLines(), []string{
		"conf/skills.toml:0:0: error: manifest does not exist [manifest-missing]",
		"skillgen: generate failed: 1 error; nothing was written",
	})
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("a failed run wrote %d file(s)", len(ents))
	}
}

func TestGenerateStrict(t *testing.T) {
	ws := newWorkspace(t)
	wantErrs := []string{
		`shared/broken/SKILL.md:0:0: error: skill "broken" is skipped: it has errors [skipped]`,
		`shared/broken/SKILL.md:2:7: error: name "broken-name" does not match the directory name "broken" [name-mismatch]`,
	}
	// Into a fresh output directory: nothing is created.
	r := skillgen(t, ws, nil, "-strict", "-out", "gen/skills")
	wantCode(t, r, 1)
	for _, l := range wantErrs {
		if !slices.Contains(r.stderrLines(), l) {
			t.Errorf("stderr lacks %q:\n%s", l, r)
		}
	}
	if got := r.stderrLines(); got[len(got)-1] != "skillgen: generate failed: 2 errors; nothing was written" {
		t.Errorf("last line: %q", got[len(got)-1])
	}
	noFile(t, filepath.Join(ws, "gen"))

	// Over a previous output: it is left exactly as it was.
	wantCode(t, skillgen(t, ws, nil, "-out", "gen/skills"), 0)
	before := snapshot(t, ws)
	r = skillgen(t, ws, nil, "-strict", "-out", "gen/skills")
	wantCode(t, r, 1)
	sameSnapshot(t, "a failed -strict run", before, snapshot(t, ws))

	// A missing skills directory is a warning, and an error with -strict.
	writeTree(t, ws, "-- .insomnia/manifest.toml --\n[skills]\ndirectories = [\".claude/skills\", \"gone\"]\n")
	missing := fmt.Sprintf(`.insomnia/manifest.toml:2:34: %%s: skills directory "gone" (%s) does not exist [skills-dir-missing]`, filepath.Join(ws, "gone"))
	r = skillgen(t, ws, nil, "list")
	wantCode(t, r, 0)
	if !slices.Contains(r.stderrLines(), fmt.Sprintf(missing, "warning")) {
		t.Errorf("stderr lacks %q:\n%s", fmt.Sprintf(missing, "warning"), r)
	}
	before = snapshot(t, ws)
	r = skillgen(t, ws, nil, "-strict", "-out", "gen/skills")
	wantCode(t, r, 1)
	wantLines(t, "stderr", r.stderrLines(), []string{
		".claude/skills/deploy/SKILL.md:0:0: warning: skill /deploy from skill (.claude/skills/deploy/SKILL.md) was shadowed by existing workspace workflow (.insomnia/memory/workflow/deploy.md) [shadowed]",
		fmt.Sprintf(missing, "error"),
		"skillgen: generate failed: 1 error; nothing was written",
	})
	sameSnapshot(t, "a failed -strict run", before, snapshot(t, ws))
}

func TestGenerateBrokenWorkflow(t *testing.T) {
	ws := newWorkspace(t)
	wantCode(t, skillgen(t, ws, nil, "-out", "gen/skills"), 0)
	// notes.md: description missing, and model_invokation not a boolean.
	writeTree(t, ws, `
-- .insomnia/memory/workflow/notes.md --
---
model_invokation: "yes"
---
Notes body.
`)
	before := snapshot(t, ws)
	for _, strict := range []bool{false, true} {
		args := []string{"-out", "gen/skills"}
		if strict {
			args = append(args, "-strict")
		}
		r := skillgen(t, ws, nil, args...)
		wantCode(t, r, 1)
		// In-house Workflows are strict: errors without -strict too. The
		// run stops before the skills, so there is nothing about them.
		wantLines(t, "stderr", r.stderrLines(), []string{
			`.insomnia/memory/workflow/notes.md:1:1: error: required field "description" is missing [description-missing]`,
			`.insomnia/memory/workflow/notes.md:2:19: error: field "model_invokation" must be true or false [field-type]`,
			"skillgen: generate failed: 2 errors; nothing was written",
		})
	}
	sameSnapshot(t, "a run with a broken workflow", before, snapshot(t, ws))

	// A workflow whose file name is not a slug.
	writeTree(t, ws, "-- .insomnia/memory/workflow/notes.md --\n---\ndescription: ok\n---\n-- .insomnia/memory/workflow/Bad_Name.md --\n---\ndescription: x\n---\n")
	before = snapshot(t, ws)
	r := skillgen(t, ws, nil, "-out", "gen/skills")
	wantCode(t, r, 1)
	if got := r.stderrLines(); len(got) != 2 || !strings.HasPrefix(got[0], ".insomnia/memory/workflow/Bad_Name.md:0:0: error: ") || !strings.HasSuffix(got[0], " [slug-invalid]") {
		t.Errorf("want one slug-invalid error:\n%s", r)
	}
	sameSnapshot(t, "a run with a badly named workflow", before, snapshot(t, ws))
}

func TestCheck(t *testing.T) {
	ws := newWorkspace(t)
	out := filepath.Join(ws, "gen/skills")
	wantCode(t, skillgen(t, ws, nil, "-out", "gen/skills"), 0)
	upToDate := "skillgen: " + workspaceSummary(t) + "; gen/skills is up to date"

	before := snapshot(t, ws)
	r := skillgen(t, ws, nil, "check", "-out", "gen/skills")
	wantCode(t, r, 0)
	wantLines(t, "stderr", r.stderrLines(), append(slices.Clone(workspaceDiags), upToDate))
	sameSnapshot(t, "check", before, snapshot(t, ws))

	// Edit the Go file, delete one blob, damage another, add a file.
	blobs := blobNames(t)
	appendFile(t, filepath.Join(out, "skills_gen.go"), "// edited\n")
	if err := os.Remove(filepath.Join(out, "skills_data", blobs[0])); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(out, "skills_data", blobs[1]), "x")
	appendFile(t, filepath.Join(out, "skills_data", "notes.txt"), "mine\n")
	if err := os.Mkdir(filepath.Join(out, "skills_data", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	before = snapshot(t, ws)
	r = skillgen(t, ws, nil, "check", "-out", "gen/skills")
	wantCode(t, r, 1)
	wantLines(t, "stderr", r.stderrLines(), append(slices.Clone(workspaceDiags),
		"gen/skills/skills_data/"+blobs[0]+": missing",
		"gen/skills/skills_data/"+blobs[1]+": differs",
		"gen/skills/skills_data/notes.txt: extra",
		"gen/skills/skills_data/sub: extra",
		"gen/skills/skills_gen.go: differs",
		"skillgen: "+workspaceSummary(t)+"; gen/skills is stale: 5 file(s) differ, are missing or are extra; run go generate",
	))
	sameSnapshot(t, "a failing check", before, snapshot(t, ws))

	// With -json the diagnostics go to stdout; the verdict stays on stderr.
	r = skillgen(t, ws, nil, "check", "-json", "-out", "gen/skills")
	wantCode(t, r, 1)
	if n := len(jsonLines(t, r.stdout)); n != len(workspaceDiags) {
		t.Errorf("%d JSON lines, want %d", n, len(workspaceDiags))
	}
	if got := r.stderrLines(); len(got) != 6 || !strings.HasPrefix(got[5], "skillgen: "+workspaceSummary(t)+"; gen/skills is stale: ") {
		t.Errorf("stderr:\n%s", r.stderr)
	}

	// generate repairs it (the foreign files in skills_data, which skillgen
	// owns, are removed), and check agrees.
	r = skillgen(t, ws, nil, "-out", "gen/skills")
	wantCode(t, r, 0)
	if got := r.stderrLines(); got[len(got)-1] != "skillgen: "+workspaceSummary(t)+"; 3 written, 2 removed in gen/skills" {
		t.Errorf("summary: %q", got[len(got)-1])
	}
	checkOutput(t, out, "skills")
	wantCode(t, skillgen(t, ws, nil, "check", "-out", "gen/skills"), 0)

	// The Go file missing; a changed skill (a new blob missing, the Go file
	// differs; the old blob is a mere leftover).
	if err := os.Remove(filepath.Join(out, "skills_gen.go")); err != nil {
		t.Fatal(err)
	}
	r = skillgen(t, ws, nil, "check", "-out", "gen/skills")
	wantCode(t, r, 1)
	if got := r.stderrLines(); got[len(got)-2] != "gen/skills/skills_gen.go: missing" {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	wantCode(t, skillgen(t, ws, nil, "-out", "gen/skills"), 0)
	appendFile(t, filepath.Join(ws, "shared/beta/SKILL.md"), "More.\n")
	newBeta, err := os.ReadFile(filepath.Join(ws, "shared/beta/SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	oldBeta := sha256Hex(archiveFile(t, workspace, "shared/beta/SKILL.md"))
	oldTable := tableBlob(t, out)
	r = skillgen(t, ws, nil, "check", "-out", "gen/skills")
	wantCode(t, r, 1)
	got := r.stderrLines()[len(workspaceDiags):]
	// The table changes too (the skill file's size and hash are in it):
	// the new one is missing, the old one a leftover.
	if len(got) != 6 {
		t.Fatalf("stderr after a skill changed:\n%s", r.stderr)
	}
	var newTable string
	for _, l := range got[2:4] {
		if name, ok := strings.CutSuffix(strings.TrimPrefix(l, "gen/skills/skills_data/"), ": missing"); ok && name != sha256Hex(newBeta) {
			newTable = name
		}
	}
	if newTable == "" || newTable == oldTable {
		t.Fatalf("the new table is not reported missing:\n%s", r.stderr)
	}
	leftovers := []string{oldBeta, oldTable}
	slices.Sort(leftovers)
	missing := []string{sha256Hex(newBeta), newTable}
	slices.Sort(missing)
	const left = ": warning: leftover of an interrupted run; the next generate removes it"
	wantLines(t, "stderr after a skill changed", got, []string{
		"gen/skills/skills_data/" + leftovers[0] + left,
		"gen/skills/skills_data/" + leftovers[1] + left,
		"gen/skills/skills_data/" + missing[0] + ": missing",
		"gen/skills/skills_data/" + missing[1] + ": missing",
		"gen/skills/skills_gen.go: differs",
		"skillgen: " + strings.Replace(workspaceSummary(t), fmt.Sprintf(" %d bytes,", embeddedBytes(t)), fmt.Sprintf(" %d bytes,", embeddedBytes(t)+len("More.\n")), 1) +
			"; gen/skills is stale: 3 file(s) differ, are missing or are extra; run go generate",
	})
}

func TestCheckLeftovers(t *testing.T) {
	ws := newWorkspace(t)
	out := filepath.Join(ws, "gen/skills")
	wantCode(t, skillgen(t, ws, nil, "-out", "gen/skills"), 0)
	// What a killed run leaves: temp files and an unreferenced blob.
	unreferenced := sha256Hex([]byte("an old version"))
	appendFile(t, filepath.Join(out, ".skills_gen.go.tmp-123"), "partial")
	appendFile(t, filepath.Join(out, "skills_data", ".tmp-456"), "partial")
	appendFile(t, filepath.Join(out, "skills_data", unreferenced), "an old version")
	// And a file of the user's beside the package: not skillgen's business.
	appendFile(t, filepath.Join(out, "doc.go"), "package skills\n")

	before := snapshot(t, ws)
	r := skillgen(t, ws, nil, "check", "-out", "gen/skills")
	wantCode(t, r, 0)
	const left = ": warning: leftover of an interrupted run; the next generate removes it"
	wantLines(t, "stderr", r.stderrLines()[len(workspaceDiags):], []string{
		"gen/skills/skills_data/.tmp-456" + left,
		"gen/skills/skills_data/" + unreferenced + left,
		"gen/skills/.skills_gen.go.tmp-123" + left,
		"skillgen: " + workspaceSummary(t) + "; gen/skills is up to date",
	})
	sameSnapshot(t, "check with leftovers", before, snapshot(t, ws))

	// The next generate removes them, and only them.
	r = skillgen(t, ws, nil, "-out", "gen/skills")
	wantCode(t, r, 0)
	if got := r.stderrLines(); got[len(got)-1] != "skillgen: "+workspaceSummary(t)+"; 0 written, 3 removed in gen/skills" {
		t.Errorf("summary: %q", got[len(got)-1])
	}
	for _, p := range []string{".skills_gen.go.tmp-123", "skills_data/.tmp-456", "skills_data/" + unreferenced} {
		noFile(t, filepath.Join(out, p))
	}
	if b, err := os.ReadFile(filepath.Join(out, "doc.go")); err != nil || string(b) != "package skills\n" {
		t.Errorf("doc.go was touched: %q, %v", b, err)
	}
}

func TestList(t *testing.T) {
	ws := newWorkspace(t)
	before := snapshot(t, ws)
	r := skillgen(t, ws, nil, "list")
	wantCode(t, r, 0)
	want := []string{
		"SLUG    STATUS    KIND      SOURCE                               MODEL  USER  FILES  NOTE",
		"deploy  ingested  workflow  .insomnia/memory/workflow/deploy.md  yes    yes   0",
		"notes   ingested  workflow  .insomnia/memory/workflow/notes.md   no     yes   0",
		"alpha   ingested  skill     .claude/skills/alpha/SKILL.md        yes    yes   2",
		"deploy  shadowed  skill     .claude/skills/deploy/SKILL.md       yes    yes   0      shadowed by workflow .insomnia/memory/workflow/deploy.md",
		"alpha   shadowed  skill     shared/alpha/SKILL.md                yes    yes   0      shadowed by skill .claude/skills/alpha/SKILL.md",
		"beta    ingested  skill     shared/beta/SKILL.md                 yes    yes   1",
		`broken  skipped   skill     shared/broken/SKILL.md               yes    yes   0      name "broken-name" does not match the directory name "broken" [name-mismatch]`,
	}
	var got []string
	for _, l := range r.stdoutLines() {
		got = append(got, strings.TrimRight(l, " "))
	}
	wantLines(t, "list", got, want)
	wantLines(t, "stderr", r.stderrLines(), append(slices.Clone(workspaceDiags), "skillgen: "+workspaceSummary(t)))
	sameSnapshot(t, "list", before, snapshot(t, ws))
}

// listEntry is a `list -json` row; decodeEntry rejects unknown keys.
type listEntry struct {
	Slug   string `json:"slug"`
	Source struct {
		Kind string `json:"kind"`
		Path string `json:"path"`
	} `json:"source"`
	Status string `json:"status"`
	By     *struct {
		Kind string `json:"kind"`
		Path string `json:"path"`
	} `json:"shadowed_by"`
	Reason          string `json:"reason"`
	ModelInvocation bool   `json:"model_invocation"`
	UserInvocable   bool   `json:"user_invocable"`
	Files           int    `json:"files"`
}

func decodeEntry(t *testing.T, m map[string]any) listEntry {
	t.Helper()
	b, _ := json.Marshal(m)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var e listEntry
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("list row %s: %v", b, err)
	}
	return e
}

func TestListJSON(t *testing.T) {
	ws := newWorkspace(t)
	r := skillgen(t, ws, nil, "list", "-json")
	wantCode(t, r, 0)
	// stdout holds the rows only; the diagnostics, as JSON lines, and the
	// summary go to stderr.
	var diags, rows []string
	stderr := r.stderrLines()
	if len(stderr) == 0 {
		t.Fatal("no stderr")
	}
	for _, m := range jsonLines(t, strings.Join(stderr[:len(stderr)-1], "\n")) {
		diags = append(diags, parseDiag(t, m).text())
	}
	for _, m := range jsonLines(t, r.stdout) {
		if _, ok := m["slug"]; !ok {
			t.Errorf("a line on stdout is not a row: %v", m)
			continue
		}
		e := decodeEntry(t, m)
		row := fmt.Sprintf("%s %s %s:%s model=%v user=%v files=%d", e.Slug, e.Status, e.Source.Kind, e.Source.Path, e.ModelInvocation, e.UserInvocable, e.Files)
		if e.By != nil {
			row += fmt.Sprintf(" by=%s:%s", e.By.Kind, e.By.Path)
		}
		if e.Reason != "" {
			row += " reason=" + e.Reason
		}
		rows = append(rows, row)
	}
	wantLines(t, "diagnostics", diags, workspaceDiags)
	wantLines(t, "rows", rows, []string{
		"deploy ingested workflow:.insomnia/memory/workflow/deploy.md model=true user=true files=0",
		"notes ingested workflow:.insomnia/memory/workflow/notes.md model=false user=true files=0",
		"alpha ingested skill:.claude/skills/alpha/SKILL.md model=true user=true files=2",
		"deploy shadowed skill:.claude/skills/deploy/SKILL.md model=true user=true files=0 by=workflow:.insomnia/memory/workflow/deploy.md",
		"alpha shadowed skill:shared/alpha/SKILL.md model=true user=true files=0 by=skill:.claude/skills/alpha/SKILL.md",
		"beta ingested skill:shared/beta/SKILL.md model=true user=true files=1",
		`broken skipped skill:shared/broken/SKILL.md model=true user=true files=0 reason=name "broken-name" does not match the directory name "broken" [name-mismatch]`,
	})
	if got, want := stderr[len(stderr)-1], "skillgen: "+workspaceSummary(t); got != want {
		t.Errorf("last stderr line %q, want %q", got, want)
	}
}

func TestPrompt(t *testing.T) {
	ws := newWorkspace(t)
	before := snapshot(t, ws)
	// Model-invocable workflows by slug; notes (model_invokation false) is not one.
	resident := "## Workflows\n\nRun one by its slug as /<slug>.\n\n" +
		"- alpha: Alpha skill.\n" +
		"- beta: Beta <skill> & co.\n" +
		"- deploy: Deploy the app.\n"
	for _, args := range [][]string{{"prompt"}, {"prompt", "-format", "resident"}, {"prompt", "-format=resident", "-root", "/ignored"}} {
		r := skillgen(t, ws, nil, args...)
		wantCode(t, r, 0)
		if r.stdout != resident {
			t.Errorf("%q printed:\n%s\nwant:\n%s", args, r.stdout, resident)
		}
		wantLines(t, "stderr", r.stderrLines(), workspaceDiags)
	}

	// The skills only, in the agentskills layout, values escaped.
	xml := func(root string) string {
		return "<available_skills>\n" +
			"<skill>\n<name>\nalpha\n</name>\n<description>\nAlpha skill.\n</description>\n<location>\n" + root + "alpha/SKILL.md\n</location>\n</skill>\n" +
			"<skill>\n<name>\nbeta\n</name>\n<description>\nBeta &lt;skill&gt; &amp; co.\n</description>\n<location>\n" + root + "beta/SKILL.md\n</location>\n</skill>\n" +
			"</available_skills>\n"
	}
	r := skillgen(t, ws, nil, "prompt", "-format", "xml")
	wantCode(t, r, 0)
	if r.stdout != xml("") {
		t.Errorf("xml:\n%s\nwant:\n%s", r.stdout, xml(""))
	}
	r = skillgen(t, ws, nil, "prompt", "-format", "xml", "-root", "/srv/skills")
	wantCode(t, r, 0)
	if r.stdout != xml("/srv/skills/") {
		t.Errorf("xml -root:\n%s\nwant:\n%s", r.stdout, xml("/srv/skills/"))
	}
	sameSnapshot(t, "prompt", before, snapshot(t, ws))
}

func appendFile(t *testing.T, name, s string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestGenerateHidden(t *testing.T) {
	ws := newWorkspace(t)
	writeTree(t, ws, "-- .claude/skills/alpha/.env --\nTOKEN=x\n")
	env := archiveFile(t, "-- .env --\nTOKEN=x\n", ".env")

	// Left out by default, with an info diagnostic.
	r := skillgen(t, ws, nil, "-out", "gen/skills")
	wantCode(t, r, 0)
	wantLines(t, "stderr", r.stderrLines(), concat(
		[]string{`.claude/skills/alpha/.env:0:0: info: hidden file ".env" is left out (-hidden includes it) [file-skipped]`},
		workspaceDiags,
		[]string{"skillgen: " + workspaceSummary(t) + "; 5 written, 0 removed in gen/skills"},
	))
	noFile(t, filepath.Join(ws, "gen/skills/skills_data", sha256Hex(env)))

	// -hidden embeds it: one file and its bytes more (and a new table).
	r = skillgen(t, ws, nil, "-hidden", "-out", "gen/skills")
	wantCode(t, r, 0)
	summary := fmt.Sprintf("4 workflows, 2 skills, 2 shadowed, 1 skipped, 4 files, %d bytes, catalog %d characters", embeddedBytes(t)+len(env), workspaceCatalog(t))
	wantLines(t, "stderr with -hidden", r.stderrLines(), concat(
		workspaceDiags,
		[]string{"skillgen: " + summary + "; 3 written, 1 removed in gen/skills"},
	))
	if b, err := os.ReadFile(filepath.Join(ws, "gen/skills/skills_data", sha256Hex(env))); err != nil || string(b) != string(env) {
		t.Errorf("the .env blob: %q, %v", b, err)
	}
}
