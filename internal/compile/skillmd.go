package compile

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Limits of the Agent Skills format (README.md, "Rules and codes").
const (
	MaxSkillMDSize       = 1 << 20 // bytes
	MaxNameLen           = 64      // characters
	MaxDescriptionLen    = 1024    // runes
	MaxCompatibilityLen  = 500     // runes
	skillFieldName       = "name"
	skillFieldDesc       = "description"
	skillFieldLicense    = "license"
	skillFieldCompat     = "compatibility"
	skillFieldMetadata   = "metadata"
	skillFieldAllowTools = "allowed-tools"
)

// SkillMeta is what a SKILL.md declares, after validation.
type SkillMeta struct {
	Name          string
	Description   string // trimmed of leading and trailing white space
	License       string
	Compatibility string
	AllowedTools  string // space-separated
	Metadata      []Meta // sorted by key
	BodyStart     int    // byte offset of the Markdown body in the file
}

// Meta is one metadata entry, its value as the literal text of the YAML scalar.
type Meta struct{ Key, Value string }

// ParseSkillMD validates the bytes of a SKILL.md that sits in a directory
// named dirName. file names it in diagnostics. Every independent problem is
// reported; the skill is valid when no diagnostic is an Error.
func ParseSkillMD(file, dirName string, src []byte) (SkillMeta, []Diagnostic) {
	ds := &diags{file: file, skill: dirName}
	meta := parseSkillMD(ds, dirName, src)
	return meta, ds.list
}

func parseSkillMD(ds *diags, dirName string, src []byte) SkillMeta {
	var meta SkillMeta
	doc, ok := parseFrontmatterDoc(ds, src, MaxSkillMDSize)
	if !ok {
		return meta
	}
	meta.BodyStart = doc.fm.bodyStart

	fields := map[string]*yaml.Node{} // key → value, for the known fields
	var keys map[string]*yaml.Node
	if doc.root != nil {
		keys = fieldKeys(doc, ds)
		for _, k := range sortedKeys(keys) {
			kn := keys[k]
			switch k {
			case skillFieldName, skillFieldDesc, skillFieldLicense, skillFieldCompat, skillFieldMetadata, skillFieldAllowTools:
				fields[k] = valueOf(doc.root, kn)
			default:
				line, col := doc.pos(kn)
				ds.warnf(CodeUnknownField, line, col, "unknown field %q is ignored", k)
			}
		}
	}

	// name
	if v, present := scalarField(doc, ds, keys, fields, skillFieldName); present {
		meta.Name = v.Value
		line, col := doc.pos(v)
		if v.Value == "" { // `name: ""` is as good as no name
			ds.errorf(CodeNameMissing, line, col, "required field %q is empty", skillFieldName)
		} else {
			if reason := slugProblem(v.Value); reason != "" {
				ds.errorf(CodeNameInvalid, line, col, "name %q is invalid: %s", v.Value, reason)
			}
			if v.Value != dirName {
				ds.errorf(CodeNameMismatch, line, col, "name %q does not match the directory name %q", v.Value, dirName)
			}
		}
	} else if !hasField(keys, skillFieldName) {
		ds.errorf(CodeNameMissing, 1, 1, "required field %q is missing", skillFieldName)
	}

	// description
	if v, present := scalarField(doc, ds, keys, fields, skillFieldDesc); present {
		meta.Description = strings.TrimSpace(v.Value)
		line, col := doc.pos(v)
		switch n := utf8.RuneCountInString(meta.Description); {
		case n == 0:
			ds.errorf(CodeDescriptionMissing, line, col, "description is empty")
		case n > MaxDescriptionLen:
			ds.errorf(CodeDescriptionTooLong, line, col, "description is %d characters long; at most %d are allowed", n, MaxDescriptionLen)
		}
	} else if !hasField(keys, skillFieldDesc) {
		ds.errorf(CodeDescriptionMissing, 1, 1, "required field %q is missing", skillFieldDesc)
	}

	// compatibility
	if v, present := scalarField(doc, ds, keys, fields, skillFieldCompat); present {
		meta.Compatibility = v.Value
		if n := utf8.RuneCountInString(v.Value); n > MaxCompatibilityLen {
			line, col := doc.pos(v)
			ds.errorf(CodeCompatibilityTooLong, line, col, "compatibility is %d characters long; at most %d are allowed", n, MaxCompatibilityLen)
		}
	}

	// license
	if v, present := scalarField(doc, ds, keys, fields, skillFieldLicense); present {
		meta.License = v.Value
	}

	if v := fields[skillFieldMetadata]; v != nil {
		meta.Metadata = metadataOf(doc, ds, v)
	}
	if v := fields[skillFieldAllowTools]; v != nil {
		meta.AllowedTools = allowedToolsOf(doc, ds, keys[skillFieldAllowTools], v)
	}
	return meta
}

// parseFrontmatterDoc checks size and encoding, splits off the frontmatter
// and decodes it. ok is false when nothing further can be checked.
func parseFrontmatterDoc(ds *diags, src []byte, maxSize int) (*yamlDoc, bool) {
	if len(src) > maxSize {
		ds.errorf(CodeFileTooLarge, 0, 0, "file is %d bytes; at most %d are allowed", len(src), maxSize)
		return nil, false
	}
	if off := firstInvalidUTF8(src); off >= 0 {
		line, col := position(src, off)
		ds.errorf(CodeEncodingInvalid, line, col, "file is not valid UTF-8 (byte 0x%02x)", src[off])
		return nil, false
	}
	fm, res := splitFrontmatter(src)
	switch res {
	case splitMissing:
		ds.errorf(CodeFrontmatterMissing, 1, 1, `file does not start with a "---" frontmatter line`)
		return nil, false
	case splitUnclosed:
		ds.errorf(CodeFrontmatterUnclosed, 1, 1, `frontmatter opened here is never closed by a "---" line`)
		return nil, false
	}
	doc, ok := decodeYAML(src, fm, ds)
	if !ok {
		return nil, false
	}
	if doc.root != nil {
		if r := resolve(doc.root); r == nil || r.Kind != yaml.MappingNode {
			line, col := doc.pos(doc.root)
			ds.errorf(CodeYAMLInvalid, line, col, "frontmatter must be a mapping of keys to values, not %s", kindName(doc.root))
			return nil, false
		}
		doc.root = resolve(doc.root)
	}
	return doc, true
}

