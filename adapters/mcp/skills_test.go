package mcp_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
	"github.com/skillgen/skillgen/runtime"
)

// listSkills walks every page of skills/list.
func listSkills(t testing.TB, cs *mcp.ClientSession) (all []*skillmcp.Skill, pages []*skillmcp.ListSkillsResult) {
	t.Helper()
	var cursor string
	for {
		res, err := mcp.CallCustomMethod[*skillmcp.ListSkillsParams, *skillmcp.ListSkillsResult](
			context.Background(), cs, "skills/list", &skillmcp.ListSkillsParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, res)
		all = append(all, res.Skills...)
		if res.NextCursor == "" {
			return all, pages
		}
		if len(pages) > 10000 {
			t.Fatal("skills/list does not end")
		}
		cursor = res.NextCursor
	}
}

// protocolVersions are the versions the skills methods answer differently.
var protocolVersions = []string{"2025-11-25", "2026-07-28"}

// TestSkillsList checks every entry of skills/list against the registry,
// and every file it lists against what resources/read returns: the
// digest and size are those of the bytes read.
func TestSkillsList(t *testing.T) {
	for name, r := range registries() {
		for _, v := range protocolVersions {
			t.Run(name+"/"+v, func(t *testing.T) {
				cs := connect(t, r, nil, &mcp.ClientSessionOptions{ProtocolVersion: v})
				if got := cs.InitializeResult().ProtocolVersion; got != v {
					t.Fatalf("negotiated %s, want %s", got, v)
				}
				if _, ok := cs.InitializeResult().Capabilities.Extensions[skillmcp.ExtensionID]; !ok {
					t.Errorf("capabilities %+v do not declare %s", cs.InitializeResult().Capabilities, skillmcp.ExtensionID)
				}
				entries, pages := listSkills(t, cs)
				for _, p := range pages {
					newer := v >= "2026-07-28"
					if got := p.ResultType == "complete" && p.TTLMs != nil && *p.TTLMs == 0 && p.CacheScope == "public"; got != newer {
						t.Errorf("resultType %q, ttlMs %v, cacheScope %q on %s", p.ResultType, p.TTLMs, p.CacheScope, v)
					}
				}
				var want []string
				for _, w := range r.Workflows() {
					if w.Source.Kind == runtime.KindSkill {
						want = append(want, "skill://"+w.Slug+"/SKILL.md")
					}
				}
				var got []string
				for _, e := range entries {
					got = append(got, e.URI)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("skills %q, want %q", got, want)
				}
				for _, e := range entries {
					checkEntry(t, cs, r, e)
				}
			})
		}
	}
}

// checkEntry checks one skill entry: its frontmatter names the skill, its
// resources are the skill's files, each listed once, and each reads back
// with the listed digest and size.
func checkEntry(t *testing.T, cs *mcp.ClientSession, r *runtime.Registry, e *skillmcp.Skill) {
	t.Helper()
	slug := e.Frontmatter["name"]
	w, ok := r.Lookup(fmt.Sprint(slug))
	if !ok || e.URI != "skill://"+w.Slug+"/SKILL.md" {
		t.Errorf("%s: frontmatter name %v", e.URI, slug)
		return
	}
	if e.Frontmatter["description"] == nil {
		t.Errorf("%s: no description in %v", e.URI, e.Frontmatter)
	}
	if len(e.Resources) != len(w.Files) {
		t.Errorf("%s: %d resources, want %d files", e.URI, len(e.Resources), len(w.Files))
	}
	seen := map[string]bool{}
	hasSkillMD := false
	for _, res := range e.Resources {
		if seen[res.URI] {
			t.Errorf("%s: %s listed twice", e.URI, res.URI)
		}
		seen[res.URI] = true
		hasSkillMD = hasSkillMD || res.URI == e.URI
		got, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: res.URI})
		if err != nil {
			t.Errorf("%s: read %s: %v", e.URI, res.URI, err)
			continue
		}
		b := contentBytes(got.Contents[0])
		sum := sha256.Sum256(b)
		if res.Digest != "sha256:"+hex.EncodeToString(sum[:]) || res.Size != int64(len(b)) {
			t.Errorf("%s: %s listed as %s, %d bytes; read %x, %d bytes", e.URI, res.URI, res.Digest, res.Size, sum, len(b))
		}
	}
	if !hasSkillMD {
		t.Errorf("%s: resources do not list SKILL.md itself", e.URI)
	}
}

