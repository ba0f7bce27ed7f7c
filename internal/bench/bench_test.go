package main

import (
	"bytes"
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skillgen/skillgen/gen"
	"github.com/skillgen/skillgen/internal/corpus"
	"github.com/skillgen/skillgen/runtime"
)

// generateInto runs skillgen's pipeline in process: the workspace's
// package written into out.
func generateInto(t *testing.T, ws, out string) *gen.Result {
	t.Helper()
	res, err := gen.Generate(gen.Config{Dir: ws, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("generate %s failed: %v", ws, res.Diagnostics[:min(5, len(res.Diagnostics))])
	}
	if _, err := res.Write(); err != nil {
		t.Fatal(err)
	}
	// At scale too, gofmt must have nothing to change in the generated file.
	if formatted, err := format.Source(res.GoSource()); err != nil || !bytes.Equal(formatted, res.GoSource()) {
		t.Errorf("gofmt changes the generated file of %s (err %v)", ws, err)
	}
	return res
}

func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h, err := corpus.TreeHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// ingested returns the slugs in a result's table and its ingested skill
// directories.
func ingested(res *gen.Result) (slugs, skills []string) {
	for _, e := range res.Entries {
		if e.Status == "ingested" {
			slugs = append(slugs, e.Slug)
			if e.Source.Kind.String() == "skill" {
				skills = append(skills, path.Dir(e.Source.Path))
			}
		}
	}
	slices.Sort(slugs)
	slices.Sort(skills)
	return slugs, skills
}

// TestScale checks, at the scale of real collections, what must hold
// whatever the machine's speed (counts and bytes, never timings):
//
//   - determinism: two runs of the synthesizer and generate, in different
//     directories, give byte-identical corpora and byte-identical packages;
//   - the generated package's init allocates no more at 1,000 skills than
//     at 100 (GODEBUG=inittrace=1 of a built host);
//   - every slug of the table is found by its host, and by the scan-at-start
//     program the benchmark compares it with.
func TestScale(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	start := time.Now()
	repo, err := findRepo(".")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	mod := filepath.Join(tmp, "mod")
	if err := writeModule(mod, repo); err != nil {
		t.Fatal(err)
	}
	ws := map[string]string{}
	stats := map[string]corpus.Stats{}
	for _, c := range []struct {
		name   string
		skills int
	}{{"a", 1000}, {"b", 1000}, {"small", smallSkills}} {
		ws[c.name] = filepath.Join(tmp, "ws-"+c.name)
		st, err := corpus.Write(ws[c.name], corpus.Options{Seed: 1, Skills: c.skills})
		if err != nil {
			t.Fatal(err)
		}
		stats[c.name] = st
	}
	st := stats["a"]
	if st.Files < 2000 || st.Bytes < 30<<20 || st.BigAssets < 3 {
		t.Errorf("the 1,000-skill corpus is too small for the benchmarks: %d files, %d bytes, %d big assets", st.Files, st.Bytes, st.BigAssets)
	}
	if a, b := treeHash(t, ws["a"]), treeHash(t, ws["b"]); a != b {
		t.Errorf("two corpora from seed 1 differ: %s vs %s", a, b)
	}

	resA := generateInto(t, ws["a"], filepath.Join(mod, "skills1000"))
	resB := generateInto(t, ws["b"], filepath.Join(tmp, "out-b", "skills1000"))
	resSmall := generateInto(t, ws["small"], filepath.Join(mod, "skills100"))
	if a, b := treeHash(t, filepath.Join(mod, "skills1000")), treeHash(t, filepath.Join(tmp, "out-b", "skills1000")); a != b {
		t.Errorf("two generates of the same corpus (in different directories) differ: %s vs %s", a, b)
	}
	if resA.Summary != resB.Summary {
		t.Errorf("two generates of the same corpus differ: %+v vs %+v", resA.Summary, resB.Summary)
	}
	slugs, skills := ingested(resA)
	if !slices.Equal(skills, st.Ingested) {
		t.Errorf("generate ingested %d skill dirs, the corpus expected %d", len(skills), len(st.Ingested))
	}
	if resA.Summary.Blobs >= resA.Summary.Files {
		t.Errorf("%d blobs for %d files: the repeated files were not stored once", resA.Summary.Blobs, resA.Summary.Files)
	}
	smallSlugs, _ := ingested(resSmall)
	checkCatalogBudget(t, ws["a"], slugs)

	// Hosts and the scanner.
	var roots []string
	for _, r := range st.Roots {
		roots = append(roots, filepath.Join(ws["a"], filepath.FromSlash(r)))
	}
	programs := map[string]string{
		"host-skills1000": hostSource("skills1000", slugs),
		"host-skills100":  hostSource("skills100", smallSlugs),
		"scan":            scanSource(filepath.Join(ws["a"], filepath.FromSlash(corpus.WorkflowDir)), roots, slugs),
	}
	bin := filepath.Join(tmp, "bin")
	for name, src := range programs {
		if err := writeFile(filepath.Join(mod, name, "main.go"), src); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := goCmd(mod, nil, "build", "-trimpath", "-o", bin+string(filepath.Separator), "./host-skills1000", "./host-skills100", "./scan"); err != nil {
		t.Fatal(err)
	}

	allocs := map[string]int64{}
	for _, c := range []struct {
		pkg   string
		slugs []string
	}{{"skills1000", slugs}, {"skills100", smallSlugs}} {
		cmd := exec.Command(filepath.Join(bin, "host-"+c.pkg))
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("host-%s: %v\n%s", c.pkg, err, stderr.String())
		}
		if err := found([]byte(stdout.String()), len(c.slugs)); err != nil {
			t.Errorf("host-%s: %v", c.pkg, err)
		}
		cost, ok, err := parseInitTrace([]byte(stderr.String()), benchModule+"/"+c.pkg)
		if err != nil {
			t.Fatal(err)
		}
		if !ok { // the skill bodies are assigned at init, so there is a line
			t.Fatalf("host-%s: no inittrace line for the generated package", c.pkg)
		}
		allocs[c.pkg] = cost.Allocs
		t.Logf("init of %s: %+v", c.pkg, cost)
	}
	if allocs["skills1000"] > allocs["skills100"] {
		t.Errorf("init allocations grow with the number of skills: %d at 100 skills, %d at 1,000", allocs["skills100"], allocs["skills1000"])
	}

	out, err := exec.Command(filepath.Join(bin, "scan")).Output()
	if err != nil {
		t.Fatal("scan:", err)
	}
	if err := found(out, len(slugs)); err != nil {
		t.Errorf("scan: %v", err)
	}
	t.Logf("took %s", time.Since(start).Round(time.Millisecond))
}

func TestParseInitTrace(t *testing.T) {
	trace := []byte(`init internal/bytealg @0 ms, 0 ms clock, 0 bytes, 0 allocs
init runtime @0.18 ms, 0.76 ms clock, 0 bytes, 0 allocs
init github.com/skillgen/skillgen/runtime @0.38 ms, 0 ms clock, 240 bytes, 3 allocs
init skillbench/skills1000 @0.38 ms, 0.14 ms clock, 1024 bytes, 7 allocs
found 901 of 901
`)
	c, ok, err := parseInitTrace(trace, "skillbench/skills1000")
	if err != nil || !ok || c != (initCost{ClockMs: 0.14, Bytes: 1024, Allocs: 7}) {
		t.Errorf("skills1000: %+v %v %v", c, ok, err)
	}
	if c, ok, err := parseInitTrace(trace, "skillbench/skills100"); err != nil || ok || c != (initCost{}) {
		t.Errorf("a package without init work: %+v %v %v", c, ok, err)
	}
	if _, _, err := parseInitTrace([]byte("found 3 of 3\n"), "skillbench/skills100"); err == nil {
		t.Error("output without any trace was accepted")
	}
}

func TestParseGoBench(t *testing.T) {
	out := []byte(`goos: linux
BenchmarkLookup-2     	 1000000	       119.7 ns/op	       0 B/op	       0 allocs/op
BenchmarkLookup-2     	 1000000	       100.1 ns/op	       0 B/op	       0 allocs/op
BenchmarkLookup-2     	 1000000	       130.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkInvoke-2     	  500000	       183.5 ns/op	      16 B/op	       1 allocs/op
BenchmarkResident     	50000000	         2.2 ns/op	       0 B/op	       0 allocs/op
PASS
`)
	got := parseGoBench(out)
	want := map[string]goBench{
		"Lookup":   {NsPerOp: 119.7, Runs: 3},
		"Invoke":   {NsPerOp: 183.5, AllocsPerOp: 1, BytesPerOp: 16, Runs: 1},
		"Resident": {NsPerOp: 2.2, Runs: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %+v, want %+v", k, got[k], w)
		}
	}
}

func TestFound(t *testing.T) {
	if err := found([]byte("found 5 of 5\n"), 5); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"found 4 of 5\n", "found 5 of 6\n", "hello\n"} {
		if err := found([]byte(bad), 5); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMedian(t *testing.T) {
	if m := median([]time.Duration{5, 1, 3}); m != 3 {
		t.Errorf("median of 5 1 3 = %d", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median of 4 1 3 2 = %v", m)
	}
	if fmtInt(1234567) != "1,234,567" || fmtInt(999) != "999" {
		t.Errorf("fmtInt: %s %s", fmtInt(1234567), fmtInt(999))
	}
}

// checkCatalogBudget fits the 1,000-skill corpus's catalog, far over any
// budget untrimmed, to 8,000 characters: Resident, the activation tool's
// description and SkillsXML (for a root of 64 characters) each fit, and
// every workflow is still served and in the tool's enum.
func checkCatalogBudget(t *testing.T, ws string, slugs []string) {
	const budget = 8000
	res, err := gen.Generate(gen.Config{Dir: ws, CatalogBudget: budget, Package: "skills"})
	if err != nil || !res.OK() {
		t.Fatalf("generate -catalog-budget %d: %v", budget, err)
	}
	c := res.Summary.Catalog
	if c.Full < 20*budget {
		t.Errorf("the untrimmed catalog is %d characters; the corpus should put it far over any budget", c.Full)
	}
	r := res.Registry()
	tool, ok := r.ActivationTool()
	if !ok {
		t.Fatal("no activation tool")
	}
	for name, text := range map[string]string{
		"Resident": r.Resident(), "the tool's description": tool.Description,
		"SkillsXML": r.SkillsXML("/" + strings.Repeat("r", gen.XMLBudgetRoot-1)),
	} {
		if n := utf8.RuneCountInString(text); n > budget || n < budget/2 {
			t.Errorf("%s is %d characters; want at most %d, and not much less", name, n, budget)
		}
	}
	var schema struct {
		Properties struct{ Name struct{ Enum []string } }
	}
	if err := json.Unmarshal([]byte(tool.InputSchema), &schema); err != nil {
		t.Fatal(err)
	}
	var model []string
	for _, slug := range slugs {
		w, ok := r.Lookup(slug)
		if !ok {
			t.Errorf("Lookup(%s) failed", slug)
			continue
		}
		if w.ModelInvocation {
			model = append(model, slug)
		}
	}
	if !slices.Equal(schema.Properties.Name.Enum, model) {
		t.Errorf("the tool's enum has %d slugs, want the %d model-invocable ones", len(schema.Properties.Name.Enum), len(model))
	}
	if !slices.ContainsFunc(res.Notifications, func(n runtime.Notification) bool { return n.Code == runtime.CodeCatalogTrimmed }) {
		t.Error("no catalog-trimmed notification")
	}
	t.Logf("catalog of %d workflows: %d characters untrimmed; -catalog-budget %d: %d characters, lines list %d of %d (cut to %d), SkillsXML %d of %d (cut to %d)",
		len(slugs), c.Full, budget, c.Size, c.Entries-c.Unlisted, c.Entries, c.Cut, c.XMLEntries-c.XMLUnlisted, c.XMLEntries, c.XMLCut)
}
