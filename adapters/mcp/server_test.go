package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
	"github.com/skillgen/skillgen/runtime"
)

// TestResources lists every resource, page by page, and reads each: every
// file of Registry.FS is listed exactly once, under a URI that decodes to
// its name, and reads back byte for byte, as text exactly when it is
// non-empty UTF-8 without NUL.
func TestResources(t *testing.T) {
	for name, r := range registries() {
		t.Run(name, func(t *testing.T) {
			files := fsFiles(t, r.FS())
			cs := connect(t, r, &mcp.ServerOptions{PageSize: 3}, nil)
			listed, pages := listAll(t, cs)
			if want := (len(files) + 2) / 3; pages != want {
				t.Errorf("%d pages of 3 for %d files, want %d", pages, len(files), want)
			}
			seen := map[string]bool{}
			for _, res := range listed {
				u, err := url.Parse(res.URI)
				if err != nil {
					t.Errorf("%s: %v", res.URI, err)
					continue
				}
				if u.Scheme != "skill" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Port() != "" {
					t.Errorf("%s: not a plain skill:// URI: %#v", res.URI, u)
				}
				fname := u.Host + u.Path
				want, ok := files[fname]
				if !ok {
					t.Errorf("%s decodes to %q, which is no file of the registry", res.URI, fname)
					continue
				}
				if seen[fname] {
					t.Errorf("%s listed twice", res.URI)
				}
				seen[fname] = true
				if res.Size != int64(len(want)) {
					t.Errorf("%s: size %d, want %d", res.URI, res.Size, len(want))
				}

				got, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: res.URI})
				if err != nil {
					t.Errorf("read %s: %v", res.URI, err)
					continue
				}
				if len(got.Contents) != 1 {
					t.Errorf("read %s: %d contents, want 1", res.URI, len(got.Contents))
					continue
				}
				c := got.Contents[0]
				if c.URI != res.URI || c.MIMEType != res.MIMEType {
					t.Errorf("read %s: uri %q, MIME type %q; listed as %q", res.URI, c.URI, c.MIMEType, res.MIMEType)
				}
				if b := contentBytes(c); !bytes.Equal(b, want) {
					t.Errorf("read %s: %q, want %q", res.URI, b, want)
				}
				wantText := len(want) > 0 && utf8.Valid(want) && bytes.IndexByte(want, 0) < 0
				if (c.Blob == nil) != wantText {
					t.Errorf("read %s: text %v, want text %v", res.URI, c.Blob == nil, wantText)
				}
			}
			for f := range files {
				if !seen[f] {
					t.Errorf("file %s is not listed", f)
				}
			}
		})
	}
}

// TestResourceMetadata checks the URIs of odd names, MIME types, and the
// name and description of each skill's SKILL.md.
func TestResourceMetadata(t *testing.T) {
	r := fixtureRegistry()
	cs := connect(t, r, nil, nil)
	listed, _ := listAll(t, cs)
	byURI := map[string]*mcp.Resource{}
	for _, res := range listed {
		byURI[res.URI] = res
	}
	for _, o := range oddNames {
		if byURI[o.uri] == nil {
			t.Errorf("%q: no resource %s", o.path, o.uri)
		}
	}
	wantMIME := map[string]string{
		"skill://odd-names/SKILL.md":                             "text/markdown",
		"skill://odd-names/notes/tab%09here~_-.MD":               "text/markdown",
		"skill://odd-names/assets/logo.png":                      "image/png",
		"skill://odd-names/data/latin1.txt":                      "text/plain",
		"skill://odd-names/scripts/run.sh":                       "text/x-shellscript",
		"skill://odd-names/notes/%252e%252e":                     "application/octet-stream",
		"skill://odd-names/notes/...":                            "application/octet-stream",
		"skill://odd-names/notes/..hidden":                       "application/octet-stream",
		"skill://model-only/references/guide.md":                 "text/markdown",
		"skill://odd-names/notes/%E6%97%A5%E6%9C%AC%E8%AA%9E.md": "text/markdown",
	}
	for uri, want := range wantMIME {
		if res := byURI[uri]; res == nil || res.MIMEType != want {
			t.Errorf("%s: %+v, want MIME type %s", uri, res, want)
		}
	}
	for _, w := range r.Workflows() {
		uri := "skill://" + w.Slug + "/SKILL.md"
		res := byURI[uri]
		if w.Source.Kind != runtime.KindSkill {
			continue
		}
		if res == nil || res.Name != w.Slug || res.Description != w.Description || res.MIMEType != "text/markdown" {
			t.Errorf("%s: %+v, want name %q, description %q, text/markdown", uri, res, w.Slug, w.Description)
		}
	}
	if res := byURI["skill://odd-names/notes/a%20file.md"]; res == nil || res.Name != "odd-names/notes/a file.md" {
		t.Errorf("supporting file: %+v, want name odd-names/notes/a file.md", res)
	}
}

