//go:build unix

package gen_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/internal/testmod"

	"github.com/skillgen/skillgen/gen"
)

// hostMain is a host program over the generated package: it prints what
// the runtime serves, reads every file through FS, materializes the files
// under os.Args[1] and invokes a few workflows.
const hostMain = `package main

import (
	"fmt"
	"io/fs"
	"os"

	"example.com/host/skills"
)

func main() {
	r := skills.Registry
	fmt.Printf("resident %q\n", r.Resident())
	for _, w := range r.Workflows() {
		fmt.Printf("workflow %s %s %s model=%t user=%t requires=%q files=%d\n",
			w.Slug, w.Source.Kind, w.Source.Path, w.ModelInvocation, w.UserInvocable, w.Requires, len(w.Files))
		fmt.Printf("body %s %q\n", w.Slug, w.Body)
		for _, f := range w.Files {
			fmt.Printf("file %s/%s %v %d %s\n", w.Slug, f.Path, f.Mode, f.Size, f.SHA256)
		}
	}
	for _, n := range r.Notifications() {
		fmt.Printf("note %s %q\n", n.Code, n.Message)
	}
	for _, g := range r.Grants() {
		fmt.Printf("grant %s %s %t\n", g.Target, g.Permission, g.Recursive)
	}
	fsys := r.FS()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Printf("fs %s %v %q\n", p, info.Mode(), data)
		return nil
	})
	if err != nil {
		fmt.Println("error", err)
	}
	for _, in := range []string{"/alpha  some args", "/deploy now", "/triage", "/nope"} {
		w, args, err := r.Invoke(in)
		slug := "<nil>"
		if w != nil {
			slug = w.Slug
		}
		fmt.Printf("invoke %q %s %q %v\n", in, slug, args, err)
	}
	grants, err := r.Materialize(os.Args[1])
	if err != nil {
		fmt.Println("error", err)
	}
	for _, g := range grants {
		fmt.Printf("materialized %s %s %t\n", g.Target, g.Permission, g.Recursive)
	}
}
`

