package compile

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// skillMDDiagSummary prints diagnostics as "severity code line:col", one per
// element, in the order ParseSkillMD returns them after sorting.
func skillMDDiagSummary(ds []Diagnostic) []string {
	ds = append([]Diagnostic(nil), ds...)
	SortDiagnostics(ds)
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %d:%d", d.Severity, d.Code, d.Line, d.Col))
	}
	return out
}

// TestParseSkillMDMeta checks the values a SKILL.md yields (README.md, "Rules and codes"; the
// SKILL → Workflow mapping): description trimmed, metadata as literal text
// sorted by key, allowed-tools joined by spaces, and BodyStart such that
// src[BodyStart:] is the body byte for byte.
func TestParseSkillMDMeta(t *testing.T) {
	const bom = "\xEF\xBB\xBF"
	tests := []struct {
		name  string
		dir   string
		src   string
		meta  SkillMeta
		body  string   // src[meta.BodyStart:]
		early bool     // checking stopped before the fields: BodyStart is 0
		diags []string // skillMDDiagSummary
	}{
		{
			name: "minimal",
			dir:  "pdf",
			src:  "---\nname: pdf\ndescription: Extract text.\n---\n# PDF\n\nUse it.\n",
			meta: SkillMeta{Name: "pdf", Description: "Extract text."},
			body: "# PDF\n\nUse it.\n",
		},
		{
			name: "no body",
			dir:  "pdf",
			src:  "---\nname: pdf\ndescription: d\n---",
			meta: SkillMeta{Name: "pdf", Description: "d"},
			body: "",
		},
		{
			name: "body keeps leading blank lines and later fences",
			dir:  "pdf",
			src:  "---\nname: pdf\ndescription: d\n---\n\n\n---\nname: x\n---\n",
			meta: SkillMeta{Name: "pdf", Description: "d"},
			body: "\n\n---\nname: x\n---\n",
		},
		{
			name: "CRLF: values without CR, body byte for byte",
			dir:  "pdf",
			src:  "---\r\nname: pdf\r\ndescription: Extract text.\r\nlicense: MIT\r\n---\r\n# PDF\r\n\r\nx\r\n",
			meta: SkillMeta{Name: "pdf", Description: "Extract text.", License: "MIT"},
			body: "# PDF\r\n\r\nx\r\n",
		},
		{
			name: "BOM and CRLF",
			dir:  "pdf",
			src:  bom + "---\r\nname: pdf\r\ndescription: d\r\n---  \r\nbody\r\n",
			meta: SkillMeta{Name: "pdf", Description: "d"},
			body: "body\r\n",
		},
		{
			name: "description trimmed (quoted)",
			dir:  "a",
			src:  "---\nname: a\ndescription: \"  \\tpadded text \\n \"\n---\n",
			meta: SkillMeta{Name: "a", Description: "padded text"},
		},
		{
			name: "folded description: lines joined, final newline trimmed",
			dir:  "a",
			src:  "---\nname: a\ndescription: >\n  Line one\n  line two.\n\n  Para two.\n---\n",
			meta: SkillMeta{Name: "a", Description: "Line one line two.\nPara two."},
		},
		{
			name: "literal strip description keeps inner newlines",
			dir:  "a",
			src:  "---\nname: a\ndescription: |-\n  First: line.\n    indented\n  last\n---\n",
			meta: SkillMeta{Name: "a", Description: "First: line.\n  indented\nlast"},
		},
		{
			name: "scalars are literal text",
			dir:  "a",
			src:  "---\nname: a\ndescription: yes\nlicense: 1.10\ncompatibility: 0x1F\n---\n",
			meta: SkillMeta{Name: "a", Description: "yes", License: "1.10", Compatibility: "0x1F"},
		},
		{
			name: "metadata: literal text, sorted by key",
			dir:  "a",
			src: "---\nname: a\ndescription: d\nmetadata:\n  version: 1.0\n  author: me\n  count: 010\n" +
				"  float: 1.10\n  enabled: yes\n  quoted: \"1.0\"\n  empty: \"\"\n  b: 'it''s'\n---\n",
			meta: SkillMeta{Name: "a", Description: "d", Metadata: []Meta{
				{"author", "me"}, {"b", "it's"}, {"count", "010"}, {"empty", ""}, {"enabled", "yes"},
				{"float", "1.10"}, {"quoted", "1.0"}, {"version", "1.0"},
			}},
		},
		{
			name: "metadata: nested values dropped, scalars kept",
			dir:  "a",
			src:  "---\nname: a\ndescription: d\nmetadata:\n  z: last\n  nested:\n    k: v\n  list: [1, 2]\n  a: first\n---\n",
			meta: SkillMeta{Name: "a", Description: "d", Metadata: []Meta{{"a", "first"}, {"z", "last"}}},
			diags: []string{
				"warning metadata-invalid 7:5",
				"warning metadata-invalid 8:9",
			},
		},
		{
			name:  "metadata as a list is dropped",
			dir:   "a",
			src:   "---\nname: a\ndescription: d\nmetadata: [x]\n---\n",
			meta:  SkillMeta{Name: "a", Description: "d"},
			diags: []string{"warning metadata-invalid 4:11"},
		},
		{
			name:  "allowed-tools string",
			dir:   "a",
			src:   "---\nname: a\ndescription: d\nallowed-tools: Bash(git:*) Read\n---\n",
			meta:  SkillMeta{Name: "a", Description: "d", AllowedTools: "Bash(git:*) Read"},
			diags: []string{"warning allowed-tools-ignored 4:1"},
		},
		{
			name:  "allowed-tools block list joined by a space",
			dir:   "a",
			src:   "---\nname: a\ndescription: d\nallowed-tools:\n  - Bash\n  - Read\n---\n",
			meta:  SkillMeta{Name: "a", Description: "d", AllowedTools: "Bash Read"},
			diags: []string{"warning allowed-tools-ignored 4:1"},
		},
		{
			name:  "allowed-tools flow list",
			dir:   "a",
			src:   "---\nname: a\ndescription: d\nallowed-tools: [Read, Grep, Glob]\n---\n",
			meta:  SkillMeta{Name: "a", Description: "d", AllowedTools: "Read Grep Glob"},
			diags: []string{"warning allowed-tools-ignored 4:1"},
		},
		{
			name:  "allowed-tools mapping dropped",
			dir:   "a",
			src:   "---\nname: a\ndescription: d\nallowed-tools: {Bash: yes}\n---\n",
			meta:  SkillMeta{Name: "a", Description: "d"},
			diags: []string{"warning allowed-tools-ignored 4:1"},
		},
		{
			name: "aliases are resolved",
			dir:  "a",
			src:  "---\nname: &n a\ndescription: *n\nmetadata: {id: *n}\n---\n",
			meta: SkillMeta{Name: "a", Description: "a", Metadata: []Meta{{"id", "a"}}},
		},
		{
			name: "an invalid name is kept; BodyStart still set",
			dir:  "pdf",
			src:  "---\nname: PDF\ndescription: d\n---\nbody\n",
			meta: SkillMeta{Name: "PDF", Description: "d"},
			body: "body\n",
			diags: []string{
				"error name-invalid 2:7",
				"error name-mismatch 2:7",
			},
		},
		{
			name:  "too long description is still returned trimmed",
			dir:   "a",
			src:   "---\nname: a\ndescription: \" " + strings.Repeat("é", 1025) + " \"\n---\n",
			meta:  SkillMeta{Name: "a", Description: strings.Repeat("é", 1025)},
			diags: []string{"error description-too-long 3:14"},
		},
		{
			name:  "LS and NEL break YAML lines; positions stay on file lines, in bytes",
			dir:   "a",
			src:   "---\nname: a\u2028description: d\u0085version: 1\n---\nbody",
			meta:  SkillMeta{Name: "a", Description: "d"},
			body:  "body",
			diags: []string{"warning unknown-field 2:27"},
		},
		{
			name:  "a YAML error on a line that starts after LS",
			dir:   "a",
			src:   "---\nname: a\u2028description: [x\n---\n",
			early: true,
			diags: []string{"error yaml-invalid 2:11"},
		},
		{
			name:  "frontmatter missing: nothing else",
			dir:   "a",
			src:   "# a\n",
			early: true,
			diags: []string{"error frontmatter-missing 1:1"},
		},
		{
			name:  "yaml invalid: nothing else, no BodyStart",
			dir:   "a",
			src:   "---\nname: [a\n---\nbody\n",
			early: true,
			diags: []string{"error yaml-invalid 2:1"},
		},
		{
			name: "independent errors all reported",
			dir:  "a",
			src: "---\nname: B_\ndescription: \"\"\nlicense: {x: 1}\ncompatibility: " + strings.Repeat("c", 501) +
				"\nmetadata: 3\nallowed-tools: x\nextra: 1\n---\n",
			meta: SkillMeta{Name: "B_", Compatibility: strings.Repeat("c", 501), AllowedTools: "x"},
			body: "",
			diags: []string{
				"error name-invalid 2:7",
				"error name-mismatch 2:7",
				"error description-missing 3:14",
				"error field-type 4:10",
				"error compatibility-too-long 5:16",
				"warning metadata-invalid 6:11",
				"warning allowed-tools-ignored 7:1",
				"warning unknown-field 8:1",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meta, ds := ParseSkillMD("SKILL.md", tt.dir, []byte(tt.src))
			want := tt.meta
			if !tt.early {
				want.BodyStart = len(tt.src) - len(tt.body)
				if meta.BodyStart < 0 || meta.BodyStart > len(tt.src) {
					t.Fatalf("BodyStart = %d, outside [0,%d]", meta.BodyStart, len(tt.src))
				}
				if got := tt.src[meta.BodyStart:]; got != tt.body {
					t.Errorf("body = %q, want %q", got, tt.body)
				}
			}
			if !reflect.DeepEqual(meta, want) {
				t.Errorf("meta =\n%+v\nwant\n%+v", meta, want)
			}
			if got, want := skillMDDiagSummary(ds), tt.diags; !reflect.DeepEqual(got, want) {
				t.Errorf("diagnostics =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, d := range ds {
				if d.File != "SKILL.md" || d.Skill != tt.dir {
					t.Errorf("diagnostic %v: file %q skill %q, want SKILL.md and %q", d, d.File, d.Skill, tt.dir)
				}
			}
		})
	}
}

// TestParseSkillMDAliasBomb: frontmatters whose aliases would expand to
// 2^64 nodes (doubling) or 10^8 nodes (wide) are rejected as yaml-invalid at
// the root without being expanded. The test finishing at all is the point: an
// expanding check would never end.
func TestParseSkillMDAliasBomb(t *testing.T) {
	var deep strings.Builder
	deep.WriteString("---\nname: bomb\ndescription: d\nl0: &l0 [x, x]\n")
	for i := 1; i <= 64; i++ {
		fmt.Fprintf(&deep, "l%d: &l%d [*l%d, *l%d]\n", i, i, i-1, i-1)
	}
	deep.WriteString("---\n")

	var wide strings.Builder
	wide.WriteString("---\nname: bomb\ndescription: d\nbase: &b [")
	wide.WriteString(strings.Repeat("x, ", 9999) + "x]\nrefs: [")
	wide.WriteString(strings.Repeat("*b, ", 9999) + "*b]\n---\n")

	// Many aliases of a tiny anchor stay below the bound: fine.
	var fine strings.Builder
	fine.WriteString("---\nname: bomb\ndescription: &d d\nmetadata:\n")
	for i := range 1000 {
		fmt.Fprintf(&fine, "  k%d: *d\n", i)
	}
	fine.WriteString("---\n")

	for _, tc := range []struct {
		name, src string
		diags     []string
	}{
		{"doubling", deep.String(), []string{"error yaml-invalid 2:1"}},
		{"wide", wide.String(), []string{"error yaml-invalid 2:1"}},
		{"many small aliases", fine.String(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := ParseSkillMD("SKILL.md", "bomb", []byte(tc.src))
			if got := skillMDDiagSummary(ds); !reflect.DeepEqual(got, tc.diags) {
				t.Fatalf("diagnostics = %v, want %v", got, tc.diags)
			}
			if len(ds) > 0 && !strings.Contains(ds[0].Message, "aliases expand to more than") {
				t.Errorf("message = %q, want the alias bound", ds[0].Message)
			}
		})
	}
}
