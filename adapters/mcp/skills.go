package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillgen/skillgen/runtime"
	"gopkg.in/yaml.v3"
)

// ExtensionID is the identifier of the skills extension (SEP-2640) in a
// server's capabilities. NewServer declares it; a server that Register
// serves and that was made by mcp.NewServer should declare it with
// opts.Capabilities.AddExtension(ExtensionID, nil).
const ExtensionID = "io.modelcontextprotocol/skills"

// Methods of the skills extension.
const (
	methodListSkills = "skills/list"
	methodGetSkill   = "skills/get"
)

// skillsPageSize is the most entries one skills/list page holds. An entry
// lists every file of its skill, so a page of skills is much larger than a
// page of resources.
const skillsPageSize = 50

// firstCachingVersion is the first protocol version whose list results
// carry resultType, ttlMs and cacheScope.
const firstCachingVersion = "2026-07-28"

// A Skill is one entry of a skills/list or skills/get result: the URI of
// the skill's SKILL.md, its YAML frontmatter as JSON, and every file of the
// skill with its digest and size. This server always lists the files; it
// never answers "dynamic".
type Skill struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   []SkillResource `json:"resources"`
}

// A SkillResource is one file of a Skill.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"` // "sha256:" and 64 lower-case hex digits
	Size   int64  `json:"size"`
}

// ListSkillsParams are the parameters of skills/list.
type ListSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// ListSkillsResult is the result of skills/list. ResultType, TTLMs and
// CacheScope are set for protocol versions 2026-07-28 and later only.
type ListSkillsResult struct {
	mcp.ResultBase
	ResultType string   `json:"resultType,omitempty"`
	TTLMs      *int     `json:"ttlMs,omitempty"`
	CacheScope string   `json:"cacheScope,omitempty"`
	Skills     []*Skill `json:"skills"`
	NextCursor string   `json:"nextCursor,omitempty"`
}

// GetSkillParams are the parameters of skills/get: the URI of a skill's SKILL.md.
type GetSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

// GetSkillResult is the result of skills/get.
type GetSkillResult struct {
	mcp.ResultBase
	ResultType string `json:"resultType,omitempty"`
	Skill      *Skill `json:"skill"`
}

// registerSkills adds skills/list and skills/get to s.
func (h *handler) registerSkills(s *mcp.Server) error {
	if err := mcp.AddReceivingCustomMethod(s, methodListSkills, h.listSkills); err != nil {
		return err
	}
	return mcp.AddReceivingCustomMethod(s, methodGetSkill, h.getSkill)
}

// newProtocol reports whether a request follows protocol 2026-07-28 or later.
func newProtocol(ss *mcp.ServerSession, meta mcp.Meta) bool {
	v, _ := meta[mcp.MetaKeyProtocolVersion].(string)
	if v == "" && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			v = p.ProtocolVersion
		}
	}
	return v >= firstCachingVersion
}

func (h *handler) listSkills(_ context.Context, ss *mcp.ServerSession, p *ListSkillsParams) (*ListSkillsResult, error) {
	start := 0
	if p != nil && p.Cursor != "" {
		slug, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		i, found := slices.BinarySearchFunc(h.skills, string(slug), func(w *runtime.Workflow, slug string) int {
			return strings.Compare(w.Slug, slug)
		})
		if err != nil || !found {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
		start = i
	}
	end := min(start+skillsPageSize, len(h.skills))
	res := &ListSkillsResult{Skills: make([]*Skill, 0, end-start)}
	for _, w := range h.skills[start:end] {
		sk, err := h.skill(w)
		if err != nil {
			return nil, err
		}
		res.Skills = append(res.Skills, sk)
	}
	if end < len(h.skills) {
		res.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(h.skills[end].Slug))
	}
	if p != nil && newProtocol(ss, p.Meta) {
		// The catalog is compiled in: the same for every user, and it does
		// not change while the server runs. A TTL of 0 is the SDK's own
		// default for the lists it answers.
		ttl := 0
		res.ResultType, res.TTLMs, res.CacheScope = "complete", &ttl, "public"
	}
	return res, nil
}

func (h *handler) getSkill(_ context.Context, ss *mcp.ServerSession, p *GetSkillParams) (*GetSkillResult, error) {
	if p == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing uri"}
	}
	w, ok := h.skillAt(p.URI)
	if !ok {
		return nil, &jsonrpc.Error{
			Code:    jsonrpc.CodeInvalidParams,
			Message: "Skill not found",
			Data:    json.RawMessage(fmt.Sprintf(`{"uri":%s}`, jsonString(p.URI))),
		}
	}
	sk, err := h.skill(w)
	if err != nil {
		return nil, err
	}
	res := &GetSkillResult{Skill: sk}
	if newProtocol(ss, p.Meta) {
		res.ResultType = "complete"
	}
	return res, nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// skillFile returns the name in Registry.FS of a skill's SKILL.md.
