package compile

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// maxExpandedNodes bounds the size of a frontmatter once its aliases are
// expanded. Frontmatter is a handful of keys; anything this large through
// aliases is an attack ("billion laughs"), not a skill.
const maxExpandedNodes = 10_000

// yamlDoc is a decoded frontmatter with what is needed to put positions on
// diagnostics about it.
type yamlDoc struct {
	src  []byte // the whole file
	fm   frontmatter
	root *yaml.Node // nil when the frontmatter is empty
	idx  *posIndex  // built on the first pos
}

// pos returns the file position (1-based line, byte column) of a node.
func (d *yamlDoc) pos(n *yaml.Node) (line, col int) {
	if d.idx == nil {
		d.idx = newPosIndex(d.src, d.fm)
	}
	return d.idx.pos(n.Line, n.Column)
}

// posIndex maps yaml.v3 positions (lines broken the YAML way, rune columns;
// see yamlOffset) to file positions (LF lines, byte columns) in O(log n), so
// that a frontmatter with a great many diagnostics (say 100,000 duplicate
// keys) costs linear time, not quadratic.
type posIndex struct {
	yaml      []byte
	yamlStart int
	lineRune  []int // global rune index at which each YAML line starts
	lineLen   []int // runes in each YAML line, its line break excluded
	every     []int // byte offset (in the frontmatter) of every posEvery-th rune
	fileLines []int // byte offset in the file of each LF line's start, up to the closing fence
}

const posEvery = 64

