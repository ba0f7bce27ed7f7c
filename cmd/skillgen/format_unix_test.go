//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/skillgen/skillgen/internal/casetest"
)

// githubWorkspace has file names that need escaping in workflow commands:
// a skills root named "r%1,2:3<LF>4" whose skill x is shadowed (the
// message quotes the path as it is), a skill directory "a%b,c:d" and one
// named "x<LF>y". It is written by hand: txtar has no names with a newline.
func githubWorkspace(t *testing.T) string {
	t.Helper()
	ws := filepath.Join(tempDir(t), "ws")
	files := map[string]string{
		".insomnia/manifest.toml": "[skills]\ndirectories = [\"skills\", \"r%1,2:3\\n4\"]\n",
		"skills/x/SKILL.md":       "---\nname: x\ndescription: X.\n---\n",
		"r%1,2:3\n4/x/SKILL.md":   "---\nname: x\ndescription: X, again.\n---\n",
		"skills/ok/SKILL.md":      "---\nname: ok\ndescription: OK.\nextra: 1\n---\n",
		"skills/ok/.hidden":       "",
		"skills/a%b,c:d/SKILL.md": "---\nname: wrong\ndescription: D.\n---\n",
		"skills/x\ny/SKILL.md":    "---\nname: x\ndescription: D.\n---\n",
		"not-skills/README.md":    "no skill here\n",
	}
	for name, data := range files {
		casetest.WriteFile(t, ws, name, data)
	}
	return ws
}

// TestValidateGitHub: validate -format github, golden. Errors, warnings
// and infos become ::error, ::warning and ::notice; file names are escaped
// as properties (% , : LF) and quoted in messages as data (%); line and
// col are left out when 0; the summary stays on stderr.
func TestValidateGitHub(t *testing.T) {
	ws := githubWorkspace(t)
	r := skillgen(t, ws, nil, "validate", "-format", "github", "skills", "not-skills")
	wantCode(t, r, 1)
	wantLines(t, "stdout", r.stdoutLines(), []string{
		`::error file=not-skills,title=skill-md-missing::no skill found: neither a SKILL.md nor a directory of skill directories`,
		`::error file=skills/a%25b%2Cc%3Ad/SKILL.md,line=2,col=7,title=name-mismatch::name "wrong" does not match the directory name "a%25b,c:d"`,
		`::notice file=skills/ok/.hidden,title=file-skipped::hidden file ".hidden" is left out (-hidden includes it)`,
		`::warning file=skills/ok/SKILL.md,line=4,col=1,title=unknown-field::unknown field "extra" is ignored`,
		`::error file=skills/x%0Ay/SKILL.md,line=2,col=7,title=name-mismatch::name "x" does not match the directory name "x\ny"`,
	})
	wantLines(t, "stderr", r.stderrLines(), []string{"skillgen: 4 skills checked, 2 valid, 2 invalid"})
}

// TestGenerateGitHub: generate -format github, golden, run from the
// repository's root with -C: the files are relative to where skillgen
// started, as GitHub needs them. The shadowed warning's message holds a
// path with %, ',', ':' and a line feed.
func TestGenerateGitHub(t *testing.T) {
	ws := githubWorkspace(t)
	if err := os.RemoveAll(filepath.Join(ws, "skills", "a%b,c:d")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(ws, "skills", "x\ny")); err != nil {
		t.Fatal(err)
	}
	r := skillgen(t, filepath.Dir(ws), nil, "generate", "-format", "github", "-C", "ws", "-out", "out", "-pkg", "skills")
	wantCode(t, r, 0)
	wantLines(t, "stdout", r.stdoutLines(), []string{
		`::warning file=ws/r%251%2C2%3A3%0A4/x/SKILL.md,title=shadowed::skill /x from skill (r%251,2:3%0A4/x/SKILL.md) was shadowed by existing skill (skills/x/SKILL.md)`,
		`::notice file=ws/skills/ok/.hidden,title=file-skipped::hidden file ".hidden" is left out (-hidden includes it)`,
		`::warning file=ws/skills/ok/SKILL.md,line=4,col=1,title=unknown-field::unknown field "extra" is ignored`,
	})
	summary := regexp.MustCompile(`^skillgen: 2 workflows, 2 skills, 1 shadowed, 0 skipped, 2 files, \d+ bytes, .*; \d+ written, 0 removed in out$`)
	if got := r.stderrLines(); len(got) != 1 || !summary.MatchString(got[0]) {
		t.Errorf("stderr is not the one-line summary:\n%s", r)
	}
}
