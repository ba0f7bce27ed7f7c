package eino_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/cloudwego/eino/adk/middlewares/skill"
	"github.com/cloudwego/eino/components/tool"

	"github.com/skillgen/skillgen/adapters/eino"
	"github.com/skillgen/skillgen/examples/agent/skills"
	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// workspace is the bundled example's workspace: the skills and workflows
// compiled into skills.Registry, read here from disk to check what the
// model is shown against the source files, not against the registry.
const workspace = "../../examples/agent"

// skillTool builds eino's skill middleware over b as an application does
// and returns the tool it gives the agent.
func skillTool(t *testing.T, b skill.Backend) tool.InvokableTool {
	t.Helper()
	mw, err := skill.New(context.Background(), &skill.Config{Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	if len(mw.AdditionalTools) != 1 {
		t.Fatalf("the middleware gives %d tools, want 1", len(mw.AdditionalTools))
	}
	tl, ok := mw.AdditionalTools[0].(tool.InvokableTool)
	if !ok {
		t.Fatalf("the middleware's tool is a %T, not a tool.InvokableTool", mw.AdditionalTools[0])
	}
	return tl
}

// load calls the tool as the agent runtime does when the model asks for
// the skill name: with the model's JSON arguments.
func load(tl tool.InvokableTool, name string) (string, error) {
	args, err := json.Marshal(map[string]string{"skill": name})
	if err != nil {
		return "", err
	}
	return tl.InvokableRun(context.Background(), string(args))
}

// sourceBody returns the Markdown after the frontmatter of a file of the
// example's workspace.
func sourceBody(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(workspace, path))
	if err != nil {
		t.Fatal(err)
	}
	text, ok := strings.CutPrefix(string(data), "---\n")
	if !ok {
		t.Fatalf("%s: no frontmatter", path)
	}
	_, body, ok := strings.Cut(text, "\n---\n")
	if !ok {
		t.Fatalf("%s: frontmatter not closed", path)
	}
	return body
}

// sourceFiles returns every file of the skill directory holding skillMD
// (a path in the example's workspace) but skillMD itself, sorted and
// slash-separated.
func sourceFiles(t *testing.T, skillMD string) []string {
	t.Helper()
	root := filepath.Join(workspace, filepath.Dir(skillMD))
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if rel != filepath.Base(skillMD) {
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

func TestCatalog(t *testing.T) {
	tl := skillTool(t, eino.NewBackend(skills.Registry, t.TempDir()))
	info, err := tl.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "skill" {
		t.Errorf("tool name %q, want %q", info.Name, "skill")
	}
	// Every model-invocable workflow, the in-house release included; not
	// standup, which only the user may run.
	var want strings.Builder
	want.WriteString("\n<available_skills>")
	for _, name := range []string{"code-review", "data-analysis", "pdf-tools", "release"} {
		w, ok := skills.Registry.Lookup(name)
		if !ok {
			t.Fatalf("the example has no workflow %s", name)
		}
		want.WriteString("\n<skill>\n<name>\n" + name + "\n</name>\n<description>\n" + w.Description + "\n</description>\n</skill>")
	}
	want.WriteString("\n</available_skills>\n")
	if _, catalog, _ := strings.Cut(info.Desc, "</skills_instructions>\n\n"); catalog != want.String() {
		t.Errorf("catalog in the tool's description:\n%s\nwant:\n%s", catalog, want.String())
	}
	if strings.Contains(info.Desc, "standup") {
		t.Error("the catalog lists standup, which is not model-invocable")
	}
}

var fileTag = regexp.MustCompile(`(?m)^  <file>(.*)</file>$`)

func TestLoadSkill(t *testing.T) {
	dir := t.TempDir()
	tl := skillTool(t, eino.NewBackend(skills.Registry, dir))
	for _, name := range []string{"code-review", "data-analysis", "pdf-tools"} {
		t.Run(name, func(t *testing.T) {
			w, _ := skills.Registry.Lookup(name)
			skillMD := w.Source.Path
			base := filepath.Join(dir, name)

			got, err := load(tl, name)
			if err != nil {
				t.Fatal(err)
			}
			files := sourceFiles(t, skillMD)
			want := "Launching skill: " + name + "\n" +
				"Base directory for this skill: " + base + "\n\n" +
				"<skill_content name=\"" + name + "\">\n" +
				sourceBody(t, skillMD) +
				"\nSkill directory: " + base + "\n" +
				"Relative paths in this skill are relative to the skill directory.\n" +
				"\n<skill_resources>\n"
			for _, f := range files {
				want += "  <file>" + f + "</file>\n"
			}
			want += "</skill_resources>\n</skill_content>\n"
			if got != want {
				t.Fatalf("the tool returned:\n%s\nwant:\n%s", got, want)
			}

			// Every file the content names, and SKILL.md, is under the base
			// directory, byte for byte, executable when the source is.
			var named []string
			for _, m := range fileTag.FindAllStringSubmatch(got, -1) {
				named = append(named, m[1])
			}
			if len(named) == 0 || !slices.Equal(named, files) {
				t.Fatalf("the content names %q, want %q", named, files)
			}
			for _, f := range append(named, filepath.Base(skillMD)) {
				src := filepath.Join(workspace, filepath.Dir(skillMD), filepath.FromSlash(f))
				dst := filepath.Join(base, filepath.FromSlash(f))
				wantData, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				gotData, err := os.ReadFile(dst)
				if err != nil {
					t.Fatalf("a file the content names cannot be read: %v", err)
				}
				if string(gotData) != string(wantData) {
					t.Errorf("%s differs from %s", dst, src)
				}
				srcInfo, err := os.Stat(src)
				if err != nil {
					t.Fatal(err)
				}
				dstInfo, err := os.Stat(dst)
				if err != nil {
					t.Fatal(err)
				}
				if srcExec, dstExec := srcInfo.Mode()&0o100 != 0, dstInfo.Mode()&0o100 != 0; srcExec != dstExec {
					t.Errorf("%s: executable %v, want %v", dst, dstExec, srcExec)
				}
			}
		})
	}
}

func TestLoadInHouseWorkflow(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	b := eino.NewBackend(skills.Registry, dir)
	calls := eino.CountMaterialize(b)
	got, err := load(skillTool(t, b), "release")
	if err != nil {
		t.Fatal(err)
	}
	want := "Launching skill: release\nBase directory for this skill: \n\n" +
		"<skill_content name=\"release\">\n" +
		sourceBody(t, ".insomnia/memory/workflow/release.md") +
		"</skill_content>\n"
	if got != want {
		t.Errorf("the tool returned:\n%s\nwant:\n%s", got, want)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("a workflow without files wrote the skill files (%d times)", n)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after loading a workflow without files (%v)", dir, err)
	}
}

func TestLoadUnknownOrUserOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	b := eino.NewBackend(skills.Registry, dir)
	calls := eino.CountMaterialize(b)
	tl := skillTool(t, b)
	for _, tc := range []struct {
		name string
		want error
	}{
		{"no-such-skill", runtime.ErrNotFound},
		{"", runtime.ErrNotFound},
		{"../pdf-tools", runtime.ErrNotFound},
		{"standup", runtime.ErrNotModelInvocable},
	} {
		got, err := load(tl, tc.name)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), `skill "`+tc.name+`"`) {
			t.Errorf("loading %q: %q, %v; want an error naming it, wrapping %v", tc.name, got, err, tc.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("failed loads wrote the skill files (%d times)", n)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after failed loads only (%v)", dir, err)
	}
}

func TestFilesWrittenOnce(t *testing.T) {
	dir := t.TempDir()
	b := eino.NewBackend(skills.Registry, dir)
	calls := eino.CountMaterialize(b)
	tl := skillTool(t, b)

	// Concurrent first loads, released together.
	names := []string{"pdf-tools", "code-review", "data-analysis", "release"}
	start := make(chan struct{})
	errs := make([]error, 16)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = load(tl, names[i%len(names)])
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("load %d (%s): %v", i, names[i%len(names)], err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("the skill files were written %d times, want once", n)
	}

	// Later loads leave the files alone.
	skillMD := filepath.Join(dir, "pdf-tools", "SKILL.md")
	if err := os.WriteFile(skillMD, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := load(tl, "pdf-tools"); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(skillMD); err != nil || string(data) != "changed\n" {
		t.Errorf("%s after a later load: %q, %v; want it left alone", skillMD, data, err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the skill files were written %d times, want once", n)
	}
}

func TestDirectoryCannotBeCreated(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(file, "skills") // under a regular file: no one can create it
	b := eino.NewBackend(skills.Registry, dir)
	calls := eino.CountMaterialize(b)
	tl := skillTool(t, b)

	var first string
	for _, name := range []string{"pdf-tools", "code-review"} {
		got, err := load(tl, name)
		if err == nil {
			t.Fatalf("loading %s with files under %s: %q, no error", name, dir, got)
		}
		if !errors.Is(err, syscall.ENOTDIR) || !strings.Contains(err.Error(), "writing the skill files to "+dir+": ") {
			t.Errorf("loading %s: %v; want it to say the files were not written to %s, and why", name, err, dir)
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Errorf("a later load: %v; want the first error again: %s", err, first)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("writing was tried %d times, want once", n)
	}

	// The catalog and workflows without files do not need the directory.
	if _, err := tl.Info(context.Background()); err != nil {
		t.Errorf("the catalog: %v", err)
	}
	if _, err := load(tl, "release"); err != nil {
		t.Errorf("loading release: %v", err)
	}
}

func TestNoDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	_, err := load(skillTool(t, eino.NewBackend(skills.Registry, "")), "pdf-tools")
	if err == nil || !strings.Contains(err.Error(), `NewBackend was given ""`) {
		t.Errorf("loading a skill with no directory: %v", err)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("files were written to the working directory: %v", entries)
	}
}

func TestRelativeDirectory(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	got, err := load(skillTool(t, eino.NewBackend(skills.Registry, "skills")), "pdf-tools")
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(wd, "skills", "pdf-tools")
	if !strings.HasPrefix(got, "Launching skill: pdf-tools\nBase directory for this skill: "+base+"\n") {
		t.Errorf("the tool returned:\n%s\nwant the absolute base directory %s", got, base)
	}
	if _, err := os.Stat(filepath.Join(base, "scripts", "extract_text.sh")); err != nil {
		t.Error(err)
	}
}

// TestPlaceholders checks that the directory Claude Code's placeholders
// stand for is the base directory eino shows, where the files are.
func TestPlaceholders(t *testing.T) {
	skillMD := "---\nname: run\ndescription: Run it.\n---\n"
	body := "Run {baseDir}/scripts/run.sh, then ${CLAUDE_SKILL_DIR}/scripts/run.sh again.\n"
	skillMD += body
	script := "#!/bin/sh\necho ok\n"
	blob := func(data *string) skillgenimpl.Blob {
		sum := sha256.Sum256([]byte(*data))
		return skillgenimpl.Blob{Name: hex.EncodeToString(sum[:]), Size: int64(len(*data)), Data: data}
	}
	mdBlob, scriptBlob := blob(&skillMD), blob(&script)
	blobs := []skillgenimpl.Blob{mdBlob, scriptBlob}
	slices.SortFunc(blobs, func(a, b skillgenimpl.Blob) int { return strings.Compare(a.Name, b.Name) })
	r, err := skillgenimpl.Build(&skillgenimpl.Spec{
		Workflows: []skillgenimpl.Workflow{{
			Workflow: runtime.Workflow{
				Slug: "run", Description: "Run it.", ModelInvocation: true, UserInvocable: true,
				Source: runtime.Source{Kind: runtime.KindSkill, Path: "skills/run/SKILL.md"},
				Files: []runtime.File{
					{Path: "SKILL.md", Mode: 0o644, Size: mdBlob.Size, SHA256: mdBlob.Name},
					{Path: "scripts/run.sh", Mode: 0o755, Size: scriptBlob.Size, SHA256: scriptBlob.Name},
				},
			},
			BodyStart: len(skillMD) - len(body),
			Catalog:   "Run it.", CatalogXML: "Run it.",
		}},
		Blobs: blobs,
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	got, err := load(skillTool(t, eino.NewBackend(r, dir)), "run")
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "run")
	script1 := base + "/scripts/run.sh"
	if !strings.Contains(got, "Base directory for this skill: "+base+"\n") ||
		!strings.Contains(got, "Run "+script1+", then "+script1+" again.\n") {
		t.Errorf("the tool returned:\n%s\nwant the placeholders replaced by %s", got, base)
	}
	data, err := os.ReadFile(script1)
	if err != nil || string(data) != script {
		t.Errorf("%s: %q, %v; want the script", script1, data, err)
	}
}