func newPosIndex(src []byte, fm frontmatter) *posIndex {
	x := &posIndex{yaml: fm.yaml, yamlStart: fm.yamlStart, lineRune: []int{0}}
	b := fm.yaml
	runes := 0
	for off := 0; off < len(b); {
		if runes%posEvery == 0 {
			x.every = append(x.every, off)
		}
		r, size := utf8.DecodeRune(b[off:])
		off += size
		runes++
		if isYAMLBreak(r) {
			x.lineLen = append(x.lineLen, runes-1-x.lineRune[len(x.lineRune)-1])
			if r == '\r' && off < len(b) && b[off] == '\n' {
				if runes%posEvery == 0 {
					x.every = append(x.every, off)
				}
				off++
				runes++
			}
			x.lineRune = append(x.lineRune, runes)
		}
	}
	if runes%posEvery == 0 {
		x.every = append(x.every, len(b))
	}
	x.lineLen = append(x.lineLen, runes-x.lineRune[len(x.lineRune)-1])
	end := min(fm.yamlStart+len(b), len(src))
	x.fileLines = append(x.fileLines, 0)
	for off := 0; off < end; {
		i := bytes.IndexByte(src[off:end], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		x.fileLines = append(x.fileLines, off)
	}
	return x
}

// pos converts a yaml.v3 line and column of the frontmatter; it agrees with
// position(src, yamlStart+yamlOffset(yaml, line, col)).
func (x *posIndex) pos(line, col int) (int, int) {
	l := min(max(line, 1), len(x.lineRune)) - 1
	if line > len(x.lineRune) { // beyond the text: its end
		col = x.lineLen[l] + 1
	}
	g := x.lineRune[l] + min(max(col, 1), x.lineLen[l]+1) - 1
	off := x.every[g/posEvery]
	for n := g % posEvery; n > 0; n-- {
		_, size := utf8.DecodeRune(x.yaml[off:])
		off += size
	}
	off += x.yamlStart
	i, _ := slices.BinarySearch(x.fileLines, off+1)
	return i, off - x.fileLines[i-1] + 1
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// decodeYAML decodes the frontmatter into a node tree. Errors are reported as
// yaml-invalid at the best position yaml.v3 gives (it reports lines only).
func decodeYAML(src []byte, fm frontmatter, ds *diags) (*yamlDoc, bool) {
	doc := &yamlDoc{src: src, fm: fm}
	dec := yaml.NewDecoder(bytes.NewReader(fm.yaml))
	var node yaml.Node
	err := dec.Decode(&node)
	if errors.Is(err, io.EOF) {
		return doc, true // empty or comments only
	}
	if err != nil {
		line, col, msg := yamlErrorPosition(err, src, fm)
		ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: %s", msg)
		return nil, false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		var line, col int
		if err == nil {
			line, col = doc.pos(&extra)
		} else {
			line, col, _ = yamlErrorPosition(err, src, fm)
		}
		ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: more than one YAML document")
		return nil, false
	}
	if len(node.Content) == 0 {
		return doc, true
	}
	doc.root = node.Content[0]
	if !checkNodes(doc, ds) {
		return nil, false
	}
	return doc, true
}

// yamlErrorPosition maps a yaml.v3 error to a file line, a byte column and
// a message. yaml.v3 reports lines only: the start of the construct in error
// (an unclosed quote or bracket, an enclosing block) if it knows one, else
// where it stopped. Its reader reports no position at all; it is found here
// for the one reader error valid UTF-8 can hit (a control character). The
// line is clamped to the frontmatter.
func yamlErrorPosition(err error, src []byte, fm frontmatter) (line, col int, msg string) {
	rel, msg := yamlErrorLine(err)
	if msg == "control characters are not allowed" {
		if off := firstYAMLControl(fm.yaml); off >= 0 {
			line, col = position(src, fm.yamlStart+off)
			return line, col, msg
		}
	}
	// yaml.v3 leaves out a construct's start when it is on the first line
	// (its line 0) and falls back to where it stopped: for an unclosed quote
	// that is the end of the frontmatter. Decoding once more a line further
	// down recovers the start, except for block structure errors, whose
	// enclosing block (the whole frontmatter, there) says less than the
	// line where yaml.v3 stopped.
	if !slices.Contains(yamlBlockProblems, msg) {
		padded := append([]byte{'\n'}, fm.yaml...)
		if prel, pmsg := yamlErrorLine(decodeAllYAML(padded)); pmsg == msg && prel > 1 {
			rel = prel - 1
		}
	}
	rel = max(rel, 1)
	for rel > 1 && yamlOffset(fm.yaml, rel, 1) >= len(fm.yaml) {
		rel-- // past the end: the last line of the frontmatter
	}
	line, col = position(src, fm.yamlStart+yamlOffset(fm.yaml, rel, 1))
	return line, col, msg
}

// yamlErrorLine splits a yaml.v3 error into its 1-based line (0 when it
// gives none) and its message. Parser errors count lines from 0, scanner
// errors from 1, and neither prints a line 0.
func yamlErrorLine(err error) (line int, msg string) {
	if err == nil {
		return 0, ""
	}
	msg = err.Error()
	m := yamlErrLine.FindStringSubmatch(msg)
	if m == nil {
		return 0, trimYAMLPrefix(msg)
	}
	line, _ = strconv.Atoi(m[1])
	if slices.Contains(yamlParserProblems, m[2]) {
		line++
	}
	return line, m[2]
}

// decodeAllYAML decodes every document of b and returns the first error.
func decodeAllYAML(b []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// yamlBlockProblems are the parser errors whose context is an enclosing
// block collection.
var yamlBlockProblems = []string{
	"did not find expected key",
	"did not find expected '-' indicator",
}

// yamlParserProblems are the messages of yaml.v3's parser (as opposed to its
// scanner), whose line numbers count from 0.
var yamlParserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
}

// firstYAMLControl returns the offset of the first character YAML does not
// allow in a stream (yaml.v3's reader check), or -1. b is valid UTF-8.
func firstYAMLControl(b []byte) int {
	for off := 0; off < len(b); {
		r, size := utf8.DecodeRune(b[off:])
		switch {
		case r == 0x09 || r == 0x0A || r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85,
			r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		default:
			return off
		}
		off += size
	}
	return -1
}

func trimYAMLPrefix(s string) string {
	if len(s) > 6 && s[:6] == "yaml: " {
		return s[6:]
	}
	return s
}

// checkNodes rejects duplicate keys in any mapping and alias expansion beyond
// maxExpandedNodes. It walks the tree once without following aliases and
// sizes aliases through a memo, so it is linear in the document.
func checkNodes(doc *yamlDoc, ds *diags) bool {
	ok, aliased := true, false
	size := map[*yaml.Node]int{}
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		if s, seen := size[n]; seen {
			return s
		}
		size[n] = 1 // guards against cycles
		s := 1
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			aliased = true
			s = walk(n.Alias)
		}
		if n.Kind == yaml.MappingNode {
			seen := make(map[string]bool, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if r := resolve(k); r != nil && r.Kind == yaml.ScalarNode { // an alias key is its anchor's text
					if seen[r.Value] {
						line, col := doc.pos(k)
						ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: duplicate key %q", r.Value)
						ok = false
					}
					seen[r.Value] = true
				}
			}
		}
		for _, c := range n.Content {
			s = min(s+walk(c), maxExpandedNodes+1)
		}
		size[n] = s
		return s
	}
	if walk(doc.root) > maxExpandedNodes {
		line, col := doc.pos(doc.root)
		if aliased {
			ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: aliases expand to more than %d nodes", maxExpandedNodes)
		} else { // deep nesting or sheer size: no frontmatter comes near
			ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: more than %d nodes", maxExpandedNodes)
		}
		ok = false
	}
	return ok
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a scalar"
	}
	return "an alias"
}
