package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/gen"
)

// TestGitHubCommand: the workflow command of one diagnostic, escaped as
// GitHub's runner unescapes it (data: % CR LF; properties also : and ,),
// the file relative to where skillgen started (not -C's directory), and
// what is not known left out.
func TestGitHubCommand(t *testing.T) {
	start := filepath.FromSlash("/repo")
	for _, tc := range []struct {
		name       string
		wd         string // -C's directory
		sev        gen.Severity
		file       string
		line, col  int
		title, msg string
		want       string
	}{
		{"everything escaped", start, gen.Error, filepath.FromSlash("/repo/a%b,c:d\ne\rf/SKILL.md"), 3, 5, "co:de,x%", "50% done: a, b\nnext\r",
			"::error file=a%25b%2Cc%3Ad%0Ae%0Df/SKILL.md,line=3,col=5,title=co%3Ade%2Cx%25::50%25 done: a, b%0Anext%0D"},
		{"relative to -C's directory", filepath.FromSlash("/repo/sub"), gen.Warning, "x/SKILL.md", 1, 0, "t", "m",
			"::warning file=sub/x/SKILL.md,line=1,title=t::m"},
		{"outside the start directory", start, gen.Warning, filepath.FromSlash("/elsewhere/SKILL.md"), 0, 0, "t", "m",
			"::warning file=/elsewhere/SKILL.md,title=t::m"},
		{"no file, line or title", start, gen.Info, "", 0, 0, "", "just: this, 100%",
			"::notice::just: this, 100%25"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			c := &cli{stdout: &out, wd: tc.wd, startDir: start}
			c.githubCommand(tc.sev, tc.file, tc.line, tc.col, tc.title, tc.msg)
			if got := out.String(); got != tc.want+"\n" {
				t.Errorf("got  %q\nwant %q", got, tc.want+"\n")
			}
		})
	}
}

// TestFormatJSONIsJSON: -format json is -json, byte for byte, and
// -format text is the default, for every command that has -format.
func TestFormatJSONIsJSON(t *testing.T) {
	ws := newWorkspace(t)
	// Written once, so that each generate below writes nothing: the same
	// summary.
	wantCode(t, skillgen(t, ws, nil, "generate", "-out", "out1", "-pkg", "skills"), 0)
	for _, args := range [][]string{
		{"validate", "shared", ".claude/skills"},
		{"generate", "-out", "out1", "-pkg", "skills"},
		{"check", "-out", "out1", "-pkg", "skills"},
	} {
		same := func(a, b []string) {
			t.Helper()
			ra := skillgen(t, ws, nil, append(slices.Clone(args), a...)...)
			rb := skillgen(t, ws, nil, append(slices.Clone(args), b...)...)
			if ra.String() != rb.String() {
				t.Errorf("%q %q and %q differ:\n%s\n%s", args, a, b, ra, rb)
			}
		}
		same([]string{"-format", "json"}, []string{"-json"})
		same([]string{"-format", "json", "-json"}, []string{"-json"})
		same([]string{"-format", "text"}, nil)
	}
}

// TestCheckGitHub: every file check finds stale is one ::error with title
// stale, on the file, relative to where skillgen started; leftovers are
// warnings; the verdict stays on stderr, as in text (relative to -C's
// directory).
func TestCheckGitHub(t *testing.T) {
	ws := newWorkspace(t)
	parent := filepath.Dir(ws)
	args := []string{"-C", "my-agent", "-out", "out", "-pkg", "skills"}
	wantCode(t, skillgen(t, parent, nil, append([]string{"generate"}, args...)...), 0)
	appendFile(t, filepath.Join(ws, ".claude/skills/alpha/SKILL.md"), "More.\n")

	text := skillgen(t, parent, nil, append([]string{"check"}, args...)...)
	wantCode(t, text, 1)
	gh := skillgen(t, parent, nil, append([]string{"check", "-format", "github"}, args...)...)
	wantCode(t, gh, 1)

	// Text: "path: kind" per change (relative to -C's directory), and
	// "path: warning: …" per leftover, among the diagnostics.
	kinds := map[string]string{"differs": "differs from what skillgen generates", "missing": "is missing", "extra": "is not part of the generated package"}
	var want []string
	changes := 0
	changeLine := regexp.MustCompile(`^(out/\S+): (differs|missing|extra)$`)
	leftoverLine := regexp.MustCompile(`^(out/\S+): warning: (leftover of an interrupted run; the next generate removes it)$`)
	for _, l := range text.stderrLines() {
		if m := changeLine.FindStringSubmatch(l); m != nil {
			changes++
			p := "my-agent/" + m[1]
			want = append(want, "::error file="+p+",title=stale::"+p+" "+kinds[m[2]]+"; run go generate")
		}
		if m := leftoverLine.FindStringSubmatch(l); m != nil {
			want = append(want, "::warning file=my-agent/"+m[1]+",title=leftover::"+m[2])
		}
	}
	if changes < 2 {
		t.Fatalf("the edit made %d change(s); the test needs more:\n%s", len(want), text)
	}
	var got []string
	for _, l := range gh.stdoutLines() {
		if strings.Contains(l, "title=stale::") || strings.Contains(l, "title=leftover::") {
			got = append(got, l)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	wantLines(t, "stale and leftover commands", got, want)
	if !strings.Contains(gh.stdout, "::warning file=my-agent/shared/alpha/SKILL.md,title=shadowed::") {
		t.Errorf("no shadowed warning among the commands:\n%s", gh)
	}
	stale := "; out is stale: " + strconv.Itoa(changes) + " file(s) differ, are missing or are extra; run go generate"
	if lines := gh.stderrLines(); len(lines) != 1 || !strings.HasPrefix(lines[0], "skillgen: ") || !strings.Contains(lines[0], ", catalog ") || !strings.HasSuffix(lines[0], stale) {
		t.Errorf("stderr:\n%s\nwant one line: the summary, then %q", gh.stderr, stale)
	}
}
