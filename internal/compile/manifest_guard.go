package compile

import (
	"bytes"
	"fmt"
	"os"
)

// maxTOMLNesting bounds how deeply a manifest may nest arrays and inline
// tables, and how many parts a dotted key may have. The TOML decoder takes
// time quadratic in both (10,000 nested inline tables: about 20 s, for a
// 40 kB file); no real manifest comes anywhere near.
const maxTOMLNesting = 100

// readManifest reads a manifest file. Anything but a regular file is
// refused without being opened: a named pipe would block the run forever.
func readManifest(file string) ([]byte, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if t := info.Mode().Type(); !t.IsRegular() && !t.IsDir() {
		return nil, fmt.Errorf("%s is a %s, not a regular file; it is never opened", file, kindWord(t))
	}
	return os.ReadFile(file)
}

// tomlTooDeep scans src, skipping strings and comments, for the first
// bracket or brace that nests deeper than maxTOMLNesting, or the first dot
// that gives a dotted key more parts than that. It returns its offset and
// what is wrong, or -1. It is a bound, not a parser: the decoder reports
// every real syntax error.
func tomlTooDeep(src []byte) (off int, what string) {
	depth, dots := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			dots = 0
		case '"', '\'':
			i = skipTOMLString(src, i)
		case '[', '{':
			dots = 0
			if depth++; depth > maxTOMLNesting {
				return i, fmt.Sprintf("arrays and inline tables nest more than %d deep", maxTOMLNesting)
			}
		case ']', '}':
			dots = 0
			depth = max(depth-1, 0)
		case '.':
			if dots++; dots >= maxTOMLNesting {
				return i, fmt.Sprintf("a dotted key has more than %d parts", maxTOMLNesting)
			}
		case ' ', '\t', '-', '_':
		default:
			// Key parts: bare (letters, digits, - and _) or quoted, with
			// blanks around the dots. Anything else ends a dotted key.
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				dots = 0
			}
		}
	}
	return -1, ""
}

// skipTOMLString returns the offset of the last byte of the string that
// starts at src[i] (a quote): basic or literal, on one line or multi-line.
func skipTOMLString(src []byte, i int) int {
	q := src[i]
	if bytes.HasPrefix(src[i:], []byte{q, q, q}) {
		for j := i + 3; j < len(src); j++ {
			switch {
			case q == '"' && src[j] == '\\':
				j++
			case bytes.HasPrefix(src[j:], []byte{q, q, q}):
				end := j + 2
				for k := 0; k < 2 && end+1 < len(src) && src[end+1] == q; k++ {
					end++ // up to two quotes before the closing ones belong to the string
				}
				return end
			}
		}
		return len(src) - 1
	}
	for j := i + 1; j < len(src); j++ {
		switch {
		case q == '"' && src[j] == '\\':
			j++
		case src[j] == q || src[j] == '\n':
			return j
		}
	}
	return len(src) - 1
}
