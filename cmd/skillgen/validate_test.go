package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// skills is a root of skill directories: a valid skill (with a warning), an
// invalid one, a hidden one (skipped) and a directory that holds no skill.
const skills = `
-- skills/good/SKILL.md --
---
name: good
description: A good skill.
allowed-tools: Bash Read
---
Body.
-- skills/bad/SKILL.md --
---
name: Bad_Name
description: ""
extra: 1
---
-- skills/.hidden/SKILL.md --
not even frontmatter
-- skills/notaskill/README.md --
Not a skill.
-- lower/skill.md --
---
name: lower
description: Lower-case file name.
---
`

// The diagnostics of the skills, as printed from the directory holding
// skills/. Positions worked out by hand: in bad's SKILL.md line 2 is
// "name: Bad_Name" (value at column 7), line 3 `description: ""` (value
// at column 14), line 4 "extra: 1"; in good's, line 4 is "allowed-tools".
var (
	goodDiags = []string{
		"skills/good/SKILL.md:4:1: warning: allowed-tools is kept as data but not enforced [allowed-tools-ignored]",
	}
	badDiags = []string{
		`skills/bad/SKILL.md:2:7: error: name "Bad_Name" is invalid: only lowercase letters a-z, digits 0-9 and hyphens are allowed [name-invalid]`,
		`skills/bad/SKILL.md:2:7: error: name "Bad_Name" does not match the directory name "bad" [name-mismatch]`,
		"skills/bad/SKILL.md:3:14: error: description is empty [description-missing]",
		`skills/bad/SKILL.md:4:1: warning: unknown field "extra" is ignored [unknown-field]`,
	}
	lowerDiags = []string{
		`lower/skill.md:0:0: warning: the skill file is named "skill.md"; the spec names it "SKILL.md" [skill-md-lowercase]`,
	}
)

func newSkills(t *testing.T) string {
	t.Helper()
	dir := tempDir(t)
	writeTree(t, dir, skills)
	return dir
}

// concat joins line lists.
func concat(ls ...[]string) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l...)
	}
	return out
}

func checked(n, valid int) string {
	skills := fmt.Sprintf("%d skills", n)
	if n == 1 {
		skills = "1 skill"
	}
	return fmt.Sprintf("skillgen: %s checked, %d valid, %d invalid", skills, valid, n-valid)
}

