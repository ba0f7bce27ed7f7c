package compile

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"

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
}

// pos returns the file position (1-based line, byte column) of a node.
func (d *yamlDoc) pos(n *yaml.Node) (line, col int) {
	line = n.Line + d.fm.yamlLine - 1
	return line, byteCol(d.src, line, n.Column)
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
		line, msg := yamlErrorPosition(err, fm)
		ds.errorf(CodeYAMLInvalid, line, 1, "invalid YAML frontmatter: %s", msg)
		return nil, false
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := fm.yamlLine
		if err == nil {
			line, _ = doc.pos(&extra)
		}
		ds.errorf(CodeYAMLInvalid, line, 1, "invalid YAML frontmatter: more than one YAML document")
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

// yamlErrorPosition maps a yaml.v3 error to a file line and a message.
// yaml.v3 omits the line for problems on the first line and reports some
// lines 0-based; the line is clamped to the frontmatter.
func yamlErrorPosition(err error, fm frontmatter) (line int, msg string) {
	msg = err.Error()
	rel := 1
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		rel, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = trimYAMLPrefix(msg)
	}
	lines := max(1, bytes.Count(fm.yaml, []byte{'\n'}))
	rel = min(max(rel, 1), lines)
	return rel + fm.yamlLine - 1, msg
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
	ok := true
	size := map[*yaml.Node]int{}
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		if s, seen := size[n]; seen {
			return s
		}
		size[n] = 1 // guards against cycles
		s := 1
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			s = walk(n.Alias)
		}
		if n.Kind == yaml.MappingNode {
			seen := make(map[string]bool, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind == yaml.ScalarNode {
					if seen[k.Value] {
						line, col := doc.pos(k)
						ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: duplicate key %q", k.Value)
						ok = false
					}
					seen[k.Value] = true
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
		ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: aliases expand to more than %d nodes", maxExpandedNodes)
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
