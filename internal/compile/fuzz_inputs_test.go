package compile

// Fuzz targets for the input parsers other than SKILL.md: the
// manifest loader, the in-house Workflow parser and the frontmatter split.
// Seeds are added below and kept in testdata/fuzz/<target>; a plain
// `go test` runs every seed through the same checks. To fuzz:
//
//	go test ./internal/compile -run '^$' -fuzz '^FuzzManifest$' -fuzztime 60s
//
// Also here, because they need the package's internals: the test that a
// file swapped after the walk never supplies bytes.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skillgen/skillgen/internal/casetest"
)

// inputCodes are the codes the manifest and Workflow parsers may report.
var inputCodes = []string{
	CodeReadFailed, CodeFileTooLarge, CodeEncodingInvalid, CodeFrontmatterMissing, CodeFrontmatterUnclosed,
	CodeYAMLInvalid, CodeFieldType, CodeDescriptionMissing, CodeDescriptionTooLong, CodeUnknownField,
	CodeManifestMissing, CodeManifestInvalid, CodeSlugInvalid,
}

// fuzzPositions fails unless every diagnostic is about file, has a known
// severity and code, and points inside src (or is about the whole file).
func fuzzPositions(t *testing.T, file string, src []byte, ds []Diagnostic) {
	t.Helper()
	lines := bytes.Split(src, []byte{'\n'})
	for _, d := range ds {
		switch {
		case d.File != file:
			t.Errorf("%s: about another file than %s", d, file)
		case d.Severity != Error && d.Severity != Warning && d.Severity != Info:
			t.Errorf("%s: unknown severity %d", d, d.Severity)
		case !slices.Contains(inputCodes, d.Code):
			t.Errorf("%s: unexpected code", d)
		case d.Line == 0 && d.Col == 0:
		case d.Line < 1 || d.Line > len(lines) || d.Col < 1 || d.Col > len(lines[d.Line-1])+1:
			t.Errorf("%s: position outside the file (%d lines)", d, len(lines))
		}
	}
}

// slowInput crashes the fuzzing process if one input takes over 5 s, so
// that the fuzzer records it (it has no timeout of its own); call the
// result when the input is done.
func slowInput(src []byte) (done func()) {
	tm := time.AfterFunc(5*time.Second, func() {
		panic(fmt.Sprintf("one input took over 5s (%d bytes): %q", len(src), src[:min(len(src), 200)]))
	})
	return func() { tm.Stop() }
}

var manifestSeeds = []string{
	"",
	"[skills]\ndirectories = [\"~/skills\", \".claude/skills\", \".cursor/skills\"]\n",
	"[skills]\ndirectories = []\n",
	"[scope]\nread = [\"a\"]\n\n[skills]\ndirectories = ['lit', \"\"\"multi\nline\"\"\"]\nrecursive = true\n",
	"skills.directories = [\"a\", \"a\", \"b\"]\n",
	"skills = { directories = [\"x\"] }\n",
	"[skills]\ndirectories = \"x\"\n",
	"[skills]\ndirectories = [1, 2]\n",
	"skills = 5\n",
	"[skills]\ndirectories = [\"a\",\n",
	"[skills]\ndirectories = []\ndirectories = []\n",
	"[skills]\ndirectories = [\"~\", \"~/\", \"~user/x\", \"/abs\", \"../up\"]\n",
	"[skills.extra]\nx = 1\n[skills]\ndirectories = [\"a\"]\n",
	"[skills]\r\ndirectories = [\"crlf\"]\r\n",
	"\ufeff[skills]\ndirectories = [\"bom\"]\n",
	"[skills]\ndirectories = [\"a\xff\"]\n",
	"[skills]\ndirectories = [\"a\"]\n\x00\n",
	"a = " + strings.Repeat("[", 120) + strings.Repeat("]", 120) + "\n",
	"a = " + strings.Repeat("{b=", 120) + "1" + strings.Repeat("}", 120) + "\n",
	strings.Repeat("a.", 120) + "b = 1\n",
	"x = \"[[[[\\\"{{{{\"\ny = '''a.b.c'''\n# [[[[ {{{{\n[skills]\ndirectories = [\"d\"] # c\n",
	"[[skills]]\ndirectories = [\"a\"]\n",
}

