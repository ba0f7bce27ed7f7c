package compile

import (
	"slices"
	"strings"
	"testing"
)

// TestSplitFrontmatter pins the line-based split (README.md, "Rules and codes"): the first line
// is exactly "---" after an optional BOM, the next line that is exactly "---"
// closes it, trailing spaces/tabs/CR on either fence are tolerated, and
// nothing else ever splits.
func TestSplitFrontmatter(t *testing.T) {
	const bom = "\xEF\xBB\xBF"
	tests := []struct {
		name string
		src  string
		res  splitResult
		yaml string // the frontmatter text, when res is splitOK
		body string // src[bodyStart:], when res is splitOK
	}{
		{"plain", "---\nname: a\n---\n# Body\n", splitOK, "name: a\n", "# Body\n"},
		{"empty frontmatter", "---\n---\nbody", splitOK, "", "body"},
		{"closing fence at EOF without newline", "---\na: 1\n---", splitOK, "a: 1\n", ""},
		{"closing fence then nothing", "---\na: 1\n---\n", splitOK, "a: 1\n", ""},
		{"only fences, no newline", "---\n---", splitOK, "", ""},
		{"CRLF", "---\r\na: 1\r\n---\r\n# B\r\n\r\nx\r\n", splitOK, "a: 1\r\n", "# B\r\n\r\nx\r\n"},
		{"CR on the fences only", "---\r\na: 1\n---\r\nbody\n", splitOK, "a: 1\n", "body\n"},
		{"BOM", bom + "---\na: 1\n---\nbody\n", splitOK, "a: 1\n", "body\n"},
		{"BOM and CRLF", bom + "---\r\na: 1\r\n---\r\nbody\r\n", splitOK, "a: 1\r\n", "body\r\n"},
		{"trailing spaces and tabs on fences", "--- \t \na: 1\n---\t\t  \r\nbody\n", splitOK, "a: 1\n", "body\n"},
		{"dashes inside lines never close", "---\na: x --- y\n ---\n--- z\n----\n-- -\n---\nbody\n", splitOK,
			"a: x --- y\n ---\n--- z\n----\n-- -\n", "body\n"},
		{"only the first closing fence counts", "---\na: 1\n---\nbody\n---\nb: 2\n---\nmore\n", splitOK,
			"a: 1\n", "body\n---\nb: 2\n---\nmore\n"},
		{"body of blank lines", "---\na: 1\n---\n\n\n", splitOK, "a: 1\n", "\n\n"},

		{"empty file", "", splitMissing, "", ""},
		{"BOM only", bom, splitMissing, "", ""},
		{"two BOMs", bom + bom + "---\na: 1\n---\n", splitMissing, "", ""},
		{"no fence", "# Title\n---\na: 1\n---\n", splitMissing, "", ""},
		{"blank line first", "\n---\na: 1\n---\n", splitMissing, "", ""},
		{"indented fence", " ---\na: 1\n---\n", splitMissing, "", ""},
		{"text after the fence", "--- a: 1\n---\n", splitMissing, "", ""},
		{"four dashes", "----\na: 1\n---\n", splitMissing, "", ""},
		{"two dashes", "--\na: 1\n--\n", splitMissing, "", ""},
		{"CR-only line ends are one line", "---\ra: 1\r---\r", splitMissing, "", ""},
		{"BOM after the fence", "---" + bom + "\na: 1\n---\n", splitMissing, "", ""},

		{"fence only", "---", splitUnclosed, "", ""},
		{"fence and newline", "---\n", splitUnclosed, "", ""},
		{"never closed", "---\na: 1\nb: 2\n", splitUnclosed, "", ""},
		{"closed only by lookalikes", "---\na: 1\n ---\n--- x\n----\n" + bom + "---\n", splitUnclosed, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			fm, res := splitFrontmatter(src)
			if res != tt.res {
				t.Fatalf("result = %d, want %d", res, tt.res)
			}
			if res != splitOK {
				return
			}
			if got := string(fm.yaml); got != tt.yaml {
				t.Errorf("yaml = %q, want %q", got, tt.yaml)
			}
			if fm.yamlLine != 2 {
				t.Errorf("yamlLine = %d, want 2", fm.yamlLine)
			}
			// yaml is the file's own bytes at yamlStart.
			if got := tt.src[fm.yamlStart : fm.yamlStart+len(fm.yaml)]; got != tt.yaml {
				t.Errorf("src[yamlStart:] = %q, want %q", got, tt.yaml)
			}
			if fm.bodyStart < 0 || fm.bodyStart > len(src) {
				t.Fatalf("bodyStart = %d, outside [0,%d]", fm.bodyStart, len(src))
			}
			if got := tt.src[fm.bodyStart:]; got != tt.body {
				t.Errorf("body = %q, want %q", got, tt.body)
			}
		})
	}
}