// TestPagination walks resources/list with every page size from 1 to past
// the number of files: every file is seen exactly once.
func TestPagination(t *testing.T) {
	r := fixtureRegistry()
	files := fsFiles(t, r.FS())
	for size := 1; size <= len(files)+1; size++ {
		s, err := skillmcp.NewServer(&mcp.Implementation{Name: "x"}, r, &mcp.ServerOptions{PageSize: size})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectTo(t, s, nil)
		listed, pages := listAll(t, cs)
		if want := (len(files) + size - 1) / size; pages != want {
			t.Errorf("page size %d: %d pages, want %d", size, pages, want)
		}
		count := map[string]int{}
		for _, res := range listed {
			count[res.URI]++
		}
		if len(listed) != len(files) || len(count) != len(files) {
			t.Errorf("page size %d: %d resources, %d distinct, want %d files once each", size, len(listed), len(count), len(files))
		}
	}
}

// TestPrompts gets every user-invocable workflow as a prompt, with and
// without arguments.
func TestPrompts(t *testing.T) {
	for name, r := range registries() {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, r, nil, nil)
			ctx := context.Background()
			var listed []*mcp.Prompt
			for p, err := range cs.Prompts(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				listed = append(listed, p)
			}
			var want []string
			for _, w := range r.Workflows() {
				if w.UserInvocable {
					want = append(want, w.Slug)
				}
			}
			var got []string
			for _, p := range listed {
				got = append(got, p.Name)
				w, _ := r.Lookup(p.Name)
				if w == nil || p.Description != w.Description {
					t.Errorf("prompt %s: description %q", p.Name, p.Description)
				}
				if len(p.Arguments) != 1 || p.Arguments[0].Name != "args" || p.Arguments[0].Required {
					t.Errorf("prompt %s: arguments %+v, want one optional \"args\"", p.Name, p.Arguments)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("prompts %q, want the user-invocable workflows %q", got, want)
			}
			for _, slug := range want {
				w, _ := r.Lookup(slug)
				for _, args := range []map[string]string{nil, {}, {"args": ""}, {"args": `first "second word" third`}} {
					res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: slug, Arguments: args})
					if err != nil {
						t.Errorf("%s %q: %v", slug, args, err)
						continue
					}
					if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
						t.Errorf("%s %q: %+v, want one user message", slug, args, res.Messages)
						continue
					}
					text, ok := res.Messages[0].Content.(*mcp.TextContent)
					if !ok || text.Text != w.Expand(args["args"]) {
						t.Errorf("%s %q: %#v, want %q", slug, args, res.Messages[0].Content, w.Expand(args["args"]))
					}
				}
			}
		})
	}
}