// FuzzManifest feeds arbitrary bytes to the manifest loader as a manifest
// file. It must never panic or take long; every diagnostic must be about
// the file, with a stable code and a position inside it; every root must be
// absolute and clean, positioned inside the file; a second load gives the
// same result.
func FuzzManifest(f *testing.F) {
	for _, s := range manifestSeeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 64<<10 {
			return // the decoder's speed on huge inputs is not the point here
		}
		defer slowInput(src)()
		file := filepath.Join(dir, "manifest.toml")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		ds := &diags{file: file}
		roots := loadManifest(file, "/home/u", ds)
		fuzzPositions(t, file, src, ds.list)
		lines := bytes.Split(src, []byte{'\n'})
		for _, r := range roots {
			if !filepath.IsAbs(r.Dir) || filepath.Clean(r.Dir) != r.Dir {
				t.Errorf("root %q is not absolute and clean", r.Dir)
			}
			if r.Manifest != file {
				t.Errorf("root %q names manifest %q", r.Dir, r.Manifest)
			}
			if r.Line != 0 && (r.Line > len(lines) || r.Col < 1 || r.Col > len(lines[r.Line-1])+1) {
				t.Errorf("root %q at %d:%d, outside the file", r.Dir, r.Line, r.Col)
			}
		}
		again := &diags{file: file}
		roots2 := loadManifest(file, "/home/u", again)
		if !reflect.DeepEqual(roots, roots2) || !reflect.DeepEqual(ds.list, again.list) {
			t.Errorf("a second load differs")
		}
	})
}

var workflowSeeds = []struct{ slug, src string }{
	{"deploy", "---\ndescription: Deploy the service.\nmodel_invokation: true\nrequires: [runbook, on-call]\ncreated_at: 2024-01-02\nupdated_at: 2024-01-02T03:04:05Z\n---\nRun `make deploy`.\n"},
	{"triage", "---\ndescription: Label issues.\nuser_invocable: false\n---\n"},
	{"bad_slug", "---\ndescription: x\n---\n"},
	{"x", "---\ndescription: \"\"\n---\n"},
	{"x", "---\nmodel_invokation: yes\nuser_invocable: 1\nrequires: runbook\n---\n"},
	{"x", "---\ndescription: [a]\nrequires: [Bad_Slug, {a: b}]\ncreated_at: yesterday\nextra: 1\n---\n"},
	{"x", "---\r\ndescription: crlf\r\n---\r\nbody\r\n"},
	{"x", "\ufeff---\ndescription: bom\n---\n"},
	{"x", "no frontmatter\n"},
	{"x", "---\ndescription: unclosed\n"},
	{"x", "---\na: &a [x, x, x]\nb: [*a, *a, *a]\ndescription: alias\n---\n"},
	{"x", "---\ndescription: " + strings.Repeat("é", 1025) + "\nmodel_invokation: true\n---\n"},
	{"x", "---\n- list\n---\n"},
	{"x", "---\ndescription: a\ndescription: b\n---\n"},
	{"x", "---\ndescription: \"unclosed\n---\n"},
	{"x", "---\ndescription: x\x01\n---\n"},
	{"x", "---\ndescription: \xff\n---\n"},
}

// FuzzWorkflow feeds arbitrary slugs and bytes to the in-house Workflow
// parser. It must never panic; every diagnostic must point inside the file;
// a Workflow comes back exactly when there is no error, and then it obeys
// README.md: its slug and requires are valid slugs, its description is
// non-empty and trimmed (at most 1024 runes when model-invocable), and its
// body is the file's tail after the frontmatter, byte for byte.
func FuzzWorkflow(f *testing.F) {
	for _, s := range workflowSeeds {
		f.Add(s.slug, []byte(s.src))
	}
	f.Fuzz(func(t *testing.T, slug string, src []byte) {
		defer slowInput(src)()
		orig := bytes.Clone(src)
		w, ds := ParseWorkflow("wf.md", slug, src)
		if !bytes.Equal(src, orig) {
			t.Fatalf("ParseWorkflow modified its input")
		}
		fuzzPositions(t, "wf.md", src, ds)
		if (w == nil) != HasErrors(ds) {
			t.Fatalf("workflow %v with diagnostics %v", w, ds)
		}
		if w == nil {
			return
		}
		if slugProblem(w.Slug) != "" || w.Slug != slug {
			t.Errorf("accepted slug %q (file slug %q)", w.Slug, slug)
		}
		if w.Description == "" || strings.TrimSpace(w.Description) != w.Description {
			t.Errorf("accepted description %q", w.Description)
		}
		if w.ModelInvocation && utf8.RuneCountInString(w.Description) > MaxDescriptionLen {
			t.Errorf("accepted a model-invocable description of %d runes", utf8.RuneCountInString(w.Description))
		}
		if w.Requires == nil {
			t.Errorf("Requires is nil, want []")
		}
		for _, r := range w.Requires {
			if slugProblem(r) != "" {
				t.Errorf("accepted required slug %q", r)
			}
		}
		if !strings.HasSuffix(string(src), w.Body) {
			t.Errorf("body %q is not the file's tail", w.Body)
		}
		fm, res := splitFrontmatter(src)
		if res != splitOK || w.Body != string(src[fm.bodyStart:]) {
			t.Errorf("body %q is not what follows the frontmatter", w.Body)
		}
		w2, ds2 := ParseWorkflow("wf.md", slug, src)
		if !reflect.DeepEqual(w, w2) || !reflect.DeepEqual(ds, ds2) {
			t.Errorf("a second parse differs")
		}
	})
}

