package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillgen/skillgen/internal/corpus"
)

// targets returns the link targets scanLinks finds in body, as written.
func targets(body string) []string {
	var out []string
	for _, l := range scanLinks([]byte(body)) {
		out = append(out, body[l.start:l.end])
	}
	return out
}

// scanLinksCases are the scanner's table cases. Every expectation but the
// one marked was checked against commonmark.js 0.31.2 (links, images and
// reference definitions it parses), as were the scanner's results on
// millions of random documents (outside raw HTML; the only differences were
// tabs, which the spec allows as white space and commonmark.js refuses).
var scanLinksCases = []struct {
	name, body string
	want       []string
}{
	{"inline", "See [the guide](references/guide.md).\n", []string{"references/guide.md"}},
	{"image", "![logo](assets/logo.png)\n", []string{"assets/logo.png"}},
	{"two on a line", "[a](a.md) and [b](b.md)\n", []string{"a.md", "b.md"}},
	{"title double", `[a](a.md "The A")` + "\n", []string{"a.md"}},
	{"title single", `[a](a.md 'The A')` + "\n", []string{"a.md"}},
	{"title parens", `[a](a.md (The A))` + "\n", []string{"a.md"}},
	{"title unclosed", `[a](a.md "The A)` + "\n", nil},
	{"angle", "[x](<path with spaces.md>)\n", []string{"path with spaces.md"}},
	{"angle unclosed", "[x](<path with spaces.md)\n", nil},
	{"angle newline", "[x](<path\nwith.md>)\n", nil},
	{"angle then title", "[x](<a b.md> \"t\")\n", []string{"a b.md"}},
	{"space in raw", "[see](the docs)\n", nil},
	{"empty", "[x]()\n", []string{""}},
	{"spaces around", "[x](  a.md  )\n", []string{"a.md"}},
	{"dest on next line", "[x](\na.md\n)\n", []string{"a.md"}},
	{"balanced parens", "[x](a(1).md)\n", []string{"a(1).md"}},
	{"unbalanced parens", "[x](a(1.md)\n", nil},
	{"escaped paren", `[x](a\(1.md)` + "\n", []string{`a\(1.md`}},
	{"no bracket before", "array](x.md)\n", nil},
	{"space before paren", "[x] (x.md)\n", nil},
	{"escaped opener", `\[x](x.md)` + "\n", nil},
	{"escaped closer", `[x\](x.md)` + "\n", nil},
	{"escaped bang is text", `\![x](x.md)` + "\n", []string{"x.md"}},
	{"nested image in link", "[![b](badge.svg)](doc.md)\n", []string{"badge.svg", "doc.md"}},
	{"links do not nest", "[a [b](b.md) c](c.md)\n", []string{"b.md"}},
	{"link in image alt", "![a [b](b.md) c](c.png)\n", []string{"b.md", "c.png"}},
	{"brackets in text", "[a [b] c](x.md)\n", []string{"x.md"}},
	{"link text over lines", "[a\nb](x.md)\n", []string{"x.md"}},
	{"not over a blank line", "[a\n\nb](x.md)\n", nil},

	{"code span", "Use `[x](x.md)` literally.\n", nil},
	{"double code span", "Use ``[x](`x`.md)`` here.\n", nil},
	{"unmatched backticks", "A ` then [x](x.md)\n", []string{"x.md"}},
	{"code span over lines", "a `b\n[x](x.md) c` d\n", nil},
	{"code span ends paragraph", "a `b\n\n[x](x.md) c` d\n", []string{"x.md"}},
	{"bracket in code span", "[a `]` b](x.md)\n", []string{"x.md"}},
	{"code span in link text", "[`x`](x.md)\n", []string{"x.md"}},
	{"escaped backtick", "\\``[x](x.md)`\n", nil},
	{"escaped backtick outside", "\\`[x](x.md)\n", []string{"x.md"}},
	{"backslash in code", "`a\\`[x](x.md)`\n", []string{"x.md"}},
	{"different lengths", "``a`[x](x.md)``\n", nil},

	{"fence", "```\n[x](x.md)\n```\n[y](y.md)\n", []string{"y.md"}},
	{"fence info", "```markdown\n[x](x.md)\n```\n", nil},
	{"tilde fence", "~~~\n[x](x.md)\n~~~\n", nil},
	{"longer fence", "````\n```\n[x](x.md)\n```\n````\n[y](y.md)\n", []string{"y.md"}},
	{"shorter close", "````\n[x](x.md)\n```\n[z](z.md)\n````\n[y](y.md)\n", []string{"y.md"}},
	{"other char close", "```\n~~~\n[x](x.md)\n```\n", nil},
	{"unclosed fence", "text\n```\n[x](x.md)\n", nil},
	{"close with text", "```\n[x](x.md)\n``` no\n[z](z.md)\n```\n", nil},
	{"backtick info with backtick", "```a`b\n[x](x.md)\n", []string{"x.md"}},
	{"fence in list", "1. Run:\n   ```bash\n   cat [x](x.md)\n   ```\n", nil},
	{"fence list marker", "- ```\n  [x](x.md)\n  ```\n", nil},
	{"fence in quote", "> ```\n> [x](x.md)\n> ```\n", nil},
	{"fence interrupts paragraph", "text\n```\n[x](x.md)\n```\n", nil},

	{"indented code", "    [x](x.md)\n", nil},
	{"indented code after blank", "text\n\n    [x](x.md)\n", nil},
	{"tab indent", "\t[x](x.md)\n", nil},
	{"indented continuation", "text\n    [x](x.md)\n", []string{"x.md"}},
	{"indented code ends", "    code\n[x](x.md)\n", []string{"x.md"}},
	{"indented code blank inside", "    code\n\n    [x](x.md)\n", nil},

	{"ref def", "[guide]: references/guide.md\n", []string{"references/guide.md"}},
	{"ref def title", "[guide]: guide.md \"The guide\"\n", []string{"guide.md"}},
	{"ref def angle", "[g]: <a b.md>\n", []string{"a b.md"}},
	{"ref def text after", "[Note]: see this file\n", nil},
	{"ref def in paragraph", "text\n[g]: g.md\n", nil},
	{"ref defs in a row", "[a]: a.md\n[b]: b.md\n", []string{"a.md", "b.md"}},
	{"footnote", "[^1]: See here.\n", nil},
	{"ref def in list", "- [g]: g.md\n", []string{"g.md"}},
	{"ref def empty label", "[ ]: g.md\n", nil},
	{"ref def no dest", "[g]:\n", nil},
	{"ref def title unclosed", "[g]: g.md \"t\n", nil},
	{"ref def title then text", "[g]: g.md \"t\" x\n", nil},
	{"ref def after heading", "# T\n[g]: g.md\n", []string{"g.md"}},

	{"heading", "# [x](x.md)\n", []string{"x.md"}},
	{"heading ends paragraph", "# a `b\n[x](x.md) c` d\n", []string{"x.md"}},
	{"list items are paragraphs", "- a `b\n- [x](x.md) `c\n", []string{"x.md"}},
	{"quote goes on", "> a `b\n> [x](x.md) c` d\n", nil},
	{"quote after text", "a `b\n> [x](x.md) c` d\n", []string{"x.md"}},
	{"table", "| a | b |\n|---|---|\n| `c` | [x](x.md) |\n", []string{"x.md"}},
	{"table rows are one paragraph", "| a `b |\n| [x](x.md) ` |\n", nil},
	{"rule ends paragraph", "a `b\n---\n[x](x.md) c` d\n", []string{"x.md"}},

	{"list paragraph after blank", "1. Step\n\n    See [x](x.md).\n", []string{"x.md"}},
	{"code in list item", "- item\n\n      [x](x.md)\n", nil},
	{"list item starting with code", "-     [x](x.md)\n", nil},
	{"fence in nested list", "- a\n    - b\n        ```\n        [x](x.md)\n        ```\n", nil},
	{"fence after item text", "- Step:\n    ```\n    [x](x.md)\n    ```\n", nil},
	{"fence ends with its item", "- ```\n  [x](x.md)\n[y](y.md)\n", []string{"y.md"}},
	{"closing fence indented 4", "```\n    ```\n[x](x.md)\n", nil},
	{"empty item then blank", "-\n\n    [x](x.md)\n", nil},
	{"ordered 2 cannot interrupt", "a `b\n2. [x](x.md) c` d\n", nil},
	{"ordered 1 interrupts", "a `b\n1. [x](x.md) c` d\n", []string{"x.md"}},
	{"empty item cannot interrupt", "a\n*\n[x]: x.md\n", nil},
	{"dash after text is an underline", "a\n-\n[x]: x.md\n", []string{"x.md"}},
	{"lazy continuation", "> a `b\n[x](x.md) c` d\n", nil},
	{"quote ends at blank", "> a\n\n    [x](x.md)\n", nil},
	{"nested quote interrupts", "> a `b\n> > [x](x.md) c`\n", []string{"x.md"}},
	{"dest across quoted lines", "> [x](\n> x.md)\n", []string{"x.md"}},
	{"ref def continues indented", "[a]: a.md\n    [b]: b.md\n", []string{"a.md", "b.md"}},
	{"ref def after text is text", "[a]: a.md\nx\n[b]: b.md\n", []string{"a.md"}},
	{"setext underline", "a `b\n===\n[x](x.md) c` d\n", []string{"x.md"}},
	{"lazy line is no underline", "> a `b\n===\n[x](x.md) c`\n", nil},
	{"thematic break", "a `b\n***\n[x](x.md) c`\n", []string{"x.md"}},
	{"html comment block", "<!--\n[x](x.md)\n\n[z](z.md)\n-->\n[y](y.md)\n", []string{"y.md"}},
	{"html comment on one line", "<!-- note -->\n[y](y.md)\n", []string{"y.md"}},
	{"html comment inline", "a <!-- [x](x.md) --> b [y](y.md)\n", []string{"y.md"}},
	{"html comment unclosed inline", "a <!-- [x](x.md)\n", []string{"x.md"}},
	{"pre block", "<pre>\nhandlers[name](event)\n</pre>\n[y](y.md)\n", []string{"y.md"}},
	{"pre block in any case, with attributes", "<PRE class=\"x\">\n[x](x.md)\n</Pre>\n[y](y.md)\n", []string{"y.md"}},
	{"script on one line", "<script>a[x](x.md)</script> [z](z.md)\n[y](y.md)\n", []string{"y.md"}},
	{"style block", "<style\n[x](x.md)\n</style>\n", nil},
	{"textarea unclosed runs to the end", "<textarea>\n[x](x.md)\n\n[z](z.md)\n", nil},
	{"pre interrupts a paragraph", "text [a](a.md)\n<pre>\n[x](x.md)\n</pre>\n", []string{"a.md"}},
	{"pre in a list item", "- <pre>\n  [x](x.md)\n  </pre>\n- [y](y.md)\n", []string{"y.md"}},
	{"pre ends with its quote", "> <pre>\n> [x](x.md)\n\n[y](y.md)\n", []string{"y.md"}},
	{"pre inline is text", "a <pre>[x](x.md)</pre>\n", []string{"x.md"}},
	// A departure from CommonMark: other raw HTML is text to the model.
	{"html block is text", "<details>\n[x](x.md)\n</details>\n", []string{"x.md"}},
	{"not a raw tag: text", "<preamble>\n[x](x.md)\n", []string{"x.md"}},

	{"crlf", "See [a](a.md).\r\n```\r\n[x](x.md)\r\n```\r\n[b](b.md \"t\")\r\n", []string{"a.md", "b.md"}},
	{"crlf ref def", "[a]: a.md\r\n", []string{"a.md"}},
	{"no bracket at all", "just text\n", nil},
	{"url", "[site](https://example.com/a)\n", []string{"https://example.com/a"}},
}

