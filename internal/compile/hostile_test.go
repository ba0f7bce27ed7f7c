//go:build unix

package compile_test

// Hostile inputs to the parsers: YAML and TOML written to exhaust time or
// memory. Each test says which behaviour it shows; each assertion would fail
// without that behaviour. The end-to-end hostile cases (special files,
// symlinks, sizes, names) run through gen and live there.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillgen/skillgen/internal/casetest"

	"github.com/skillgen/skillgen/internal/compile"
)

// inFile fails unless every positioned diagnostic points into src: its
// line exists and its column is at most one past the line's end.
func inFile(t *testing.T, src []byte, ds []compile.Diagnostic) {
	t.Helper()
	lines := bytes.Split(src, []byte{'\n'})
	for _, d := range ds {
		if d.Line == 0 && d.Col == 0 {
			continue
		}
		if d.Line < 1 || d.Line > len(lines) || d.Col < 1 || d.Col > len(lines[d.Line-1])+1 {
			t.Errorf("%s: position outside the file (%d lines)", trimDiag(d), len(lines))
		}
	}
}

// trimDiag shortens a diagnostic whose message quotes a huge input.
func trimDiag(d compile.Diagnostic) string {
	s := d.String()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// billionLaughs is the classic: 9 levels of 9 aliases each, 9^9 strings
// once expanded.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for c := 'b'; c <= 'i'; c++ {
		fmt.Fprintf(&b, "%c: &%c [%s*%c]\n", c, c, strings.Repeat("*"+string(c-1)+",", 8), c-1)
	}
	return b.String()
}