func TestPosition(t *testing.T) {
	tests := []struct {
		src       string
		off       int
		line, col int
	}{
		{"", 0, 1, 1},
		{"abc", 0, 1, 1},
		{"abc", 2, 1, 3},
		{"abc", 3, 1, 4}, // end of file: one past the last byte
		{"ab\ncd", 2, 1, 3},
		{"ab\ncd", 3, 2, 1},
		{"ab\ncd", 4, 2, 2},
		{"ab\n", 3, 2, 1},
		{"\n\n\nx", 3, 4, 1},
		{"é\nab", 2, 1, 3},           // é is 2 bytes: the newline is at byte column 3
		{"日本x", 6, 1, 7},             // columns count bytes
		{"a\r\nb", 1, 1, 2},          // CR is an ordinary byte of the line
		{"a\r\nb", 3, 2, 1},          //
		{"ab\ncd", 99, 2, 3},         // clamped to the end
		{"\xEF\xBB\xBF---", 3, 1, 4}, // a BOM is 3 bytes of line 1
	}
	for _, tt := range tests {
		line, col := position([]byte(tt.src), tt.off)
		if line != tt.line || col != tt.col {
			t.Errorf("position(%q, %d) = %d:%d, want %d:%d", tt.src, tt.off, line, col, tt.line, tt.col)
		}
	}
}

// TestYAMLOffset converts yaml.v3's positions (1-based line and rune
// column, lines broken the YAML way) into byte offsets of the frontmatter.
func TestYAMLOffset(t *testing.T) {
	b := "name: x\ndescription: 日本語 x\n\ta: b\r\nnel: a\u0085ls: b\u2028ps: c\u2029cr: d\re: f"
	tests := []struct {
		line, col int
		at        string // b[offset:] starts with this
	}{
		{1, 1, "name: x\n"},
		{1, 7, "x\n"},
		{1, 8, "\ndescription"},  // end of line
		{1, 99, "\ndescription"}, // clamped to the end of the line
		{2, 1, "description"},
		{2, 14, "日本語"},
		{2, 15, "本語"}, // one rune on is three bytes on
		{2, 16, "語 x"},
		{2, 17, " x\n"},
		{2, 18, "x\n"},
		{3, 1, "\ta: b"},
		{3, 2, "a: b"}, // a tab is one column
		{3, 5, "b\r\n"},
		{3, 6, "\r\n"}, // CR is no column: it breaks the line
		{3, 9, "\r\n"},
		{4, 1, "nel: a"}, // CRLF is one break
		{4, 6, "a\u0085"},
		{5, 1, "ls: b"}, // NEL breaks a YAML line
		{6, 1, "ps: c"}, // so does LS
		{7, 1, "cr: d"}, // and PS
		{8, 1, "e: f"},  // and a lone CR
		{8, 4, "f"},
		{9, 1, ""}, // beyond the text: its end
		{1, 0, "name"},
	}
	for _, tt := range tests {
		off := yamlOffset([]byte(b), tt.line, tt.col)
		if off < 0 || off > len(b) || !strings.HasPrefix(b[off:], tt.at) || (tt.at == "" && off != len(b)) {
			t.Errorf("yamlOffset(%d, %d) = %d (%q...), want the offset of %q", tt.line, tt.col, off, b[off:min(off+8, len(b))], tt.at)
		}
	}
}