// fieldKeys returns the key node of every scalar key of the top-level
// mapping. Non-scalar keys are yaml-invalid.
func fieldKeys(doc *yamlDoc, ds *diags) map[string]*yaml.Node {
	keys := make(map[string]*yaml.Node, len(doc.root.Content)/2)
	for i := 0; i+1 < len(doc.root.Content); i += 2 {
		k := resolve(doc.root.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			line, col := doc.pos(doc.root.Content[i])
			ds.errorf(CodeYAMLInvalid, line, col, "invalid YAML frontmatter: keys must be strings")
			continue
		}
		if _, dup := keys[k.Value]; !dup { // duplicates were reported by checkNodes
			keys[k.Value] = doc.root.Content[i]
		}
	}
	return keys
}

// valueOf returns the value node that follows key node k in mapping m,
// aliases resolved.
func valueOf(m, k *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i] == k {
			return resolve(m.Content[i+1])
		}
	}
	return nil
}

func hasField(keys map[string]*yaml.Node, name string) bool {
	_, ok := keys[name]
	return ok
}

// scalarField returns the scalar value of a field. present is false when
// the field is absent, null or not a scalar; a non-scalar is field-type, a
// null required field is reported here as missing.
func scalarField(doc *yamlDoc, ds *diags, keys, fields map[string]*yaml.Node, name string) (v *yaml.Node, present bool) {
	v = fields[name]
	if v == nil {
		return nil, false
	}
	line, col := doc.pos(v)
	switch {
	case v.Kind != yaml.ScalarNode:
		ds.errorf(CodeFieldType, line, col, "field %q must be a string, not %s", name, kindName(v))
		return v, false
	case isNull(v):
		switch name {
		case skillFieldName:
			ds.errorf(CodeNameMissing, line, col, "required field %q is empty", name)
		case skillFieldDesc:
			ds.errorf(CodeDescriptionMissing, line, col, "required field %q is empty", name)
		}
		return v, false
	}
	return v, true
}

// metadataOf keeps the scalar entries of a metadata mapping, sorted by key;
// anything else draws metadata-invalid and is dropped.
func metadataOf(doc *yamlDoc, ds *diags, v *yaml.Node) []Meta {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		line, col := doc.pos(v)
		ds.warnf(CodeMetadataInvalid, line, col, "metadata must be a mapping of keys to strings, not %s; it is dropped", kindName(v))
		return nil
	}
	var out []Meta
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := resolve(v.Content[i]), resolve(v.Content[i+1])
		switch {
		case k == nil || k.Kind != yaml.ScalarNode:
			line, col := doc.pos(v.Content[i])
			ds.warnf(CodeMetadataInvalid, line, col, "metadata keys must be strings; the entry is dropped")
		case val == nil || val.Kind != yaml.ScalarNode:
			line, col := doc.pos(v.Content[i+1])
			ds.warnf(CodeMetadataInvalid, line, col, "metadata %q must be a string, not %s; it is dropped", k.Value, kindName(v.Content[i+1]))
		default:
			out = append(out, Meta{Key: k.Value, Value: val.Value})
		}
	}
	sortMeta(out)
	return out
}

// allowedToolsOf keeps allowed-tools as a space-separated string. It is never
// enforced, which the warning says whatever its shape.
func allowedToolsOf(doc *yamlDoc, ds *diags, key, v *yaml.Node) string {
	line, col := doc.pos(key)
	var tools string
	ok := true
	switch v.Kind {
	case yaml.ScalarNode:
		if !isNull(v) {
			tools = v.Value
		}
	case yaml.SequenceNode:
		items := make([]string, 0, len(v.Content))
		for _, it := range v.Content {
			it = resolve(it)
			if it == nil || it.Kind != yaml.ScalarNode {
				ok = false
				break
			}
			items = append(items, it.Value)
		}
		tools = strings.Join(items, " ")
	default:
		ok = false
	}
	if !ok {
		ds.warnf(CodeAllowedToolsIgnored, line, col, "allowed-tools must be a string or a list of strings; it is dropped (and never enforced)")
		return ""
	}
	ds.warnf(CodeAllowedToolsIgnored, line, col, "allowed-tools is kept as data but not enforced")
	return tools
}

// slugProblem says why s is not a valid skill name or slug, or "".
func slugProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case utf8.RuneCountInString(s) > MaxNameLen:
		return "it is longer than 64 characters"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return "only lowercase letters a-z, digits 0-9 and hyphens are allowed"
		}
	}
	switch {
	case s[0] == '-' || s[len(s)-1] == '-':
		return "it must not start or end with a hyphen"
	case strings.Contains(s, "--"):
		return "it must not contain two hyphens in a row"
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func sortMeta(ms []Meta) {
	slices.SortStableFunc(ms, func(a, b Meta) int { return cmp.Compare(a.Key, b.Key) })
}