// TestHostileYAML shows that hostile frontmatter ends quickly (well under
// a second) with a clear outcome at a position inside the file: alias
// expansion is bounded (billion laughs), deep nesting of flow and block
// collections, and huge scalars.
func TestHostileYAML(t *testing.T) {
	const head = "name: x\ndescription: Hostile.\n"
	var blockMaps strings.Builder // the deepest block mappings that fit in 1 MiB
	blockMaps.WriteString("x:\n")
	for i := 1; i <= 1400; i++ {
		blockMaps.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	var blockMapsHuge strings.Builder // 10,000 levels: 50 MB
	for i := range 10000 {
		blockMapsHuge.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	cases := []struct {
		name, fm string
		code     string // "" means the skill must be valid
		line     int    // of the first diagnostic with code; 0: not checked
		msg      string
	}{
		{"billion-laughs", head + billionLaughs(), compile.CodeYAMLInvalid, 2, "aliases expand to more than 10000 nodes"},
		{"laughs-in-a-field", head + "metadata:\n  k: &k [" + strings.Repeat("k,", 200) + "k]\n  l: [" + strings.Repeat("*k,", 200) + "*k]\n",
			compile.CodeYAMLInvalid, 2, "aliases expand"},
		{"flow-seq-10000", head + "x: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n", compile.CodeYAMLInvalid, 2, "more than 10000 nodes"},
		{"flow-map-10000", head + "x: " + strings.Repeat("{a: ", 10000) + "1" + strings.Repeat("}", 10000) + "\n", compile.CodeYAMLInvalid, 2, "more than 10000 nodes"},
		{"flow-unclosed-10000", head + "x: " + strings.Repeat("[", 10000) + "\n", compile.CodeYAMLInvalid, 0, ""},
		{"flow-mixed-10000", head + "x: " + strings.Repeat("[{a: ", 5000) + "1" + strings.Repeat("}]", 5000) + "\n", compile.CodeYAMLInvalid, 2, "more than 10000 nodes"},
		{"block-seq-10000", head + "x:\n" + strings.Repeat("- ", 10000) + "1\n", compile.CodeYAMLInvalid, 2, "more than 10000 nodes"},
		{"block-map-1400", head + blockMaps.String(), compile.CodeUnknownField, 4, `unknown field "x"`},
		{"block-map-10000", head + blockMapsHuge.String(), compile.CodeFileTooLarge, 0, "at most 1048576"},
		{"huge-description", "name: x\ndescription: " + strings.Repeat("d", 1<<20-64) + "\n", compile.CodeDescriptionTooLong, 3, "characters long"},
		{"huge-metadata-value", head + "metadata:\n  k: " + strings.Repeat("v", 1<<20-64) + "\n", "", 0, ""},
		{"huge-key", head + strings.Repeat("k", 1<<20-64) + ": v\n", compile.CodeYAMLInvalid, 0, ""},
		{"huge-quoted-key", head + "\"" + strings.Repeat("k", 1<<20-64) + "\": v\n", compile.CodeYAMLInvalid, 0, ""},
		{"wide-aliases", head + "a: &a x\nb: [" + strings.Repeat("*a,", 20000) + "*a]\n", compile.CodeYAMLInvalid, 2, "aliases expand"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte("---\n" + c.fm + "---\nbody\n")
			for _, parser := range []string{"skill", "workflow"} {
				var ds []compile.Diagnostic
				start := time.Now()
				if parser == "skill" {
					_, ds = compile.ParseSkillMD("x/SKILL.md", "x", src)
				} else {
					_, ds = compile.ParseWorkflow("x.md", "x", src)
				}
				if d := time.Since(start); d > time.Second {
					t.Errorf("%s: took %v; hostile frontmatter must end well under a second", parser, d)
				}
				inFile(t, src, ds)
				if parser == "workflow" && c.code != compile.CodeYAMLInvalid && c.code != compile.CodeFileTooLarge {
					continue // the workflow rules differ from here on
				}
				if c.code == "" {
					if compile.HasErrors(ds) {
						t.Errorf("%s: errors on a valid input: %v", parser, ds)
					}
					continue
				}
				var found *compile.Diagnostic
				for i := range ds {
					if ds[i].Code == c.code {
						found = &ds[i]
						break
					}
				}
				switch {
				case found == nil:
					t.Errorf("%s: no %s diagnostic; got %d: %v", parser, c.code, len(ds), ds)
				case c.line != 0 && found.Line != c.line:
					t.Errorf("%s: %s: want line %d", parser, trimDiag(*found), c.line)
				case !strings.Contains(found.Message, c.msg):
					t.Errorf("%s: %s: want a message with %q", parser, trimDiag(*found), c.msg)
				}
			}
		})
	}
}

// TestHostileManifest shows that a broken manifest gives a positioned
// manifest-invalid error (syntax errors, wrong types, nesting deep enough
// to stall the TOML decoder) or a positioned warning (unknown keys in
// [skills]), quickly, and that a manifest that is a named pipe is refused
// without being opened. Positions were worked out by hand from the inputs.
func TestHostileManifest(t *testing.T) {
	huge := strings.Repeat("d", 1<<20)
	cases := []struct {
		name, src string
		sev       compile.Severity
		code      string
		line, col int // col 0: any column on the line
		msg       string
	}{
		{"syntax-eof", "[skills]\ndirectories = [\"a\",\n", compile.Error, compile.CodeManifestInvalid, 2, 0, "invalid manifest"},
		{"syntax-unterminated", "[skills]\ndirectories = [\"abc\n", compile.Error, compile.CodeManifestInvalid, 2, 0, "invalid manifest"},
		{"syntax-garbage", "[skills]\ndirectories = [\"a\"]\n!!!\n", compile.Error, compile.CodeManifestInvalid, 3, 1, "invalid manifest"},
		{"duplicate-key", "[skills]\ndirectories = []\ndirectories = []\n", compile.Error, compile.CodeManifestInvalid, 3, 1, "already been defined"},
		{"directories-string", "[skills]\ndirectories = \"x\"\n", compile.Error, compile.CodeManifestInvalid, 2, 1, "directories"},
		{"directories-ints", "[skills]\ndirectories = [1, 2]\n", compile.Error, compile.CodeManifestInvalid, 2, 1, "directories"},
		{"directories-table", "[skills.directories]\na = 1\n", compile.Error, compile.CodeManifestInvalid, 0, 0, "invalid manifest"},
		{"skills-int", "skills = 5\n", compile.Error, compile.CodeManifestInvalid, 1, 1, "skills"},
		{"unknown-key", "[scope]\nfoo = 1\n[skills]\ndirectories = []\nfoo = 2\n", compile.Warning, compile.CodeUnknownField, 5, 1, `"skills.foo"`},
		{"unknown-dotted", "skills.directories = []\nskills.bar = 1\n", compile.Warning, compile.CodeUnknownField, 2, 1, `"skills.bar"`},
		{"unknown-table", "[skills]\ndirectories = []\n\n  [skills.extra]\n  x = 1\n", compile.Warning, compile.CodeUnknownField, 4, 3, `"skills.extra"`},
		{"nested-arrays-10000", "[skills]\ndirectories = " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n",
			compile.Error, compile.CodeManifestInvalid, 2, len("directories = ") + 101, "nest more than 100 deep"},
		{"nested-tables-10000", "[scope]\nx = " + strings.Repeat("{a=", 10000) + "1" + strings.Repeat("}", 10000) + "\n",
			compile.Error, compile.CodeManifestInvalid, 2, len("x = ") + 1 + 3*100, "nest more than 100 deep"},
		{"dotted-key-10000", "[scope]\n" + strings.Repeat("a.", 10000) + "b = 1\n",
			compile.Error, compile.CodeManifestInvalid, 2, 200, "more than 100 parts"},
		{"table-header-10000", "[" + strings.Repeat("a.", 10000) + "b]\n",
			compile.Error, compile.CodeManifestInvalid, 1, 1 + 200, "more than 100 parts"},
		{"brackets-in-strings", "[scope]\nx = \"" + strings.Repeat("[{", 10000) + "\"\ny = '''" + strings.Repeat("a.", 10000) + "'''\n[skills]\ndirectories = [\"nope\"]\n",
			compile.Warning, compile.CodeSkillsDirMissing, 5, 16, `"nope"`},
		{"huge-string", "[skills]\ndirectories = [\"" + huge + "\"]\n", compile.Warning, compile.CodeSkillsDirMissing, 2, 16, "skills directory"},
		{"nul-byte", "[skills]\ndirectories = [\"a\"]\n\x00\n", compile.Error, compile.CodeManifestInvalid, 3, 1, "control characters"},
		{"invalid-utf8", "[skills]\ndirectories = [\"a\xff\"]\n", compile.Error, compile.CodeManifestInvalid, 2, 17, "UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "manifest.toml")
			if err := os.WriteFile(file, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var ds []compile.Diagnostic
			start := time.Now()
			casetest.Finishes(t, 20*time.Second, "Compile", func() {
				_, ds = compile.Compile(compile.Config{Dir: dir, Manifests: []string{file}, Workspace: dir})
			})
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v; a hostile manifest must be refused well under a second", d)
			}
			inFile(t, []byte(c.src), ds)
			for _, d := range ds {
				if d.Code == c.code && d.File == file && d.Severity == c.sev &&
					(c.line == 0 || d.Line == c.line) && (c.col == 0 || d.Col == c.col) && strings.Contains(d.Message, c.msg) {
					if c.line == 0 && d.Line == 0 {
						t.Logf("no position: %s", trimDiag(d))
					}
					return
				}
			}
			var got []string
			for _, d := range ds {
				got = append(got, trimDiag(d))
			}
			t.Errorf("want %v %s at %d:%d with %q; got:\n  %s", c.sev, c.code, c.line, c.col, c.msg, strings.Join(got, "\n  "))
		})
	}
	t.Run("named-pipe", func(t *testing.T) {
		// Found by walking up from the working directory, as generate does.
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".insomnia"), 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, ".insomnia", "manifest.toml")
		if err := syscall.Mkfifo(file, 0o644); err != nil {
			t.Fatal(err)
		}
		opened := casetest.FifoWatch(t, file)
		var ds []compile.Diagnostic
		casetest.Finishes(t, 20*time.Second, "Compile", func() { _, ds = compile.Compile(compile.Config{Dir: dir}) })
		if opened() {
			t.Errorf("the manifest pipe was opened")
		}
		if len(ds) != 1 || ds[0].Code != compile.CodeReadFailed || !strings.Contains(ds[0].Message, "named pipe") {
			t.Errorf("got %v, want one read-failed error about a named pipe", ds)
		}
	})
}
