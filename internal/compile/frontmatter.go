package compile

import (
	"bytes"
	"unicode/utf8"
)

var utf8BOM = []byte("\xEF\xBB\xBF")

// frontmatter locates the YAML frontmatter of a Markdown file.
//
// The file must start with a line that is exactly "---" (after an optional
// UTF-8 BOM); the frontmatter ends at the next line that is exactly "---".
// Trailing spaces, tabs and a CR are tolerated on both fence lines. The split
// is line based: "---" inside a line, or any later fence, never splits.
type frontmatter struct {
	yaml      []byte // the lines between the fences, line endings included
	yamlLine  int    // 1-based file line of the first byte of yaml
	yamlStart int    // byte offset of yaml in the file
	bodyStart int    // byte offset of the body: the byte after the closing fence's line ending
}

// splitResult says why a file has no usable frontmatter.
type splitResult int

const (
	splitOK splitResult = iota
	splitMissing
	splitUnclosed
)

func splitFrontmatter(src []byte) (frontmatter, splitResult) {
	off := 0
	if bytes.HasPrefix(src, utf8BOM) {
		off = len(utf8BOM)
	}
	line, next := nextLine(src, off)
	if !isFence(line) {
		return frontmatter{}, splitMissing
	}
	start := next
	for next < len(src) {
		lineStart := next
		line, next = nextLine(src, next)
		if isFence(line) {
			return frontmatter{yaml: src[start:lineStart], yamlLine: 2, yamlStart: start, bodyStart: next}, splitOK
		}
	}
	return frontmatter{}, splitUnclosed
}

// nextLine returns the line starting at off without its "\n", and the offset
// of the following line.
func nextLine(src []byte, off int) (line []byte, next int) {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return src[off : off+i], off + i + 1
	}
	return src[off:], len(src)
}

func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

func isYAMLBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029
}

// firstInvalidUTF8 returns the offset of the first byte that is not part of
// valid UTF-8, or -1.
func firstInvalidUTF8(src []byte) int {
	if utf8.Valid(src) {
		return -1
	}
	for off := 0; off < len(src); {
		r, size := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && size == 1 {
			return off
		}
		off += size
	}
	return -1
}
