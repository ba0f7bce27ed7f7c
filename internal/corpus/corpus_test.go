package corpus_test

import (
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/gen"
	"github.com/skillgen/skillgen/internal/corpus"
)

// TestDeterministic: the same options write the same bytes, names and
// modes, and the same Stats; another seed writes another corpus.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	write := func(seed uint64) (string, corpus.Stats) {
		dir := t.TempDir()
		st, err := corpus.Write(dir, corpus.Options{Seed: seed, Skills: 120})
		if err != nil {
			t.Fatal(err)
		}
		h, err := corpus.TreeHash(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h, st
	}
	h1, st1 := write(7)
	h2, st2 := write(7)
	h3, _ := write(8)
	if h1 != h2 {
		t.Errorf("two writes with seed 7 differ: %s vs %s", h1, h2)
	}
	if !reflect.DeepEqual(st1, st2) {
		t.Errorf("two writes with seed 7 have different stats:\n%+v\n%+v", st1, st2)
	}
	if h1 == h3 {
		t.Errorf("seeds 7 and 8 wrote the same corpus")
	}
}

// TestTreeHashSeesEverything: a changed byte, a changed executable bit and
// a renamed file each change the hash.
func TestTreeHashSeesEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := filepath.Join(dir, "a", "x.sh")
	os.MkdirAll(filepath.Dir(f), 0o755)
	hash := func() string {
		h, err := corpus.TreeHash(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	os.WriteFile(f, []byte("echo 1\n"), 0o644)
	os.Chmod(f, 0o644)
	h0 := hash()
	os.WriteFile(f, []byte("echo 2\n"), 0o644)
	h1 := hash()
	os.Chmod(f, 0o755)
	h2 := hash()
	os.Rename(f, filepath.Join(dir, "a", "y.sh"))
	h3 := hash()
	if h0 == h1 || h1 == h2 || h2 == h3 {
		t.Errorf("hash missed a change: %s %s %s %s", h0, h1, h2, h3)
	}
	os.Rename(filepath.Join(dir, "a", "y.sh"), f)
	os.WriteFile(f, []byte("echo 1\n"), 0o644)
	os.Chmod(f, 0o644)
	if h := hash(); h != h0 {
		t.Errorf("same tree, different hash: %s vs %s", h, h0)
	}
}

func TestWriteRefusesNonEmptyDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	if _, err := corpus.Write(dir, corpus.Options{Skills: 5}); err == nil {
		t.Fatal("Write into a non-empty directory succeeded")
	}
}

