package compile

// Source positions: the 1-based line and byte column of an offset, and
// where a TOML manifest or a YAML frontmatter puts what a diagnostic is
// about. Every diagnostic's position comes from here.

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// position converts a byte offset in src to a 1-based line and byte column.
func position(src []byte, off int) (line, col int) {
	off = min(off, len(src))
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	col = off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return line, col
}

// yamlOffset returns the byte offset in b (a frontmatter) of a 1-based line
// and rune column as yaml.v3 counts them. yaml.v3 breaks lines not only at
// LF but at CR, CRLF, NEL (U+0085), LS (U+2028) and PS (U+2029), so its
// lines are not the file's. The offset is clamped to the line and to b.
func yamlOffset(b []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(b); {
		r, size := utf8.DecodeRune(b[off:])
		off += size
		if isYAMLBreak(r) {
			if r == '\r' && off < len(b) && b[off] == '\n' {
				off++
			}
			l++
		}
	}
	for c := 1; c < col && off < len(b); c++ {
		r, size := utf8.DecodeRune(b[off:])
		if isYAMLBreak(r) {
			break
		}
		off += size
	}
	return off
}

// tomlErrLine is the text of a TOML decode error.
var tomlErrLine = regexp.MustCompile(`^toml: line (\d+)(?: \(last key "([^"]*)"\))?: (.*)$`)

// tomlErrorPosition extracts a position from a toml error: syntax errors
// carry one; decode errors name the line and the last key.
func tomlErrorPosition(src []byte, err error) (line, col int, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		line, col := tomlPos(src, pe.Position)
		return line, col, pe.Message
	}
	msg = err.Error()
	if m := tomlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		col = 1
		if key := m[2]; key != "" {
			keyName := key[strings.LastIndexByte(key, '.')+1:]
			if l, c := findKey(src, keyName); l == line {
				col = c
			}
			// The decoder's message names Go types; for the keys skillgen
			// reads, say what the manifest must hold instead.
			switch key {
			case "skills":
				return line, col, "skills must be a table: [skills] directories = [...]"
			case "skills.directories":
				return line, col, "directories in [skills] must be a list of strings"
			}
			return line, col, m[3] + " (key " + strconv.Quote(key) + ")"
		}
		return line, col, m[3]
	}
	return 0, 0, strings.TrimPrefix(msg, "toml: ")
}

// findKey returns the position of the first line that assigns key, or 0, 0.
// TOML keys carry no positions in the decoder's metadata; this is good
// enough for the keys skillgen reports on.
func findKey(src []byte, key string) (line, col int) {
	for i, l := range bytes.Split(src, []byte{'\n'}) {
		t := bytes.TrimLeft(l, " \t")
		for _, k := range []string{key, strconv.Quote(key), "'" + key + "'", "skills." + key} {
			if rest, ok := bytes.CutPrefix(t, []byte(k)); ok {
				if r := bytes.TrimLeft(rest, " \t"); len(r) > 0 && r[0] == '=' {
					return i + 1, len(l) - len(t) + 1
				}
			}
		}
	}
	return 0, 0
}

// indexString returns the offset of the first TOML string literal that
// holds s, or -1.
func indexString(src []byte, s string) int {
	first := -1
	for _, lit := range []string{strconv.Quote(s), "'" + s + "'"} {
		if i := bytes.Index(src, []byte(lit)); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// findTableKey returns the position of the key path k (such as skills,
// recursive) where the manifest defines it: an assignment inside the
// section of its table ([skills] recursive = …), a dotted assignment
// (skills.recursive = … at the top level), or a table header
// ([skills.recursive]). A key of the same name in another table is not it.
// Without a match it falls back to findKey.
func findTableKey(src []byte, k toml.Key) (line, col int) {
	full := strings.Join(k, ".")
	table := ""
	for i, l := range bytes.Split(src, []byte{'\n'}) {
		t := bytes.TrimLeft(l, " \t")
		c := len(l) - len(t) + 1
		if len(t) > 0 && t[0] == '[' {
			h := bytes.TrimLeft(t, "[")
			if end := bytes.IndexByte(h, ']'); end >= 0 {
				table = normKey(h[:end])
			}
			if table == full {
				return i + 1, c
			}
			continue
		}
		eq := bytes.IndexByte(t, '=')
		if eq < 0 {
			continue
		}
		key := normKey(t[:eq])
		if table != "" {
			key = table + "." + key
		}
		if key == full {
			return i + 1, c
		}
	}
	return findKey(src, k[len(k)-1])
}

// normKey writes a TOML key without quotes and the blanks around its dots.
func normKey(b []byte) string {
	return strings.NewReplacer(" ", "", "\t", "", `"`, "", "'", "").Replace(string(b))
}

// lineOffset returns the byte offset of the 1-based line in src (0 for 0).
func lineOffset(src []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}

// tomlPos is the 1-based line and byte column of a TOML parse error. The
// decoder's line is right except for a CR LF inside a string (line 0); its
// column is off for errors at the start of a line (it counts from the
// previous line: "3:21" on a 3-byte line), and its byte offset is off by
// one for some. So: its line, unless 0 (then the offset's); the column from
// the offset when that lies on the line, else 1.
func tomlPos(src []byte, p toml.Position) (line, col int) {
	if p.Line < 1 {
		return position(src, min(max(p.Start, 0), len(src)))
	}
	start := 0
	for l := 1; l < p.Line && start < len(src); l++ {
		if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
			start += i + 1
		} else {
			start = len(src)
		}
	}
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	if p.Start < start || p.Start > end {
		return p.Line, 1
	}
	return p.Line, p.Start - start + 1
}
