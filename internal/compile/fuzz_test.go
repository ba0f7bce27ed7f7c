package compile

import (
	"bytes"
	"encoding/hex"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"
)

// skillMDCodes are the codes ParseSkillMD may report (README.md, "Rules and codes").
var skillMDCodes = []string{
	CodeFileTooLarge, CodeEncodingInvalid, CodeFrontmatterMissing, CodeFrontmatterUnclosed,
	CodeYAMLInvalid, CodeFieldType, CodeNameMissing, CodeNameInvalid, CodeNameMismatch,
	CodeDescriptionMissing, CodeDescriptionTooLong, CodeCompatibilityTooLong,
	CodeMetadataInvalid, CodeUnknownField, CodeAllowedToolsIgnored,
}

// FuzzParseSkillMD feeds arbitrary bytes and directory names to the SKILL.md
// front end. It must never panic; every diagnostic must point inside the
// file (or be about the whole file, 0:0); BodyStart must lie in the file; and
// a file without errors must have been valid by the rules of README.md.
//
// The seeds are every SKILL.md of the testdata/validate golden cases (with
// their crlf/bom/bytes/repeat directives applied; pad is left out to keep
// inputs small) plus testdata/fuzz/FuzzParseSkillMD; a plain `go test` runs
// them all through the same checks.
func FuzzParseSkillMD(f *testing.F) {
	seeds := validateCaseSeeds(f)
	if len(seeds) < 50 {
		f.Fatalf("only %d seeds from testdata/validate", len(seeds))
	}
	for _, s := range seeds {
		f.Add(s.src, s.dir)
	}
	f.Fuzz(func(t *testing.T, src []byte, dir string) {
		checkParseSkillMD(t, src, dir)
	})
}

// checkParseSkillMD asserts the invariants of ParseSkillMD on one input.
func checkParseSkillMD(t *testing.T, src []byte, dir string) {
	t.Helper()
	orig := bytes.Clone(src)
	meta, ds := ParseSkillMD("SKILL.md", dir, src)
	if !bytes.Equal(src, orig) {
		t.Fatalf("ParseSkillMD modified its input")
	}
	lines := bytes.Split(src, []byte{'\n'})
	for _, d := range ds {
		switch d.Severity {
		case Error, Warning, Info:
		default:
			t.Errorf("%v: severity %d", d, d.Severity)
		}
		if !slices.Contains(skillMDCodes, d.Code) {
			t.Errorf("%v: code %q is not a SKILL.md code", d, d.Code)
		}
		if d.File != "SKILL.md" || d.Skill != dir {
			t.Errorf("%v: file %q skill %q, want SKILL.md, %q", d, d.File, d.Skill, dir)
		}
		if d.Message == "" || strings.ContainsAny(d.Message, "\n\r") {
			t.Errorf("%v: message %q is empty or spans lines", d, d.Message)
		}
		if d.Line == 0 && d.Col == 0 {
			continue
		}
		if d.Line < 1 || d.Line > len(lines) {
			t.Errorf("%v: line %d outside 1..%d", d, d.Line, len(lines))
			continue
		}
		if n := len(lines[d.Line-1]); d.Col < 1 || d.Col > n+1 {
			t.Errorf("%v: col %d outside 1..%d of line %d", d, d.Col, n+1, d.Line)
		}
	}
	if meta.BodyStart < 0 || meta.BodyStart > len(src) {
		t.Fatalf("BodyStart %d outside [0,%d]", meta.BodyStart, len(src))
	}
	// The fast position index agrees with the plain conversion.
	if fm, res := splitFrontmatter(src); res == splitOK && utf8.Valid(src) {
		x := newPosIndex(src, fm)
		for line := 0; line <= min(len(x.lineRune), 20)+1; line++ {
			for _, col := range []int{0, 1, 2, 3, 7, 64, 65, 200} {
				wl, wc := position(src, fm.yamlStart+yamlOffset(fm.yaml, line, col))
				if gl, gc := x.pos(line, col); gl != wl || gc != wc {
					t.Fatalf("posIndex.pos(%d, %d) = %d:%d, want %d:%d", line, col, gl, gc, wl, wc)
				}
			}
		}
	}
	if HasErrors(ds) {
		return
	}
	// Valid: the rules of README.md hold for what is returned.
	if meta.Name != dir {
		t.Errorf("valid, but name %q != dir %q", meta.Name, dir)
	}
	if p := slugProblem(meta.Name); p != "" {
		t.Errorf("valid, but name %q: %s", meta.Name, p)
	}
	if meta.Description == "" || meta.Description != strings.TrimSpace(meta.Description) {
		t.Errorf("valid, but description %q is empty or untrimmed", meta.Description)
	}
	if n := utf8.RuneCountInString(meta.Description); n > MaxDescriptionLen {
		t.Errorf("valid, but description has %d runes", n)
	}
	if n := utf8.RuneCountInString(meta.Compatibility); n > MaxCompatibilityLen {
		t.Errorf("valid, but compatibility has %d runes", n)
	}
	if len(src) > MaxSkillMDSize || !utf8.Valid(src) {
		t.Errorf("valid, but %d bytes or not UTF-8", len(src))
	}
	if !slices.IsSortedFunc(meta.Metadata, func(a, b Meta) int { return strings.Compare(a.Key, b.Key) }) {
		t.Errorf("metadata not sorted: %v", meta.Metadata)
	}
	// The body starts right after the closing fence the splitter finds.
	fm, res := splitFrontmatter(src)
	if res != splitOK || fm.bodyStart != meta.BodyStart {
		t.Errorf("valid, but BodyStart %d, split says %d (result %d)", meta.BodyStart, fm.bodyStart, res)
	}
	// Deterministic.
	meta2, ds2 := ParseSkillMD("SKILL.md", dir, src)
	if !slices.Equal(meta.Metadata, meta2.Metadata) || meta.Name != meta2.Name || meta.Description != meta2.Description ||
		meta.AllowedTools != meta2.AllowedTools || len(ds) != len(ds2) {
		t.Errorf("second parse differs")
	}
}

