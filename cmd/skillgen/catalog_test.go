package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// catalogWorkspace has 12 skills whose descriptions are about 900
// characters each: a catalog over the 8,000 characters hosts budget.
func catalogWorkspace(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("-- .insomnia/manifest.toml --\n[skills]\ndirectories = [\"skills\"]\n")
	for i := range 12 {
		desc := strings.Repeat(fmt.Sprintf("Skill %d does its part of the work carefully. ", i), 20)
		fmt.Fprintf(&b, "-- skills/s%02d/SKILL.md --\n---\nname: s%02d\ndescription: %s\n---\nBody %d.\n", i, i, strings.TrimSpace(desc), i)
	}
	dir := filepath.Join(tempDir(t), "ws")
	writeTree(t, dir, b.String())
	return dir
}

func TestCatalogBudget(t *testing.T) {
	ws := catalogWorkspace(t)
	catalogSize := regexp.MustCompile(`, catalog (\d+) characters`)

	// Without a budget: generate warns, naming the size and the flag.
	r := skillgen(t, ws, nil, "-out", "gen/skills")
	wantCode(t, r, 0)
	lines := r.stderrLines()
	m := catalogSize.FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("the summary does not give the catalog's size:\n%s", r.stderr)
	}
	warning := fmt.Sprintf("skillgen:0:0: warning: the catalog of model-invocable workflows is %s characters, over 8000", m[1])
	if len(lines) != 2 || !strings.HasPrefix(lines[0], warning) || !strings.HasSuffix(lines[0], "cut it with -catalog-budget 8000 [catalog-large]") {
		t.Errorf("stderr:\n%s\nwant a catalog-large warning starting %q", r.stderr, warning)
	}

	// With one: fitted, said once as info, and in the summary.
	const budget = 2000
	r = skillgen(t, ws, nil, "-out", "gen/skills", "-catalog-budget", fmt.Sprint(budget))
	wantCode(t, r, 0)
	lines = r.stderrLines()
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "skillgen:0:0: info: the catalog was fitted to its budget of 2000 characters (") ||
		!strings.HasSuffix(lines[0], "[catalog-trimmed]") {
		t.Errorf("stderr:\n%s\nwant the trim as info", r.stderr)
	}
	if want := fmt.Sprintf("(fitted to -catalog-budget %d from %s); ", budget, m[1]); !strings.Contains(lines[len(lines)-1], want) {
		t.Errorf("summary %q does not contain %q", lines[len(lines)-1], want)
	}

	// check sees the budget: the same one is up to date, another is not.
	wantCode(t, skillgen(t, ws, nil, "check", "-out", "gen/skills", "-catalog-budget", fmt.Sprint(budget)), 0)
	wantCode(t, skillgen(t, ws, nil, "check", "-out", "gen/skills"), 1)
	wantCode(t, skillgen(t, ws, nil, "check", "-out", "gen/skills", "-catalog-budget", "3000"), 1)

	// list reports the catalog too.
	r = skillgen(t, ws, nil, "list", "-catalog-budget", fmt.Sprint(budget))
	wantCode(t, r, 0)
	if got := r.stderrLines(); !strings.Contains(got[len(got)-1], fmt.Sprintf("(fitted to -catalog-budget %d from %s)", budget, m[1])) {
		t.Errorf("list summary: %q", got[len(got)-1])
	}

	// prompt -budget prints each text within the budget.
	resident := skillgen(t, ws, nil, "prompt", "-budget", fmt.Sprint(budget))
	xml := skillgen(t, ws, nil, "prompt", "-budget", fmt.Sprint(budget), "-format", "xml", "-root", "/"+strings.Repeat("r", 63))
	tool := skillgen(t, ws, nil, "prompt", "-budget", fmt.Sprint(budget), "-format", "tool")
	var decoded struct {
		Name, Description string
		InputSchema       struct {
			Properties struct{ Name struct{ Enum []string } }
		} `json:"input_schema"`
	}
	if err := json.Unmarshal([]byte(tool.stdout), &decoded); err != nil {
		t.Fatalf("prompt -format tool: %v\n%s", err, tool)
	}
	for name, text := range map[string]string{"resident": resident.stdout, "xml": strings.TrimSuffix(xml.stdout, "\n"), "tool": decoded.Description} {
		if n := utf8.RuneCountInString(text); n > budget || n < budget/2 {
			t.Errorf("prompt -format %s -budget %d: %d characters", name, budget, n)
		}
	}
	if decoded.Name != "activate_skill" || len(decoded.InputSchema.Properties.Name.Enum) != 12 {
		t.Errorf("prompt -format tool: %s", tool.stdout)
	}
	// Without -budget, prompt prints the whole catalog.
	if full := skillgen(t, ws, nil, "prompt"); utf8.RuneCountInString(full.stdout) <= budget || !strings.Contains(full.stdout, "- s11: ") {
		t.Errorf("prompt without a budget:\n%s", full.stdout)
	}

	// Usage errors.
	for _, args := range [][]string{{"-catalog-budget", "-1"}, {"check", "-catalog-budget", "x"}, {"prompt", "-budget", "-5"}, {"prompt", "-catalog-budget", "5"}} {
		wantCode(t, skillgen(t, ws, nil, args...), 2)
	}
}
