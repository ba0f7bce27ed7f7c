package main

// The repository's recipes, run: the pre-commit hooks it offers
// (.pre-commit-hooks.yaml) and the YAML README.md shows (a GitHub Actions
// workflow, a .pre-commit-config.yaml). Each command they name is run
// through the re-executed CLI on a workspace laid out as the recipe says.

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
	"gopkg.in/yaml.v3"
)

// hook is an entry of .pre-commit-hooks.yaml, with the keys pre-commit
// reads that the hooks use.
type hook struct {
	ID            string `yaml:"id"`
	Name          string `yaml:"name"`
	Description   string `yaml:"description"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	Files         string `yaml:"files"`
	PassFilenames *bool  `yaml:"pass_filenames"`
}

func readHooks(t *testing.T) map[string]hook {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []hook
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true) // a misspelt key would be ignored by pre-commit
	if err := dec.Decode(&hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	m := map[string]hook{}
	for _, h := range hooks {
		if _, dup := m[h.ID]; dup {
			t.Errorf("hook %s is defined twice", h.ID)
		}
		m[h.ID] = h
	}
	return m
}

// readmeYAML returns the ```yaml blocks of README.md, each parsed.
func readmeYAML(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var docs []map[string]any
	for _, m := range regexp.MustCompile("(?s)\n```yaml\n(.*?)\n```\n").FindAllStringSubmatch(string(data), -1) {
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(m[1]), &doc); err != nil {
			t.Errorf("README.md: a yaml block is not valid YAML: %v\n%s", err, m[1])
			continue
		}
		docs = append(docs, doc)
	}
	return docs
}

// subcommand checks that an entry or a command line runs skillgen and
// returns the arguments after "skillgen".
func subcommand(t *testing.T, what, line, prefix string) []string {
	t.Helper()
	rest, ok := strings.CutPrefix(line, prefix)
	f := strings.Fields(rest)
	if !ok || len(f) == 0 {
		t.Fatalf("%s: %q does not start with %q and a subcommand", what, line, prefix)
	}
	if !slices.ContainsFunc(synopses, func(s string) bool { return strings.Fields(s)[1] == f[0] }) {
		t.Fatalf("%s: %q is not a skillgen subcommand", what, f[0])
	}
	return f
}

// recipeWorkspace is the test workspace with its package generated in
// internal/skills, as the recipes assume; without the invalid skill
// (shared/broken) unless broken.
func recipeWorkspace(t *testing.T, broken bool) string {
	t.Helper()
	ws := newWorkspace(t)
	if !broken {
		if err := os.RemoveAll(filepath.Join(ws, "shared", "broken")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, "internal", "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantCode(t, skillgen(t, ws, nil, "generate", "-C", "internal/skills"), 0)
	return ws
}

// stagedFiles are the workspace's files pre-commit would hand a hook whose
// files pattern is files: slash paths relative to the repository's root.
func stagedFiles(t *testing.T, ws, files string) []string {
	t.Helper()
	re, err := regexp.Compile(files) // pre-commit: Python's re.search; the pattern is plain enough for both
	if err != nil {
		t.Fatalf("files %q: %v", files, err)
	}
	var out []string
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(ws, p)
			if rel = filepath.ToSlash(rel); re.MatchString(rel) {
				out = append(out, rel)
			}
		}
		return nil
	})
	return out
}