// TestSkillsFrontmatter pins the fixture's frontmatter as JSON.
func TestSkillsFrontmatter(t *testing.T) {
	cs := connect(t, fixtureRegistry(), nil, nil)
	res, err := mcp.CallCustomMethod[*skillmcp.GetSkillParams, *skillmcp.GetSkillResult](
		context.Background(), cs, "skills/get", &skillmcp.GetSkillParams{URI: "skill://odd-names/SKILL.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Skill.Frontmatter, oddFrontmatter) {
		t.Errorf("frontmatter %#v, want %#v", res.Skill.Frontmatter, oddFrontmatter)
	}
}

// TestSkillsGet gets every skill by URI, on both protocol versions: the
// entry is the one skills/list has. URIs that are not a skill's SKILL.md
// are -32602.
func TestSkillsGet(t *testing.T) {
	for name, r := range registries() {
		for _, v := range protocolVersions {
			t.Run(name+"/"+v, func(t *testing.T) {
				cs := connect(t, r, nil, &mcp.ClientSessionOptions{ProtocolVersion: v})
				entries, _ := listSkills(t, cs)
				for _, e := range entries {
					res, err := mcp.CallCustomMethod[*skillmcp.GetSkillParams, *skillmcp.GetSkillResult](
						context.Background(), cs, "skills/get", &skillmcp.GetSkillParams{URI: e.URI})
					if err != nil {
						t.Errorf("get %s: %v", e.URI, err)
						continue
					}
					if !reflect.DeepEqual(res.Skill, e) {
						t.Errorf("get %s: %+v, want the listed %+v", e.URI, res.Skill, e)
					}
					if want := map[bool]string{true: "complete"}[v >= "2026-07-28"]; res.ResultType != want {
						t.Errorf("get %s on %s: resultType %q, want %q", e.URI, v, res.ResultType, want)
					}
				}
			})
		}
	}
	cs := connect(t, fixtureRegistry(), nil, nil)
	for _, uri := range append([]string{
		"skill://both/SKILL.md",      // an in-house workflow: no SKILL.md
		"skill://user-only/SKILL.md", // ditto
		"skill://odd-names/scripts/run.sh",
		"skill://odd-names",
		"skill://odd-names/",
		"skill://no-such/SKILL.md",
		"skill://odd-names/skill.md",
		"",
	}, skillmcp.TraversalURIs...) {
		_, err := mcp.CallCustomMethod[*skillmcp.GetSkillParams, *skillmcp.GetSkillResult](
			context.Background(), cs, "skills/get", &skillmcp.GetSkillParams{URI: uri})
		if code := wireCode(err); code != -32602 {
			t.Errorf("get %q: %v (code %d), want -32602", uri, err, code)
		}
	}
}

// TestSkillsPagination lists 120 skills, 50 a page.
func TestSkillsPagination(t *testing.T) {
	var fs []fixture
	for i := range 120 {
		slug := fmt.Sprintf("skill-%03d", i)
		fs = append(fs, fixture{slug: slug, description: "d", model: true, user: true, skill: true, files: []fixtureFile{
			{"SKILL.md", 0o644, "---\nname: " + slug + "\ndescription: d\n---\nbody\n"},
		}})
	}
	cs := connect(t, newRegistry(fs...), nil, nil)
	entries, pages := listSkills(t, cs)
	if len(pages) != 3 || len(pages[0].Skills) != 50 || len(pages[2].Skills) != 20 {
		t.Errorf("%d pages, want 50+50+20 skills", len(pages))
	}
	for i, e := range entries {
		if want := fmt.Sprintf("skill://skill-%03d/SKILL.md", i); e.URI != want {
			t.Fatalf("entry %d: %s, want %s", i, e.URI, want)
		}
	}
	for _, cursor := range []string{"!", "bm8tc3VjaA", pages[0].NextCursor + "x"} {
		_, err := mcp.CallCustomMethod[*skillmcp.ListSkillsParams, *skillmcp.ListSkillsResult](
			context.Background(), cs, "skills/list", &skillmcp.ListSkillsParams{Cursor: cursor})
		if code := wireCode(err); code != -32602 {
			t.Errorf("cursor %q: %v, want -32602", cursor, err)
		}
	}
}