// TestShape checks the proportions the benchmarks rely on, on a corpus
// small enough for a unit test (the default 1,000-skill corpus is checked
// by internal/bench's scale test).
func TestShape(t *testing.T) {
	t.Parallel()
	const n = 300
	dir := t.TempDir()
	st, err := corpus.Write(dir, corpus.Options{Seed: 3, Skills: n})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(st.Roots, ".claude/skills") || len(st.Roots) < 3 {
		t.Errorf("roots %q: want several, .claude/skills among them", st.Roots)
	}
	if st.Skills != n || len(st.Ingested)+len(st.Shadowed)+len(st.Invalid) != n {
		t.Errorf("%d skills, %d ingested + %d shadowed + %d invalid; want %d in all",
			st.Skills, len(st.Ingested), len(st.Shadowed), len(st.Invalid), n)
	}
	// 8% invalid plus the one over 1 MiB; 2% shadowed between roots plus
	// the one an in-house Workflow shadows.
	if got, want := len(st.Invalid), n*8/100+1; got != want {
		t.Errorf("%d invalid skills, want %d", got, want)
	}
	if got, want := len(st.Shadowed), n*2/100+1; got != want {
		t.Errorf("%d shadowed skills, want %d", got, want)
	}
	codes := map[string]bool{}
	for _, inv := range st.Invalid {
		codes[inv.Code] = true
	}
	for _, c := range []string{"yaml-invalid", "name-invalid", "name-mismatch", "name-missing", "description-missing",
		"description-too-long", "frontmatter-missing", "frontmatter-unclosed", "field-type", "encoding-invalid",
		"compatibility-too-long", "file-too-large"} {
		if !codes[c] {
			t.Errorf("no invalid skill draws %s", c)
		}
	}
	if len(st.Workflows) < 2 {
		t.Errorf("workflows %q: want a couple", st.Workflows)
	}
	if st.Rich < n/20 || st.Rich > n/5 {
		t.Errorf("%d rich skills of %d: want about 10%%", st.Rich, n)
	}
	if st.Executables == 0 || st.CRLF == 0 || st.BigAssets < 2 {
		t.Errorf("executables %d, CRLF files %d, big assets %d: want some of each", st.Executables, st.CRLF, st.BigAssets)
	}
	kinds := map[string]int{}
	for _, b := range st.BrokenLinks {
		kinds[b.Kind]++
		if !slices.Contains(st.Ingested, b.Dir) {
			t.Errorf("broken link %+v in a skill that is not ingested", b)
		}
	}
	if st.Links < n/20 || len(st.BrokenLinks) > st.Links/2 || kinds["missing"] == 0 || kinds["leaves"] == 0 || kinds["hidden"] == 0 {
		t.Errorf("%d good links, broken ones %v: want many good ones and a few broken ones of each kind", st.Links, kinds)
	}

	// Most SKILL.md files are 2–20 KB; the files under the roots add up to
	// what Stats says; repeated license files are byte-identical.
	var files int
	var size int64
	skillSizes := 0
	inRange := 0
	licenses := map[string]map[string]bool{} // name → distinct contents
	for _, root := range st.Roots {
		filepath.WalkDir(filepath.Join(dir, root), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			if d.IsDir() {
				return nil
			}
			info, _ := d.Info()
			files++
			size += info.Size()
			switch d.Name() {
			case "SKILL.md", "skill.md":
				skillSizes++
				if info.Size() >= 2000 && info.Size() <= 24_000 {
					inRange++
				}
			case "LICENSE.txt", "LICENSE", "LICENSE.md":
				data, _ := os.ReadFile(p)
				if licenses[d.Name()] == nil {
					licenses[d.Name()] = map[string]bool{}
				}
				licenses[d.Name()][string(data)] = true
			}
			return nil
		})
	}
	if files != st.Files || size != st.Bytes {
		t.Errorf("walk found %d files, %d bytes; Stats say %d, %d", files, size, st.Files, st.Bytes)
	}
	if skillSizes != n || inRange < n*9/10 {
		t.Errorf("%d skill files, %d of them 2–24 KB; want %d, most of them in range", skillSizes, inRange, n)
	}
	if len(licenses) != 3 {
		t.Errorf("license files %v: want three kinds", len(licenses))
	}
	for name, contents := range licenses {
		if len(contents) != 1 {
			t.Errorf("%d different %s files; want one text repeated", len(contents), name)
		}
	}
	manifest, err := os.ReadFile(filepath.Join(dir, corpus.ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range st.Roots {
		if !strings.Contains(string(manifest), `"`+root+`"`) {
			t.Errorf("manifest does not list %s:\n%s", root, manifest)
		}
	}
}

// TestSkillgenAgrees compiles a corpus with skillgen and checks that every
// skill meets the fate it was written for: the invalid ones are skipped
// with the intended code, the shadowed ones lose, the rest are ingested.
func TestSkillgenAgrees(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := corpus.Write(dir, corpus.Options{Seed: 11, Skills: 200})
	if err != nil {
		t.Fatal(err)
	}
	res, err := gen.Generate(gen.Config{Dir: dir, Out: filepath.Join(t.TempDir(), "skills")})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("generate failed: %v", res.Diagnostics)
	}
	var ingested, shadowed, skipped, workflows []string
	for _, e := range res.Entries {
		if e.Source.Kind.String() == "workflow" {
			workflows = append(workflows, e.Slug)
			continue
		}
		d := path.Dir(e.Source.Path)
		switch e.Status {
		case "ingested":
			ingested = append(ingested, d)
		case "shadowed":
			shadowed = append(shadowed, d)
		case "skipped":
			skipped = append(skipped, d)
		}
	}
	for _, s := range [][]string{ingested, shadowed, skipped, workflows} {
		slices.Sort(s)
	}
	var invalid []string
	for _, inv := range st.Invalid {
		invalid = append(invalid, inv.Dir)
	}
	check := func(what string, got, want []string) {
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", what, got, want)
		}
	}
	check("ingested", ingested, st.Ingested)
	check("shadowed", shadowed, st.Shadowed)
	check("skipped", skipped, invalid)
	check("workflows", workflows, st.Workflows)

	// Each invalid skill draws the code it was written for, at its file.
	for _, inv := range st.Invalid {
		found := false
		for _, d := range res.Diagnostics {
			rel, err := filepath.Rel(dir, d.File)
			if err == nil && strings.HasPrefix(filepath.ToSlash(rel), inv.Dir+"/") && d.Code == inv.Code {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s diagnostic", inv.Dir, inv.Code)
		}
	}
	if want := len(st.Ingested) + len(st.Workflows); res.Summary.Workflows != want {
		t.Errorf("%d workflows in the table, want %d", res.Summary.Workflows, want)
	}

	// Exactly the broken links written are reported, by generate and by
	// validate, each in its skill's file.
	if len(st.BrokenLinks) == 0 {
		t.Fatal("the corpus has no broken link")
	}
	var roots []string
	for _, r := range st.Roots {
		roots = append(roots, filepath.Join(dir, filepath.FromSlash(r)))
	}
	_, vdiags, _ := gen.Validate(roots, false)
	for name, ds := range map[string][]gen.Diagnostic{"generate": res.Diagnostics, "validate": vdiags} {
		var got []corpus.BrokenLink
		for _, d := range ds {
			if d.Code != "link-broken" {
				continue
			}
			rel, _ := filepath.Rel(dir, d.File)
			b := corpus.BrokenLink{Dir: path.Dir(filepath.ToSlash(rel))}
			target, err := strconv.QuotedPrefix(strings.TrimPrefix(d.Message, "link target "))
			if err == nil {
				b.Target, _ = strconv.Unquote(target)
			}
			got = append(got, b)
		}
		var want []corpus.BrokenLink
		for _, b := range st.BrokenLinks {
			want = append(want, corpus.BrokenLink{Dir: b.Dir, Target: b.Target})
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s reports the broken links\n %v\nwant\n %v", name, got, want)
		}
	}
}