func TestScanLinks(t *testing.T) {
	for _, tc := range scanLinksCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := targets(tc.body); !slices.Equal(got, tc.want) {
				t.Errorf("scanLinks(%q) = %q, want %q", tc.body, got, tc.want)
			}
		})
	}
}

func TestLinkPath(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		skillDir  bool
	}{
		{"references/a.md", "references/a.md", false},
		{"./references/a.md", "references/a.md", false},
		{"references/", "references", false},
		{"a.md#part", "a.md", false},
		{"a.md?x=1#part", "a.md", false},
		{"my%20file.md", "my file.md", false},
		{"bad%zzescape.md", "bad%zzescape.md", false},
		{"%2e%2e/x", "../x", false},
		{"a/../../x", "../x", false},
		{"../x", "../x", false},
		{`a\_b.md`, "a_b.md", false},
		{`a\b.md`, `a\b.md`, false},
		{"a&amp;b.md", "a&b.md", false},
		{"a&copy.md", "a&copy.md", false},
		{"a&#32;b.md", "a b.md", false},
		{"{baseDir}/scripts/x.sh", "scripts/x.sh", true},
		{"${CLAUDE_SKILL_DIR}/scripts/x.sh", "scripts/x.sh", true},
		{"{baseDir}", ".", true},
		{"{baseDir}/../x", "../x", true},
		{"{baseDir}x", "{baseDir}x", false},
		{".", ".", false},
		{"https://example.com", "", false},
		{"http://example.com", "", false},
		{"file:///etc/passwd", "", false},
		{"mailto:a@b.c", "", false},
		{"tel:+123", "", false},
		{"C:/x", "", false},
		{"//host/x", "", false},
		{"/abs/x", "", false},
		{"#anchor", "", false},
		{"?q", "", false},
		{"", "", false},
		{"1a:b", "1a:b", false},
	} {
		p, skillDir, ok := linkPath([]byte(tc.raw))
		if p != tc.want || skillDir != tc.skillDir || ok != (tc.want != "") {
			t.Errorf("linkPath(%q) = %q, %v, %v; want %q, %v, %v", tc.raw, p, skillDir, ok, tc.want, tc.skillDir, tc.want != "")
		}
	}
}