// TestHostWithSourcesDeleted generates the workspace's package into a
// temporary module, builds a host over it, deletes the workspace and the
// generated sources, and runs the host from an empty directory: everything
// it serves must come from the binary.
func TestHostWithSourcesDeleted(t *testing.T) {
	hostmod := testmod.New(t, "example.com/host")
	mod := hostmod.Dir
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "workspace")
	bin := filepath.Join(tmp, "bin", "host")
	buildWorkspace(t, ws, 3)
	createFile(t, filepath.Join(mod, "main.go"), hostMain)
	// The output is outside the workspace, given as an absolute path.
	r := generateOK(t, gen.Config{Dir: ws, Out: filepath.Join(mod, "skills"), Home: filepath.Join(tmp, "home")})
	if _, err := r.Write(); err != nil {
		t.Fatal(err)
	}
	if err := hostmod.Build(".", bin); err != nil {
		t.Fatalf("building the host: %v", err)
	}

	// Delete every source: the skills, the manifest, the workflows, and the
	// generated package itself.
	for _, d := range []string{ws, mod} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	cwd := filepath.Join(tmp, "empty")
	home := filepath.Join(tmp, "empty-home")
	mat := filepath.Join(tmp, "materialized")
	for _, d := range []string{cwd, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := exec.Command(bin, mat)
	run.Dir = cwd
	run.Env = append(os.Environ(), "HOME="+home)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	stdout, err := run.Output()
	if err != nil {
		t.Fatalf("the host failed: %v\n%s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSuffix(string(stdout), "\n"), "\n")

	// What the host must print, worked out from wsFiles by hand (see the
	// resolution described above wsFiles).
	body := func(path string) string {
		data := wsFileData(t, path)
		_, b, ok := strings.Cut(strings.TrimPrefix(data, "---\n"), "\n---\n")
		if !ok {
			t.Fatalf("no frontmatter in %s", path)
		}
		return b
	}
	wantBody := map[string]string{
		"alpha":  body("team-skills/alpha/SKILL.md"),
		"beta":   body(".claude/skills/beta/SKILL.md"),
		"deploy": "Run `make deploy` and watch the dashboards.\n",
		"triage": "Label every new issue.\n",
	}
	if wantBody["alpha"] != "# Alpha\n\nRun `scripts/run.sh` — \"quoted\" \\ back\\slash\ttab é {{field}}.\n" {
		t.Fatalf("fixture: alpha's body is %q", wantBody["alpha"])
	}
	want := []string{
		fmt.Sprintf("resident %q", "## Workflows\n\nRun one by its slug as /<slug>.\n\n"+
			"- alpha: Alpha does the first thing.\n- beta: Beta builds things.\n- deploy: Deploy the service to production.\n"),
		`workflow alpha skill team-skills/alpha/SKILL.md model=true user=true requires=[] files=6`,
		`workflow beta skill .claude/skills/beta/SKILL.md model=true user=true requires=[] files=4`,
		`workflow deploy workflow .insomnia/memory/workflow/deploy.md model=true user=true requires=["runbook"] files=0`,
		`workflow triage workflow .insomnia/memory/workflow/triage.md model=false user=false requires=[] files=0`,
		`note shadowed "skill /deploy from skill (team-skills/deploy/SKILL.md) was shadowed by existing workspace workflow (.insomnia/memory/workflow/deploy.md)"`,
		`note shadowed "skill /alpha from skill (.claude/skills/alpha/SKILL.md) was shadowed by existing skill (team-skills/alpha/SKILL.md)"`,
		`grant alpha read true`,
		`grant beta read true`,
		`invoke "/alpha  some args" alpha "some args" <nil>`,
		`invoke "/deploy now" deploy "now" <nil>`,
		`invoke "/triage" triage "" skillgen/runtime: workflow is not user invocable`,
		`invoke "/nope" <nil> "" skillgen/runtime: no such workflow`,
		fmt.Sprintf("materialized %s read true", filepath.Join(mat, "alpha")),
		fmt.Sprintf("materialized %s read true", filepath.Join(mat, "beta")),
	}
	for slug, b := range wantBody {
		want = append(want, fmt.Sprintf("body %s %q", slug, b))
	}
	served := wsServed()
	for p, f := range served {
		mode := fs.FileMode(0o644)
		if f.mode&0o111 != 0 {
			mode = 0o755
		}
		want = append(want,
			fmt.Sprintf("file %s %v %d %s", p, mode, len(f.data), blobName(f.data)),
			fmt.Sprintf("fs %s %v %q", p, mode, f.data))
	}
	// The skipped skill: the wording after "skipped" is not part of the contract.
	const skipped = `note skipped "skill /broken from skill (.claude/skills/broken/SKILL.md) was skipped`
	rest := slices.Clone(got)
	for _, l := range got {
		if strings.HasPrefix(l, skipped) {
			want = append(want, l)
		}
	}
	if n := countPrefix(got, skipped); n != 1 {
		t.Errorf("%d lines start with %s, want 1", n, skipped)
	}
	slices.Sort(want)
	slices.Sort(rest)
	if !slices.Equal(rest, want) {
		t.Errorf("the host printed:\n%s\nmissing:\n  %s\nunexpected:\n  %s", stdout,
			strings.Join(minus(want, rest), "\n  "), strings.Join(minus(rest, want), "\n  "))
	}
	// Notifications come in resolution order.
	var notes []string
	for _, l := range got {
		if strings.HasPrefix(l, "note ") {
			notes = append(notes, l[:min(len(l), 40)])
		}
	}
	if len(notes) != 3 || !strings.Contains(notes[0], "/deploy") || !strings.Contains(notes[1], "/alpha") || !strings.Contains(notes[2], "/broken") {
		t.Errorf("notifications out of resolution order: %q", notes)
	}

	// The materialized tree: exactly the served files, their bytes and
	// their exec bits.
	on := map[string]bool{}
	err = filepath.WalkDir(mat, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(mat, p)
		rel = filepath.ToSlash(rel)
		on[rel] = true
		f, ok := served[rel]
		if !ok {
			t.Errorf("Materialize wrote %s, which is not a skill file", rel)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			t.Errorf("%s: not a regular file: %v", rel, info.Mode())
		}
		if exec := info.Mode()&0o111 != 0; exec != (f.mode&0o111 != 0) {
			t.Errorf("%s: materialized with mode %v, source mode %v", rel, info.Mode(), f.mode)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if string(data) != f.data {
			t.Errorf("%s: materialized bytes %q, want %q", rel, data, f.data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range served {
		if !on[p] {
			t.Errorf("Materialize did not write %s", p)
		}
	}
}

func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// minus returns the elements of a (sorted) not in b, as multisets.
func minus(a, b []string) []string {
	left := map[string]int{}
	for _, s := range b {
		left[s]++
	}
	var out []string
	for _, s := range a {
		if left[s] > 0 {
			left[s]--
			continue
		}
		out = append(out, s)
	}
	return out
}