func TestFirstInvalidUTF8(t *testing.T) {
	tests := []struct {
		src string
		off int
	}{
		{"", -1},
		{"plain", -1},
		{"日本語 é 🎉", -1},
		{"\xEF\xBB\xBF---", -1},
		{"\xff", 0},
		{"ab\xffcd", 2},
		{"é\xff", 2},
		{"a\xe3\x81\n", 1},       // truncated 3-byte sequence: its first byte
		{"a\xed\xa0\x80", 1},     // encoded surrogate
		{"a\xc0\xaf", 1},         // overlong
		{"a\xf4\x90\x80\x80", 1}, // beyond U+10FFFF
		{"ok\x80", 2},            // lone continuation byte
	}
	for _, tt := range tests {
		if got := firstInvalidUTF8([]byte(tt.src)); got != tt.off {
			t.Errorf("firstInvalidUTF8(%q) = %d, want %d", tt.src, got, tt.off)
		}
	}
}

// TestSlugProblem pins the name rules at their boundaries.
func TestSlugProblem(t *testing.T) {
	const (
		chars  = "only lowercase letters a-z, digits 0-9 and hyphens are allowed"
		edge   = "it must not start or end with a hyphen"
		double = "it must not contain two hyphens in a row"
		long   = "it is longer than 64 characters"
	)
	tests := []struct {
		name, problem string
	}{
		{"a", ""},
		{"z", ""},
		{"0", ""},
		{"9", ""},
		{"pdf-processing", ""},
		{"a-b-c-1-2-3", ""},
		{"2024-report", ""},
		{strings.Repeat("a", 64), ""},
		{strings.Repeat("a", 63) + "1", ""},
		{strings.Repeat("a-", 31) + "ab", ""}, // 64 characters with hyphens
		{"", "it is empty"},
		{strings.Repeat("a", 65), long},
		{strings.Repeat("é", 65), long},
		{strings.Repeat("é", 32), chars}, // 64 bytes, 32 runes: the characters are wrong, not the length
		{"A", chars},
		{"pdfProcessing", chars},
		{"pdf_processing", chars},
		{"pdf processing", chars},
		{"pdf.processing", chars},
		{"pdf/processing", chars},
		{"café", chars},
		{"ｐｄｆ", chars}, // full-width letters
		{"pdf\n", chars},
		{"-", edge},
		{"-pdf", edge},
		{"pdf-", edge},
		{"-pdf-", edge},
		{"pdf--processing", double},
		{"a---b", double},
	}
	for _, tt := range tests {
		if got := slugProblem(tt.name); got != tt.problem {
			t.Errorf("slugProblem(%q) = %q, want %q", tt.name, got, tt.problem)
		}
	}
}

// TestPosIndex checks the fast position index against the plain
// conversion, position(yamlOffset(...)), at every line and column of
// frontmatters with every kind of YAML line break, multi-byte text and a
// BOM, including positions past the ends of lines and of the text.
func TestPosIndex(t *testing.T) {
	srcs := []string{
		"---\n---\n",
		"---\na: 1\n---\n",
		"\xEF\xBB\xBF---\r\nname: x\r\n\r\ndescription: 日本語\r\n---\r\nbody",
		"---\nname: a\u0085description: b\u2028license: [x]\u2029z: 1\rq: é\n\n---\n",
		"---\n" + strings.Repeat("é", 200) + "\n" + strings.Repeat("ab\u2028", 70) + "\r\r\n\n---\n",
		"---  \n" + strings.Repeat("x", 63) + "\r\n" + strings.Repeat("y", 64) + "\r\nz\n---",
	}
	for _, src := range srcs {
		fm, res := splitFrontmatter([]byte(src))
		if res != splitOK {
			t.Fatalf("%q: no frontmatter", src)
		}
		x := newPosIndex([]byte(src), fm)
		if len(x.lineRune) != len(x.lineLen) {
			t.Fatalf("%q: %d line starts, %d line lengths", src, len(x.lineRune), len(x.lineLen))
		}
		for line := 0; line <= len(x.lineRune)+2; line++ {
			for col := 0; col <= slices.Max(x.lineLen)+3; col++ {
				wl, wc := position([]byte(src), fm.yamlStart+yamlOffset(fm.yaml, line, col))
				if gl, gc := x.pos(line, col); gl != wl || gc != wc {
					t.Fatalf("%q: pos(%d, %d) = %d:%d, want %d:%d", src, line, col, gl, gc, wl, wc)
				}
			}
		}
	}
}