type skillMDSeed struct {
	src []byte
	dir string
}

// validateCaseSeeds reads every skill file of the testdata/validate cases,
// with the directives that shape bytes applied in memory.
func validateCaseSeeds(tb testing.TB) []skillMDSeed {
	tb.Helper()
	files, err := filepath.Glob("../../testdata/validate/*.txtar")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no validate cases: %v", err)
	}
	var seeds []skillMDSeed
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		data := map[string][]byte{}
		var names []string
		for _, f := range a.Files {
			if base := path.Base(f.Name); base == SkillFile || base == SkillFileLower {
				data[f.Name] = bytes.Clone(f.Data)
				names = append(names, f.Name)
			}
		}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			key, val, ok := strings.Cut(line, ": ")
			if !ok {
				continue
			}
			args := strings.Fields(val)
			if len(args) == 0 {
				continue
			}
			b, ok := data[args[0]]
			if !ok {
				continue
			}
			switch key {
			case "crlf":
				b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
			case "bom":
				b = append([]byte("\xEF\xBB\xBF"), b...)
			case "bytes":
				raw, err := hex.DecodeString(strings.Join(args[1:], ""))
				if err != nil {
					tb.Fatalf("%s: %s: %v", file, line, err)
				}
				b = append(b, raw...)
			case "repeat":
				_, rest, _ := strings.Cut(val, " ")
				ns, quoted, _ := strings.Cut(rest, " ")
				n, err1 := strconv.Atoi(ns)
				text, err2 := strconv.Unquote(quoted)
				if err1 != nil || err2 != nil {
					tb.Fatalf("%s: %s: bad repeat", file, line)
				}
				b = append(b, strings.Repeat(text, n)...)
			}
			data[args[0]] = b
		}
		for _, name := range names {
			seeds = append(seeds, skillMDSeed{src: data[name], dir: path.Base(path.Dir(name))})
		}
	}
	return seeds
}