func TestValidate(t *testing.T) {
	dir := newSkills(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // stderr
	}{
		{"valid skill dir", []string{"skills/good"}, 0, concat(goodDiags, []string{checked(1, 1)})},
		{"valid lower-case skill.md", []string{"lower"}, 0, concat(lowerDiags, []string{checked(1, 1)})},
		{"invalid skill dir", []string{"skills/bad"}, 1, concat(badDiags, []string{checked(1, 0)})},
		{"SKILL.md file", []string{"skills/bad/SKILL.md"}, 1, concat(badDiags, []string{checked(1, 0)})},
		{"skill.md file", []string{"lower/skill.md"}, 0, concat(lowerDiags, []string{checked(1, 1)})},
		{"unclean paths", []string{"./skills//bad/", "skills/../skills/good/SKILL.md"}, 1, concat(badDiags, goodDiags, []string{checked(2, 1)})},
		// Dot-directories and directories without a SKILL.md are not skills.
		{"root of skills", []string{"skills"}, 1, concat(badDiags, goodDiags, []string{checked(2, 1)})},
		{"several paths", []string{"lower", "skills/good", "skills/bad/SKILL.md"}, 1, concat(lowerDiags, badDiags, goodDiags, []string{checked(3, 2)})},
		{"several valid paths", []string{"skills/good", "lower/skill.md"}, 0, concat(lowerDiags, goodDiags, []string{checked(2, 2)})},
		{"no skill at PATH", []string{"skills/notaskill"}, 1, []string{
			"skills/notaskill:0:0: error: no skill found: neither a SKILL.md nor a directory of skill directories [skill-md-missing]",
			checked(0, 0),
		}},
		{"no skill at one of the PATHs", []string{"skills/good", "skills/notaskill"}, 1, concat(goodDiags, []string{
			"skills/notaskill:0:0: error: no skill found: neither a SKILL.md nor a directory of skill directories [skill-md-missing]",
			checked(1, 1),
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := skillgen(t, dir, nil, append([]string{"validate"}, tc.args...)...)
			wantCode(t, r, tc.code)
			wantLines(t, "stderr", r.stderrLines(), tc.want)
			if r.stdout != "" {
				t.Errorf("stdout is not empty:\n%s", r)
			}
		})
	}
}

func TestValidatePaths(t *testing.T) {
	dir := newSkills(t)
	// Absolute PATHs below the working directory print relative.
	r := skillgen(t, dir, nil, "validate", filepath.Join(dir, "skills", "bad"))
	wantCode(t, r, 1)
	wantLines(t, "absolute PATH below the working directory", r.stderrLines(), concat(badDiags, []string{checked(1, 0)}))

	// Run from inside the tree: relative to that directory.
	r = skillgen(t, filepath.Join(dir, "skills"), nil, "validate", "../skills/bad")
	wantCode(t, r, 1)
	var want []string
	for _, l := range badDiags {
		want = append(want, strings.TrimPrefix(l, "skills/"))
	}
	wantLines(t, "relative to a subdirectory", r.stderrLines(), concat(want, []string{checked(1, 0)}))

	// Anything not below the working directory prints absolute, however
	// it was given.
	elsewhere := tempDir(t)
	abs := filepath.ToSlash(dir) + "/"
	want = nil
	for _, l := range badDiags {
		want = append(want, abs+l)
	}
	want = append(want, checked(1, 0))
	rel, err := filepath.Rel(elsewhere, filepath.Join(dir, "skills", "bad"))
	if err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{filepath.Join(dir, "skills", "bad"), rel} {
		r = skillgen(t, elsewhere, nil, "validate", arg)
		wantCode(t, r, 1)
		wantLines(t, "PATH "+arg+" outside the working directory", r.stderrLines(), want)
	}
	// -json too.
	r = skillgen(t, elsewhere, nil, "validate", "-json", rel)
	wantCode(t, r, 1)
	for _, m := range jsonLines(t, r.stdout) {
		if d := parseDiag(t, m); !strings.HasPrefix(d.File, abs) {
			t.Errorf("file %q is not absolute", d.File)
		}
	}
}

func TestValidateUsage(t *testing.T) {
	dir := newSkills(t)
	const synopsis = "  skillgen validate   [-json|-format f] PATH...   PATH: a skill directory, a SKILL.md, or a root of skill dirs"
	for _, tc := range []struct {
		name  string
		args  []string
		first string // the first line of stderr
	}{
		{"no PATH", nil, "skillgen: validate needs at least one PATH"},
		{"no PATH with -json", []string{"-json"}, "skillgen: validate needs at least one PATH"},
		{"PATH does not exist", []string{"nope"}, "skillgen: validate: nope: no such file or directory"},
		{"one PATH does not exist", []string{"skills/good", "skills/bad", "skills/gone/SKILL.md"}, "skillgen: validate: skills/gone/SKILL.md: no such file or directory"},
		{"unknown flag", []string{"-strict", "skills"}, "skillgen: flag provided but not defined: -strict"},
		{"unknown flag after PATH", []string{"skills/good", "-strict"}, "skillgen: flag provided but not defined: -strict"},
		{"flag-like PATH after --", []string{"skills/good", "--", "-json"}, "skillgen: validate: -json: no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := skillgen(t, dir, nil, append([]string{"validate"}, tc.args...)...)
			wantCode(t, r, 2)
			// A short usage: the message, the command's line, a pointer to -h.
			wantLines(t, "stderr", r.stderrLines(), []string{
				tc.first, "", "usage:", synopsis, "run 'skillgen -h' for every command and flag",
			})
			if r.stdout != "" {
				t.Errorf("stdout is not empty:\n%s", r)
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	dir := newSkills(t)
	args := []string{"skills", "lower/skill.md", "skills/notaskill"}
	text := skillgen(t, dir, nil, append([]string{"validate"}, args...)...)
	wantCode(t, text, 1)
	r := skillgen(t, dir, nil, append([]string{"validate", "-json"}, args...)...)
	wantCode(t, r, 1)

	var got []string
	for _, m := range jsonLines(t, r.stdout) {
		d := parseDiag(t, m)
		got = append(got, d.text())
		// skill is the directory name; a PATH with no skill has none.
		want := filepath.Base(filepath.Dir(d.File))
		if d.Code == "skill-md-missing" {
			want = ""
		}
		if d.Skill != want {
			t.Errorf("skill %q, want %q: %+v", d.Skill, want, d)
		}
	}
	// The same diagnostics as the text output, in the same order.
	wantLines(t, "-json diagnostics", got, concat(lowerDiags, badDiags, goodDiags, []string{
		"skills/notaskill:0:0: error: no skill found: neither a SKILL.md nor a directory of skill directories [skill-md-missing]",
	}))
	textLines := text.stderrLines()
	wantLines(t, "-json diagnostics vs text", got, textLines[:len(textLines)-1])
	// stderr holds the summary only.
	wantLines(t, "stderr", r.stderrLines(), []string{checked(3, 2)})

	// A valid skill: exit 0, warnings on stdout.
	r = skillgen(t, dir, nil, "validate", "-json", "skills/good")
	wantCode(t, r, 0)
	if objs := jsonLines(t, r.stdout); len(objs) != 1 || parseDiag(t, objs[0]).Code != "allowed-tools-ignored" {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

func TestValidateDeterministic(t *testing.T) {
	// Enough skills, valid and not, for parallel loading to finish in any
	// order; the output must not show it.
	dir := tempDir(t)
	var b strings.Builder
	problems := []string{
		"name: %s\ndescription: fine\n",
		"name: %s\ndescription: \"\"\nzzz: 1\n",
		"name: %s-x\ndescription: mismatch\nallowed-tools: Bash\n",
		"name: %s\ndescription: [a list]\nmetadata: [1]\n",
		"name: %s\ndescription: fine\ncompatibility: " + strings.Repeat("c", 501) + "\n",
	}
	for i := range 60 {
		name := fmt.Sprintf("s%02d", (i*37)%60)
		fmt.Fprintf(&b, "-- root/%s/SKILL.md --\n---\n"+problems[i%len(problems)]+"---\nBody.\n", name, name)
	}
	writeTree(t, dir, b.String())
	first := skillgen(t, dir, nil, "validate", "root")
	wantCode(t, first, 1)
	if got := first.stderrLines(); got[len(got)-1] != checked(60, 12) {
		t.Errorf("summary: %q", got[len(got)-1])
	}
	firstJSON := skillgen(t, dir, nil, "validate", "-json", "root")
	for range 2 {
		if again := skillgen(t, dir, nil, "validate", "root"); again != first {
			t.Fatalf("two runs differ:\n%s\n----\n%s", first, again)
		}
		if again := skillgen(t, dir, nil, "validate", "-json", "root"); again != firstJSON {
			t.Fatalf("two -json runs differ:\n%s\n----\n%s", firstJSON, again)
		}
	}
	// Sorted by file, then position.
	var keys []string
	for _, m := range jsonLines(t, firstJSON.stdout) {
		d := parseDiag(t, m)
		keys = append(keys, fmt.Sprintf("%s %05d %05d", d.File, d.Line, d.Col))
	}
	if !slices.IsSorted(keys) {
		t.Errorf("diagnostics are not sorted by file and position:\n%s", strings.Join(keys, "\n"))
	}
}

// TestValidateFlagsAfterPaths: flags may follow the PATHs; after "--"
// every argument is a PATH, even one that looks like a flag.
func TestValidateFlagsAfterPaths(t *testing.T) {
	dir := newSkills(t)
	r := skillgen(t, dir, nil, "validate", "skills/good", "-json")
	wantCode(t, r, 0)
	if objs := jsonLines(t, r.stdout); len(objs) != 1 || parseDiag(t, objs[0]).Code != "allowed-tools-ignored" {
		t.Errorf("validate PATH -json: stdout:\n%s", r.stdout)
	}
	r = skillgen(t, dir, nil, "validate", "skills/good", "-json", "skills/bad")
	wantCode(t, r, 1)
	if n := len(jsonLines(t, r.stdout)); n != len(goodDiags)+len(badDiags) {
		t.Errorf("validate PATH -json PATH: %d JSON lines, want %d:\n%s", n, len(goodDiags)+len(badDiags), r.stdout)
	}
	// "-json" after "--" is a PATH, and it does not exist: a usage error.
	r = skillgen(t, dir, nil, "validate", "skills/good", "--", "-json")
	wantCode(t, r, 2)
	if !strings.Contains(r.stderr, "-json: no such file or directory") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}