var splitSeeds = []string{
	"", "---", "---\n", "---\n---", "---\n---\n", "---\r\n---\r\nbody", "---  \t\r\n---\t\nbody",
	"\ufeff---\nname: x\n---\nbody\n", "\ufeff\ufeff---\n---\n", " ---\n---\n", "--- x\n---\n",
	"---\nname: x\n----\n--- \n", "---\na: b --- c\n---\nbody --- \n---\n", "---\n\n\n", "\n---\n---\n",
	"---\r---\r", "---\n-- -\n---", "----\n---\n", "---\nx\n---\r\r\n", "---\x00\n---\n",
}

// FuzzSplitFrontmatter checks the line-based split against a second,
// deliberately plain implementation of the documented rule: the first line
// (after an optional BOM) must be "---", the frontmatter ends at the next
// line that is exactly "---", trailing spaces, tabs and a CR tolerated.
func FuzzSplitFrontmatter(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer slowInput(src)()
		fm, res := splitFrontmatter(src)
		wantYAML, wantBody, wantRes := referenceSplit(src)
		if res != wantRes {
			t.Fatalf("result %d, want %d", res, wantRes)
		}
		if res != splitOK {
			return
		}
		if !bytes.Equal(fm.yaml, wantYAML) || fm.bodyStart != wantBody || fm.yamlLine != 2 {
			t.Fatalf("yaml %q body at %d (line %d), want yaml %q body at %d", fm.yaml, fm.bodyStart, fm.yamlLine, wantYAML, wantBody)
		}
		// The pieces are the file: BOM, opening fence line, yaml, closing
		// fence line, body; the yaml holds no fence line.
		for _, l := range strings.SplitAfter(string(fm.yaml), "\n") {
			if refFence(l) {
				t.Fatalf("the frontmatter %q holds a fence line", fm.yaml)
			}
		}
	})
}

// referenceSplit is the split rule written out line by line.
func referenceSplit(src []byte) (yaml []byte, bodyStart int, res splitResult) {
	off := 0
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		off = 3
	}
	lines := strings.SplitAfter(string(src[off:]), "\n")
	if !refFence(lines[0]) {
		return nil, 0, splitMissing
	}
	start := off + len(lines[0])
	pos := start
	for _, l := range lines[1:] {
		if refFence(l) {
			return src[start:pos], pos + len(l), splitOK
		}
		pos += len(l)
	}
	return nil, 0, splitUnclosed
}

func refFence(line string) bool {
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimRight(line, " \t\r") == "---"
}

// TestHostileSwappedAfterWalk shows that bytes come only from the file the
// walk checked: a skill file swapped afterwards — for a symlink out of the
// skill, or for another file of the same size — makes hashing and copying
// fail instead of reading it. (A run can race with someone editing the
// skill; it must never embed what the walk refused.)
func TestHostileSwappedAfterWalk(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(dir, "skill")
	outside := filepath.Join(dir, "outside")
	for name, data := range map[string]string{
		"skill/a.txt": "inside-0001\n", "skill/b.txt": "inside-0002\n", "skill/c.txt": "inside-0003\n",
		"skill/other": "inside-9999\n", "outside": "SECRET-0001\n",
	} {
		casetest.WriteFile(t, dir, name, data)
	}
	if err := os.Symlink("c.txt", filepath.Join(skill, "link")); err != nil {
		t.Fatal(err)
	}
	ds := &diags{}
	files := walkSkill(skill, skill, nil, false, true, ds)
	byPath := map[string]*File{}
	for i := range files {
		byPath[files[i].Path] = &files[i]
	}
	if len(ds.list) != 0 || len(files) != 5 {
		t.Fatalf("walk: %v, diagnostics %v", files, ds.list)
	}
	// Untouched: hashing works.
	if err := hashFile(byPath["b.txt"], nil); err != nil {
		t.Fatalf("hashing an untouched file: %v", err)
	}
	// a.txt becomes a symlink out of the skill; c.txt (the target of
	// "link") is replaced by another file of the same size.
	if err := os.Remove(filepath.Join(skill, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(skill, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(skill, "other"), filepath.Join(skill, "c.txt")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a.txt", "c.txt", "link"} {
		f := byPath[p]
		if err := hashFile(f, nil); err == nil {
			t.Errorf("%s: hashed after it was swapped (sha256 %x)", p, f.SHA256)
		}
		if r, err := f.Open(); err == nil {
			r.Close()
			t.Errorf("%s: opened for copying after it was swapped", p)
		}
	}
}