// TestScanLinksAllocs: with a scanner's buffers grown, a body is scanned
// with no allocation at all but the result's.
func TestScanLinksAllocs(t *testing.T) {
	body := []byte(strings.Repeat("Text with `code` and [a link](a.md) and ``more `code` ``.\n\n```\n[x](x.md)\n```\n", 200))
	var s linkScanner
	out := s.scan(body, nil)
	if len(out) != 200 {
		t.Fatalf("%d links, want 200", len(out))
	}
	allocs := testing.AllocsPerRun(20, func() { out = s.scan(body, out[:0]) })
	if allocs != 0 {
		t.Errorf("%v allocations per scan, want 0", allocs)
	}
}

// BenchmarkScanLinks scans the bodies of the SKILL.md files of a corpus
// of realistic shapes (some with link sections, most with code blocks and
// code spans), one scanner reused as in a run. Compare with
// BenchmarkScanLinksFloor, which only finds the bodies' line ends.
func BenchmarkScanLinks(b *testing.B) {
	bodies, size := benchBodies(b)
	var s linkScanner
	var out []link
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			out = s.scan(body, out[:0])
		}
	}
}

// BenchmarkScanLinksFloor is the least any line-based scan of the same
// bodies costs: finding every line end.
func BenchmarkScanLinksFloor(b *testing.B) {
	bodies, size := benchBodies(b)
	b.SetBytes(size)
	n := 0
	for b.Loop() {
		for _, body := range bodies {
			n += bytes.Count(body, []byte{'\n'})
		}
	}
	_ = n
}

// benchBodies returns the bodies of the valid SKILL.md files of a
// 300-skill corpus and their total size.
func benchBodies(b *testing.B) ([][]byte, int64) {
	b.Helper()
	dir := b.TempDir()
	st, err := corpus.Write(dir, corpus.Options{Seed: 1, Skills: 300})
	if err != nil {
		b.Fatal(err)
	}
	var bodies [][]byte
	var size int64
	for _, d := range st.Ingested {
		for _, name := range []string{SkillFile, SkillFileLower} {
			src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d), name))
			if err != nil {
				continue
			}
			if fm, res := splitFrontmatter(src); res == splitOK {
				bodies = append(bodies, src[fm.bodyStart:])
				size += int64(len(src) - fm.bodyStart)
			}
		}
	}
	if len(bodies) == 0 {
		b.Fatal("no bodies")
	}
	return bodies, size
}
