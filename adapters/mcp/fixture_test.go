package mcp_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
	"github.com/skillgen/skillgen/examples/agent/skills"
	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// A fixture workflow: a runtime.Workflow whose Files, Body and Source the
// table builder fills in from files (for a skill: files holds SKILL.md).
type fixture struct {
	slug, description string
	model, user       bool
	skill             bool
	body              string        // in-house workflows only
	files             []fixtureFile // skills only; SKILL.md first
}

type fixtureFile struct {
	path string
	mode fs.FileMode
	data string
}

// newRegistry builds a Registry the way skillgen's generated code does:
// the workflows lowered to a skillgenimpl.Spec (sorted by slug, the body a
// suffix of SKILL.md, file contents as content-addressed blobs), encoded,
// and served by the runtime. The files live in memory only: nothing of a
// fixture registry exists on disk.
func newRegistry(fs ...fixture) *runtime.Registry {
	spec := &skillgenimpl.Spec{}
	blobs := map[string]*string{}
	for _, f := range fs {
		w := skillgenimpl.Workflow{Workflow: runtime.Workflow{Slug: f.slug, Description: f.description, ModelInvocation: f.model, UserInvocable: f.user}}
		w.Catalog = f.description
		if !f.skill {
			w.Body = f.body
			w.Source = runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/" + f.slug + ".md"}
			spec.Workflows = append(spec.Workflows, w)
			continue
		}
		w.CatalogXML = f.description
		w.Source = runtime.Source{Kind: runtime.KindSkill, Path: ".claude/skills/" + f.slug + "/" + f.files[0].path}
		_, after, ok := strings.Cut(f.files[0].data, "\n---\n")
		if !ok {
			panic("fixture " + f.slug + ": SKILL.md has no frontmatter")
		}
		w.Body = after
		w.BodyStart = len(f.files[0].data) - len(after)
		for _, file := range f.files {
			sum := sha256.Sum256([]byte(file.data))
			name := hex.EncodeToString(sum[:])
			data := file.data
			blobs[name] = &data
			w.Files = append(w.Files, runtime.File{Path: file.path, Mode: file.mode, Size: int64(len(file.data)), SHA256: name})
		}
		slices.SortFunc(w.Files, func(a, b runtime.File) int { return strings.Compare(a.Path, b.Path) })
		spec.Workflows = append(spec.Workflows, w)
	}
	slices.SortFunc(spec.Workflows, func(a, b skillgenimpl.Workflow) int { return strings.Compare(a.Slug, b.Slug) })
	for _, name := range slices.Sorted(maps.Keys(blobs)) {
		spec.Blobs = append(spec.Blobs, skillgenimpl.Blob{Name: name, Size: int64(len(*blobs[name])), Data: blobs[name]})
	}
	r, err := skillgenimpl.Build(spec)
	if err != nil {
		panic(err)
	}
	return r
}

// Odd but legal file names, with the URI each must have. The expected URIs
// are written out by hand, not computed by the code under test.
var oddNames = []struct{ path, uri string }{
	{"SKILL.md", "skill://odd-names/SKILL.md"},
	{"notes/a file.md", "skill://odd-names/notes/a%20file.md"},
	{"notes/#hash.md", "skill://odd-names/notes/%23hash.md"},
	{"notes/100%.txt", "skill://odd-names/notes/100%25.txt"},
	{"notes/what?.txt", "skill://odd-names/notes/what%3F.txt"},
	{`notes/back\slash.txt`, "skill://odd-names/notes/back%5Cslash.txt"},
	{"notes/日本語.md", "skill://odd-names/notes/%E6%97%A5%E6%9C%AC%E8%AA%9E.md"},
	{"notes/%2e%2e", "skill://odd-names/notes/%252e%252e"},
	{"notes/...", "skill://odd-names/notes/..."},
	{"notes/..hidden", "skill://odd-names/notes/..hidden"},
	{"notes/a+b=c&d@e:f;g,h!'()*$.txt", "skill://odd-names/notes/a%2Bb%3Dc%26d%40e%3Af%3Bg%2Ch%21%27%28%29%2A%24.txt"},
	{"notes/tab\there~_-.MD", "skill://odd-names/notes/tab%09here~_-.MD"},
	{"assets/logo.png", "skill://odd-names/assets/logo.png"},
	{"data/latin1.txt", "skill://odd-names/data/latin1.txt"},
	{"data/nul.txt", "skill://odd-names/data/nul.txt"},
	{"empty.txt", "skill://odd-names/empty.txt"},
	{"scripts/run.sh", "skill://odd-names/scripts/run.sh"},
}

const oddSkillMD = "---\n" +
	"name: odd-names\n" +
	"description: >\n  Files with odd names,\n  binary and empty files.\n" +
	"license: MIT\n" +
	"when: 2024-01-02\n" +
	"allowed-tools: [Read, \"Bash(ls:*)\"]\n" +
	"metadata:\n  version: 1.0\n  author: example\n" +
	"---\n" +
	"# Odd names\n\nRun {baseDir}/scripts/run.sh with $ARGUMENTS; first word: $0.\n"