// TestPromptExpansion pins what two prompts of the fixture expand to, so
// that the test does not only compare the adapter with the runtime.
func TestPromptExpansion(t *testing.T) {
	cs := connect(t, fixtureRegistry(), nil, nil)
	for _, tc := range []struct {
		name, args, want string
	}{
		{"user-only", "api 'eu west'", "Deploy api to eu west (api 'eu west').\n"},
		{"user-only", "", "Deploy  to  ().\n"},
		{"both", "now", "In-house body without placeholders.\n\nARGUMENTS: now"},
		{"odd-names", "x y", "# Odd names\n\nRun {baseDir}/scripts/run.sh with x y; first word: x.\n"},
	} {
		res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: tc.name, Arguments: map[string]string{"args": tc.args}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := res.Messages[0].Content.(*mcp.TextContent).Text; got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}

func TestPromptErrors(t *testing.T) {
	cs := connect(t, fixtureRegistry(), nil, nil)
	for _, tc := range []struct {
		name string
		args map[string]string
	}{
		{"no-such-prompt", nil},
		{"model-only", nil}, // a workflow, but not user-invocable
		{"", nil},
		{"user-only", map[string]string{"argz": "x"}},
		{"user-only", map[string]string{"args": "x", "extra": "y"}},
	} {
		_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: tc.name, Arguments: tc.args})
		if code := wireCode(err); code != -32602 {
			t.Errorf("prompt %q %v: error %v (code %d), want -32602", tc.name, tc.args, err, code)
		}
	}
}

// TestTool lists activate_skill and calls it for every model-invocable
// workflow.
func TestTool(t *testing.T) {
	for name, r := range registries() {
		t.Run(name, func(t *testing.T) {
			cs := connect(t, r, nil, nil)
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := r.ActivationTool()
			if len(tools.Tools) != 1 || tools.Tools[0].Name != "activate_skill" || tools.Tools[0].Description != want.Description {
				t.Fatalf("tools %+v, want activate_skill", tools.Tools)
			}
			var gotSchema, wantSchema any
			b, _ := json.Marshal(tools.Tools[0].InputSchema)
			if err := json.Unmarshal(b, &gotSchema); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(want.InputSchema), &wantSchema); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotSchema, wantSchema) {
				t.Errorf("input schema %s, want %s", b, want.InputSchema)
			}
			for _, w := range r.Workflows() {
				if !w.ModelInvocation {
					continue
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": w.Slug}})
				if err != nil || res.IsError || len(res.Content) != 1 {
					t.Errorf("activate %s: %+v, %v", w.Slug, res, err)
					continue
				}
				dir := ""
				if w.Source.Kind == runtime.KindSkill {
					dir = "skill://" + w.Slug
				}
				wantText, _ := r.Activate(w.Slug, dir)
				if got := res.Content[0].(*mcp.TextContent).Text; got != wantText {
					t.Errorf("activate %s: %q, want %q", w.Slug, got, wantText)
				}
			}
		})
	}
}

// TestToolText pins two answers of activate_skill.
func TestToolText(t *testing.T) {
	cs := connect(t, fixtureRegistry(), nil, nil)
	for name, want := range map[string]string{
		"a-b": "<skill_content name=\"a-b\">\nBody of a-b.\n\nSkill directory: skill://a-b\n" +
			"Relative paths in this skill are relative to the skill directory.\n\n" +
			"<skill_resources>\n  <file>x.md</file>\n</skill_resources>\n</skill_content>\n",
		"both": "<skill_content name=\"both\">\nIn-house body without placeholders.\n</skill_content>\n",
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": name}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %+v %v", name, res, err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestToolErrors: an unknown tool is a protocol error; bad arguments to
// activate_skill are a tool result with isError set, whose text says what
// is wrong.
func TestToolErrors(t *testing.T) {
	cs := connect(t, fixtureRegistry(), nil, nil)
	ctx := context.Background()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	if code := wireCode(err); code != -32602 {
		t.Errorf("unknown tool: %v (code %d), want -32602", err, code)
	}
	for _, tc := range []struct {
		args any
		want string // in the message
	}{
		{map[string]any{"name": "no-such-skill"}, "no-such-skill"},
		{map[string]any{"name": "user-only"}, "user-only"}, // not model-invocable
		{map[string]any{"name": ""}, "name"},
		{map[string]any{"name": 7}, "name"},
		{map[string]any{}, "name"},
		{map[string]any{"name": "a", "extra": true}, "extra"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "activate_skill", Arguments: tc.args})
		if err != nil {
			t.Errorf("%v: protocol error %v, want a tool result with isError", tc.args, err)
			continue
		}
		if !res.IsError || len(res.Content) != 1 {
			t.Errorf("%v: %+v, want isError and a message", tc.args, res)
			continue
		}
		msg := res.Content[0].(*mcp.TextContent).Text
		t.Logf("%v: %s", tc.args, msg)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%v: message %q does not mention %q", tc.args, msg, tc.want)
		}
	}
}