func skillFile(w *runtime.Workflow) string {
	return w.Slug + "/" + path.Base(w.Source.Path)
}

// skillAt returns the skill whose SKILL.md has the given URI.
func (h *handler) skillAt(uri string) (*runtime.Workflow, bool) {
	name, ok := parseURI(uri)
	if !ok {
		return nil, false
	}
	slug, _, _ := strings.Cut(name, "/")
	w, ok := h.r.Lookup(slug)
	if !ok || w.Source.Kind != runtime.KindSkill || skillFile(w) != name {
		return nil, false
	}
	return w, true
}

// skill builds the entry of w.
func (h *handler) skill(w *runtime.Workflow) (*Skill, error) {
	name := skillFile(w)
	src, err := fs.ReadFile(h.r.FS(), name)
	if err != nil {
		return nil, err
	}
	fm, err := frontmatterJSON(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	sk := &Skill{URI: fileURI(name), Frontmatter: fm, Resources: make([]SkillResource, len(w.Files))}
	for i, f := range w.Files {
		sk.Resources[i] = SkillResource{URI: fileURI(w.Slug + "/" + f.Path), Digest: "sha256:" + f.SHA256, Size: f.Size}
	}
	return sk, nil
}

// maxFrontmatterNodes bounds a frontmatter once its aliases are expanded,
// as skillgen does when it validates one: a frontmatter is a handful of
// keys, and anything this large through aliases is an attack.
const maxFrontmatterNodes = 10_000

var errNoFrontmatter = errors.New("no YAML frontmatter")

// frontmatterJSON returns the YAML frontmatter of a SKILL.md as a JSON
// object, as SEP-2640 wants it: every field the author wrote. Strings,
// and scalars JSON has no type for (timestamps, binary, custom tags), keep
// their text; integers, floats, booleans and nulls become JSON numbers,
// booleans and null, so that a host comparing the entry with its own parse
// of the file sees the same values. A key written twice keeps its first
// value, as skillgen reads it.
func frontmatterJSON(src []byte) (map[string]any, error) {
	y, ok := splitFrontmatter(src)
	if !ok {
		return nil, errNoFrontmatter
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(y, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 { // an empty frontmatter
		return map[string]any{}, nil
	}
	c := converter{budget: maxFrontmatterNodes}
	v, err := c.value(doc.Content[0])
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("frontmatter is not a mapping")
	}
	return m, nil
}

var utf8BOM = []byte("\xef\xbb\xbf")

// splitFrontmatter returns the YAML between the opening "---" line and the
// next "---" line, as skillgen splits a SKILL.md (a UTF-8 byte order mark
// and trailing blanks or CR on a fence line allowed).
func splitFrontmatter(src []byte) ([]byte, bool) {
	src = bytes.TrimPrefix(src, utf8BOM)
	line, rest := cutLine(src)
	if !isFence(line) {
		return nil, false
	}
	yml := rest
	for len(rest) > 0 {
		line, next := cutLine(rest)
		if isFence(line) {
			return yml[:len(yml)-len(rest)], true
		}
		rest = next
	}
	return nil, false
}

func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

func isFence(line []byte) bool { return string(bytes.TrimRight(line, " \t\r")) == "---" }

// converter turns YAML nodes into JSON values, counting nodes against a
// budget so that aliases cannot blow a small frontmatter up.
type converter struct{ budget int }

var errTooLarge = fmt.Errorf("frontmatter has more than %d nodes once its aliases are expanded", maxFrontmatterNodes)

func (c *converter) value(n *yaml.Node) (any, error) {
	if c.budget--; c.budget < 0 {
		return nil, errTooLarge
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.value(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := c.key(n.Content[i])
			if _, dup := m[k]; dup {
				continue
			}
			v, err := c.value(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, it := range n.Content {
			v, err := c.value(it)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return n.Value, nil
			}
			if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
				return n.Value, nil // JSON has no infinity or NaN
			}
			return v, nil
		}
		return n.Value, nil
	}
	return nil, fmt.Errorf("unexpected YAML node kind %d", n.Kind)
}

// key returns the text of a mapping key: its value for a scalar (aliases
// followed), else the key written as flow YAML.
func (c *converter) key(n *yaml.Node) string {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	flow := *n
	flow.Style = yaml.FlowStyle
	b, err := yaml.Marshal(&flow)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