// oddFrontmatter is oddSkillMD's frontmatter as skills/list must render
// it, written out by hand.
var oddFrontmatter = map[string]any{
	"name":          "odd-names",
	"description":   "Files with odd names, binary and empty files.\n",
	"license":       "MIT",
	"when":          "2024-01-02",
	"allowed-tools": []any{"Read", "Bash(ls:*)"},
	"metadata":      map[string]any{"version": float64(1), "author": "example"},
}

// pngBytes is binary: invalid UTF-8 and NUL bytes.
const pngBytes = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\xff\xfe"

func oddFiles() []fixtureFile {
	data := map[string]string{
		"SKILL.md":        oddSkillMD,
		"assets/logo.png": pngBytes,
		"data/latin1.txt": "caf\xe9 cr\xe8me\n", // Latin-1: not UTF-8, no NUL
		"data/nul.txt":    "valid UTF-8 but a NUL:\x00.\n",
		"empty.txt":       "",
		"scripts/run.sh":  "#!/bin/sh\necho \"$@\"\n",
	}
	var files []fixtureFile
	for _, o := range oddNames {
		d, ok := data[o.path]
		if !ok {
			d = "content of " + o.path + "\n"
		}
		mode := fs.FileMode(0o644)
		if strings.HasPrefix(o.path, "scripts/") {
			mode = 0o755
		}
		files = append(files, fixtureFile{o.path, mode, d})
	}
	return files
}

// fixtureRegistry mixes skills and in-house workflows of every kind: a
// skill with odd file names and binary files (model and user), a
// model-only skill, a user-only in-house workflow, an in-house workflow
// for both, and slugs "a" and "a-b", whose files sort the other way round
// ("a-b/…" < "a/…").
func fixtureRegistry() *runtime.Registry {
	return newRegistry(
		fixture{slug: "odd-names", description: "Files with odd names, binary and empty files.\n", model: true, user: true, skill: true, files: oddFiles()},
		fixture{slug: "model-only", description: "Only the model activates it.", model: true, skill: true, files: []fixtureFile{
			{"SKILL.md", 0o644, "---\nname: model-only\ndescription: Only the model activates it.\nuser-invocable: false\n---\nModel-only body.\n"},
			{"references/guide.md", 0o644, "# Guide\n"},
		}},
		fixture{slug: "user-only", description: "Only the user runs it.", user: true, body: "Deploy $0 to $1 ($ARGUMENTS).\n"},
		fixture{slug: "both", description: "In-house, for both.", model: true, user: true, body: "In-house body without placeholders.\n"},
		fixture{slug: "a", description: "Slug a.", model: true, user: true, skill: true, files: []fixtureFile{
			{"SKILL.md", 0o644, "---\nname: a\ndescription: Slug a.\n---\nBody of a.\n"},
		}},
		fixture{slug: "a-b", description: "Slug a-b.", model: true, user: true, skill: true, files: []fixtureFile{
			{"SKILL.md", 0o644, "---\nname: a-b\ndescription: Slug a-b.\n---\nBody of a-b.\n"},
			{"x.md", 0o644, "x\n"},
		}},
	)
}

// registries are the registries every round-trip test runs on: the bundled
// example's generated package and the fixture.
func registries() map[string]*runtime.Registry {
	return map[string]*runtime.Registry{
		"example": skills.Registry,
		"fixture": fixtureRegistry(),
	}
}

// connect serves r on a new server and returns a client session to it
// over the SDK's in-memory transport.
func connect(t testing.TB, r *runtime.Registry, opts *mcp.ServerOptions, copts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	s, err := skillmcp.NewServer(&mcp.Implementation{Name: "skills-test", Version: "v0.0.1"}, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	return connectTo(t, s, copts)
}

func connectTo(t testing.TB, s *mcp.Server, copts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newClient()
	cs, err := c.Connect(ctx, ct, copts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// newClient returns a client that can call skills/list and skills/get.
func newClient() *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0.0.1"}, nil)
	if err := mcp.AddSendingCustomMethod[*skillmcp.ListSkillsParams, *skillmcp.ListSkillsResult](c, "skills/list"); err != nil {
		panic(err)
	}
	if err := mcp.AddSendingCustomMethod[*skillmcp.GetSkillParams, *skillmcp.GetSkillResult](c, "skills/get"); err != nil {
		panic(err)
	}
	return c
}

// wireCode returns the JSON-RPC error code of err, or 0 when err is not a
// JSON-RPC error.
func wireCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

// fsFiles returns every file of fsys, by name.
func fsFiles(t testing.TB, fsys fs.FS) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		files[name] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// listAll walks every page of resources/list.
func listAll(t testing.TB, cs *mcp.ClientSession) (all []*mcp.Resource, pages int) {
	t.Helper()
	var cursor string
	for {
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, res.Resources...)
		if res.NextCursor == "" {
			return all, pages
		}
		if pages > 100000 {
			t.Fatal("resources/list does not end")
		}
		cursor = res.NextCursor
	}
}

func contentBytes(c *mcp.ResourceContents) []byte {
	if c.Blob != nil {
		return c.Blob
	}
	return []byte(c.Text)
}
