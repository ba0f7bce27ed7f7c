package compile

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"testing"
)

// FuzzLinks feeds arbitrary bodies to the link scanner and checks what must
// hold of any input:
//
//   - it never panics, and a scanner that scanned another body before gives
//     the same result as a fresh one (the reused buffers leak nothing);
//   - the targets are in order, do not overlap, lie inside the body, and each
//     is the text of a destination: after "(", white space, ":" or a quote's
//     ">", or inside "<...>"; a raw one holds no white space or control
//     byte, no target holds a line break;
//   - no link's target lies in a code span or an HTML comment, as an
//     independent, naive reading of one-line bodies finds them (where the
//     links take in no backtick or "<", so that reading needs no links);
//   - a body wrapped in a fenced code block, in an indented code block, or
//     (one line) in a code span yields no target at all;
//   - a paragraph and a blank line before the body shift every target by
//     their length and change nothing else, and a blank line and a
//     paragraph after it add none inside it;
//   - linkPath accepts every target and returns a clean relative path.
//
// The seed corpus is testdata/fuzz/FuzzLinks plus the bodies of the
// TestScanLinks cases.
func FuzzLinks(f *testing.F) {
	for _, tc := range scanLinksCases {
		f.Add([]byte(tc.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkLinks(t, body)
	})
}

func checkLinks(t *testing.T, body []byte) {
	t.Helper()
	orig := bytes.Clone(body)
	var s linkScanner
	got := s.scan(body, nil)
	if !bytes.Equal(body, orig) {
		t.Fatalf("scan modified its input")
	}
	if again := s.scan(body, nil); !slices.Equal(again, got) {
		t.Fatalf("a reused scanner found %v, a fresh one %v", again, got)
	}
	var other linkScanner
	other.scan([]byte("- a `b` [c](d)\n  - e\n    - f\n      > g ``[h](i)\n"), nil) // leaves list items and a quote open
	if again := other.scan(body, nil); !slices.Equal(again, got) {
		t.Fatalf("a scanner used before found %v, a fresh one %v", again, got)
	}

	prev := 0
	for _, l := range got {
		if l.start < prev || l.end < l.start || l.end > len(body) || l.start == 0 {
			t.Fatalf("target %v out of order or out of the body (len %d, previous end %d)", l, len(body), prev)
		}
		prev = l.end
		target := body[l.start:l.end]
		if bytes.IndexByte(target, '\n') >= 0 {
			t.Errorf("target %q holds a line break", target)
		}
		switch before := body[l.start-1]; {
		case before == '<':
			if l.end >= len(body) || body[l.end] != '>' {
				t.Errorf("target %q after '<' is not closed by '>'", target)
			}
		case before == '(' || before == ':' || before == '>' || isSpace(before) || before == '\n':
			for _, c := range target {
				if c <= ' ' || c == 0x7f {
					t.Errorf("raw target %q holds white space or a control byte", target)
					break
				}
			}
		default:
			t.Errorf("target %q follows %q, which starts no destination", target, before)
		}
		if p, _, ok := linkPath(target); ok && (p == "" || p != path.Clean(p) || p[0] == '/') {
			t.Errorf("linkPath(%q) = %q: not a clean relative path", target, p)
		}
	}

	line := bytes.TrimSuffix(body, []byte("\n")) // one line, if it holds no other line break
	oneLine := bytes.IndexByte(line, '\n') < 0
	if oneLine && allSimple(body, got) {
		spans := naiveCode(body)
		for _, l := range got {
			for _, sp := range spans {
				if l.start < sp[1] && l.end > sp[0] {
					t.Errorf("target %q [%d,%d) lies in code span or comment %q [%d,%d)", body[l.start:l.end], l.start, l.end, body[sp[0]:sp[1]], sp[0], sp[1])
				}
			}
		}
	}

	// Wrapped in code, nothing is a link.
	tildes := strings.Repeat("~", longestRun(body, '~')+3)
	fenced := []byte(tildes + "\n" + string(body) + "\n" + tildes + "\n")
	if l := scanLinks(fenced); len(l) > 0 {
		t.Errorf("in a fenced code block, found %v", l)
	}
	var indented []byte
	for _, line := range bytes.SplitAfter(body, []byte("\n")) {
		indented = append(append(indented, "    "...), line...)
	}
	if l := scanLinks(indented); len(l) > 0 {
		t.Errorf("in an indented code block, found %v", l)
	}
	if oneLine {
		ticks := strings.Repeat("`", longestRun(line, '`')+1)
		span := []byte("x " + ticks + " " + string(line) + " " + ticks + "\n")
		if l := scanLinks(span); len(l) > 0 {
			t.Errorf("in a code span, found %v", l)
		}
	}

	// Text around the body changes nothing in it.
	const before = "A paragraph.\n\n"
	shifted := scanLinks(append([]byte(before), body...))
	if len(shifted) != len(got) {
		t.Fatalf("after a paragraph, found %v; alone %v", shifted, got)
	}
	for i, l := range shifted {
		if l.start-len(before) != got[i].start || l.end-len(before) != got[i].end {
			t.Fatalf("after a paragraph, found %v; alone %v", shifted, got)
		}
	}
	var inside []link
	for _, l := range scanLinks(append(bytes.Clone(body), "\n\n[after](after.md)\n"...)) {
		if l.start < len(body) {
			inside = append(inside, l)
		}
	}
	if !slices.Equal(inside, got) {
		t.Errorf("with text after it, found %v in the body; alone %v", inside, got)
	}
}

// allSimple reports whether every target is that of an inline link with
// no title, "](target)", with no backtick or "<" from "(" to ")". Then the
// text a link takes in holds no code span or comment delimiter, so these
// are where naiveCode finds them even though it knows nothing of links.
func allSimple(body []byte, got []link) bool {
	for _, l := range got {
		i := l.start - 1
		for i >= 0 && isSpace(body[i]) {
			i--
		}
		if i < 1 || body[i] != '(' || body[i-1] != ']' || l.end >= len(body) || body[l.end] != ')' ||
			bytes.ContainsAny(body[i:l.end], "`<") {
			return false
		}
	}
	return true
}

// naiveCode returns the code spans and HTML comments of a one-line body, as
// CommonMark defines them, the slow and simple way: left to right, a
// backslash escapes the next punctuation byte; a backtick string is a code
// span if an equally long backtick string follows; "<!--" opens a comment
// if "-->" follows.
func naiveCode(b []byte) [][2]int {
	var spans [][2]int
	for i := 0; i < len(b); {
		switch {
		case b[i] == '\\' && i+1 < len(b) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", b[i+1]) >= 0:
			i += 2
		case b[i] == '`':
			n := 0
			for i+n < len(b) && b[i+n] == '`' {
				n++
			}
			end := -1
			for j := i + n; j < len(b); {
				if b[j] != '`' {
					j++
					continue
				}
				m := 0
				for j+m < len(b) && b[j+m] == '`' {
					m++
				}
				if m == n {
					end = j + m
					break
				}
				j += m
			}
			if end < 0 {
				i += n
				continue
			}
			spans = append(spans, [2]int{i, end})
			i = end
		case bytes.HasPrefix(b[i:], []byte("<!--")):
			if j := bytes.Index(b[i+2:], []byte("-->")); j >= 0 {
				spans = append(spans, [2]int{i, i + 2 + j + 3})
				i += 2 + j + 3
				continue
			}
			i++
		default:
			i++
		}
	}
	return spans
}

func longestRun(b []byte, c byte) int {
	longest, n := 0, 0
	for _, x := range b {
		if x == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}