func TestPreCommitHooks(t *testing.T) {
	hooks := readHooks(t)
	if wd, _ := os.Getwd(); filepath.Base(wd) != "skillgen" {
		// go install names the binary after the main package's directory.
		t.Fatalf("the command is built from %s; the hooks' entry says skillgen", wd)
	}
	var ids []string
	for id, h := range hooks {
		ids = append(ids, id)
		if h.Language != "golang" || h.Name == "" || h.Description == "" {
			t.Errorf("%s: language %q, name %q, description %q: want golang and both set", id, h.Language, h.Name, h.Description)
		}
	}
	slices.Sort(ids)
	wantLines(t, "hook ids", ids, []string{"skillgen-check", "skillgen-validate"})

	t.Run("skillgen-validate", func(t *testing.T) {
		h := hooks["skillgen-validate"]
		args := subcommand(t, h.ID, h.Entry, "skillgen ")
		if h.PassFilenames == nil || !*h.PassFilenames {
			t.Fatalf("pass_filenames must be true: validate takes the SKILL.md files as PATHs")
		}
		for _, tc := range []struct {
			name  string
			match bool
		}{
			{"SKILL.md", true}, {".claude/skills/a/SKILL.md", true}, {"skills/a/skill.md", true},
			{"skills/a/README.md", false}, {"skills/a/NOTSKILL.md", false}, {"skills/a/SKILL.md.orig", false},
		} {
			if got := regexp.MustCompile(h.Files).MatchString(tc.name); got != tc.match {
				t.Errorf("files %q matches %s: %v, want %v", h.Files, tc.name, got, tc.match)
			}
		}
		ws := recipeWorkspace(t, true)
		staged := stagedFiles(t, ws, h.Files)
		var skillMDs []string
		for _, f := range txtar.Parse([]byte(workspace)).Files {
			if path.Base(f.Name) == "SKILL.md" {
				skillMDs = append(skillMDs, f.Name)
			}
		}
		slices.Sort(skillMDs)
		wantLines(t, "the files the hook gets", staged, skillMDs)
		r := skillgen(t, ws, nil, append(args, staged...)...)
		wantCode(t, r, 1)
		if !strings.Contains(r.stderr, "shared/broken/SKILL.md:2:7: error: ") {
			t.Errorf("the broken skill is not reported:\n%s", r)
		}
		if err := os.RemoveAll(filepath.Join(ws, "shared", "broken")); err != nil {
			t.Fatal(err)
		}
		wantCode(t, skillgen(t, ws, nil, append(args, stagedFiles(t, ws, h.Files)...)...), 0)
	})

	t.Run("skillgen-check", func(t *testing.T) {
		h := hooks["skillgen-check"]
		args := subcommand(t, h.ID, h.Entry, "skillgen ")
		if h.PassFilenames == nil || *h.PassFilenames {
			t.Fatalf("pass_filenames must be false: check takes no file names")
		}
		// The args README.md's .pre-commit-config.yaml gives it.
		var recipe []string
		for _, doc := range readmeYAML(t) {
			for _, repo := range asList(doc["repos"]) {
				for _, hk := range asList(asMap(repo)["hooks"]) {
					if asMap(hk)["id"] == h.ID {
						for _, a := range asList(asMap(hk)["args"]) {
							recipe = append(recipe, a.(string))
						}
					}
				}
			}
		}
		if len(recipe) == 0 {
			t.Fatal("README.md's .pre-commit-config.yaml gives skillgen-check no args")
		}
		ws := recipeWorkspace(t, false)
		wantCode(t, skillgen(t, ws, nil, append(args, recipe...)...), 0)
		appendFile(t, filepath.Join(ws, ".claude/skills/alpha/SKILL.md"), "Edited.\n")
		wantCode(t, skillgen(t, ws, nil, append(args, recipe...)...), 1)
	})
}

// TestReadmeRecipes: every yaml block of README.md parses; the
// .pre-commit-config.yaml names the hooks this repository offers; the
// GitHub Actions workflow's skillgen steps run and pass on a workspace laid
// out as it says, and fail when the package is stale.
func TestReadmeRecipes(t *testing.T) {
	hooks := readHooks(t)
	var workflow map[string]any
	var configs int
	for _, doc := range readmeYAML(t) {
		if doc["jobs"] != nil {
			workflow = doc
		}
		for _, repo := range asList(doc["repos"]) {
			configs++
			if r := asMap(repo)["repo"]; r != "https://github.com/skillgen/skillgen" {
				t.Errorf("the pre-commit config names the repository %v", r)
			}
			for _, hk := range asList(asMap(repo)["hooks"]) {
				if id, _ := asMap(hk)["id"].(string); hooks[id].ID == "" {
					t.Errorf("the pre-commit config uses hook %q, which .pre-commit-hooks.yaml does not define", id)
				}
			}
		}
	}
	if configs != 1 || workflow == nil {
		t.Fatalf("README.md shows %d pre-commit configs and workflow %v; want one of each", configs, workflow != nil)
	}
	var runs [][]string
	for _, job := range asMap(workflow["jobs"]) {
		for _, step := range asList(asMap(job)["steps"]) {
			if run, ok := asMap(step)["run"].(string); ok && strings.HasPrefix(run, "go tool skillgen ") {
				runs = append(runs, subcommand(t, "workflow step", run, "go tool skillgen "))
			}
		}
	}
	var names []string
	for _, r := range runs {
		names = append(names, strings.Join(r[:min(3, len(r))], " "))
	}
	slices.Sort(names)
	wantLines(t, "the workflow's skillgen steps", names, []string{"check -format github", "validate -format github"})

	ws := recipeWorkspace(t, false)
	for _, args := range runs {
		r := skillgen(t, ws, nil, args...)
		wantCode(t, r, 0)
	}
	appendFile(t, filepath.Join(ws, ".claude/skills/alpha/SKILL.md"), "Edited.\n")
	for _, args := range runs {
		if args[0] == "check" {
			r := skillgen(t, ws, nil, args...)
			wantCode(t, r, 1)
			if !strings.Contains(r.stdout, "::error file=internal/skills/skills_gen.go,title=stale::") {
				t.Errorf("no stale annotation for the Go file:\n%s", r)
			}
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