// TestNoModelInvocable: a registry whose workflows only the user runs
// has no tool.
func TestNoModelInvocable(t *testing.T) {
	r := newRegistry(fixture{slug: "user-only", description: "u", user: true, body: "b"})
	cs := connect(t, r, nil, nil)
	if caps := cs.InitializeResult().Capabilities; caps.Tools != nil {
		t.Errorf("tools capability %+v, want none", caps.Tools)
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": "user-only"}})
	if code := wireCode(err); code != -32602 {
		t.Errorf("activate_skill without the tool: %v, want -32602", err)
	}
}

// TestRegister serves a registry on a server made by mcp.NewServer, next
// to a tool of the host's own.
func TestRegister(t *testing.T) {
	opts := &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{}}
	opts.Capabilities.AddExtension(skillmcp.ExtensionID, nil)
	s := mcp.NewServer(&mcp.Implementation{Name: "host"}, opts)
	mcp.AddTool(s, &mcp.Tool{Name: "own_tool", Description: "the host's"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "own"}}}, nil, nil
	})
	if err := skillmcp.Register(s, fixtureRegistry()); err != nil {
		t.Fatal(err)
	}
	cs := connectTo(t, s, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools %+v %v, want activate_skill and own_tool", tools, err)
	}
	if _, ok := cs.InitializeResult().Capabilities.Extensions[skillmcp.ExtensionID]; !ok {
		t.Errorf("extension not declared: %+v", cs.InitializeResult().Capabilities)
	}
	got, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://odd-names/assets/logo.png"})
	if err != nil || string(got.Contents[0].Blob) != pngBytes {
		t.Errorf("read: %+v %v", got, err)
	}
}

// TestNewServerKeepsOptions: NewServer declares the extension without
// changing the caller's capabilities.
func TestNewServerKeepsOptions(t *testing.T) {
	caps := &mcp.ServerCapabilities{Extensions: map[string]any{"com.example/other": map[string]any{}}}
	opts := &mcp.ServerOptions{Capabilities: caps, Instructions: "hello"}
	cs := connect(t, fixtureRegistry(), opts, nil)
	got := cs.InitializeResult()
	if _, ok := got.Capabilities.Extensions[skillmcp.ExtensionID]; !ok {
		t.Errorf("extension not declared: %+v", got.Capabilities.Extensions)
	}
	if _, ok := got.Capabilities.Extensions["com.example/other"]; !ok || got.Instructions != "hello" {
		t.Errorf("caller's options lost: %+v %q", got.Capabilities.Extensions, got.Instructions)
	}
	if len(caps.Extensions) != 1 {
		t.Errorf("caller's capabilities changed: %+v", caps.Extensions)
	}
	if got.Capabilities.Resources == nil || got.Capabilities.Prompts == nil || got.Capabilities.Tools == nil {
		t.Errorf("capabilities %+v, want resources, prompts and tools", got.Capabilities)
	}
}
