// Package mcp serves the Workflows and skill files of a skillgen
// runtime.Registry over the Model Context Protocol, with the official Go
// SDK (github.com/modelcontextprotocol/go-sdk).
//
// NewServer makes a server that serves one Registry; Register adds a
// Registry to a server made by mcp.NewServer. Either way the server offers:
//
//   - Resources: every skill file of Registry.FS as skill://{slug}/{path},
//     the path percent-encoded (every byte but A-Z a-z 0-9 - . _ ~ and the
//     "/" between segments), so that one file has one URI. The MIME type
//     comes from the extension, from a fixed table (text/markdown for .md,
//     application/octet-stream when unknown); the content is text when it
//     is valid UTF-8 without a NUL byte, else a blob (an empty file is an
//     empty blob: the SDK drops an empty text). Lists are paginated by the
//     server's ServerOptions.PageSize.
//   - Prompts: every user-invocable workflow, named by its slug, with one
//     optional argument "args"; getting it returns one user message holding
//     Workflow.Expand(args).
//   - Tools: activate_skill, from Registry.ActivationTool, when some
//     workflow is model-invocable. A call returns Registry.Activate(name,
//     "skill://"+name) as text; an in-house workflow, which has no files,
//     gets no directory ("" instead of a URI that names nothing).
//   - skills/list and skills/get, the two methods of the skills extension
//     (SEP-2640), for every ingested skill (in-house workflows are not
//     skills there: they have no SKILL.md).
//
// Everything is read from Registry.FS and the Registry's tables; this
// package never opens a file of the operating system. A resource URI that
// is not one the server listed, in exactly the form it listed it, is
// "resource not found" (-32602 by default in go-sdk v1.8.0, per SEP-2164),
// whatever it holds: "..", "%2e%2e", "//", "\", "%5C", a "." segment, an
// empty slug, another scheme or host. An unknown prompt or tool is the
// SDK's -32602 "invalid params". An activate_skill call naming no
// model-invocable workflow is a tool result with isError set, not a
// JSON-RPC error: the MCP specification (2025-11-25, "Error Handling" of
// Tools; SEP-1303) makes input validation errors tool execution errors, so
// that the model sees the message and can correct the call, and the SDK
// reports a schema violation the same way.
//
// # The skills extension (SEP-2640)
//
// Followed: one resource per skill file under skill://<skill-path>/<file-path>
// with SKILL.md explicit, the skill path being the slug (which is the
// frontmatter name); the SKILL.md resource has MIME type text/markdown, and
// its name and description are the skill's; the capability
// "io.modelcontextprotocol/skills" (declared by NewServer) with skills/list
// (paginated, 50 skills a page) and skills/get, each entry holding the
// SKILL.md URI, the frontmatter as JSON and every file with its SHA-256
// digest and size; resultType, ttlMs and cacheScope on protocol 2026-07-28
// and later only; -32602 from skills/get for a URI that is no skill's
// SKILL.md.
//
// Left out: resources/directory/read (optional; the capability does not
// declare directoryRead: every skill's entry already lists all its files);
// _meta keys and annotations on resources (the SEP defines none; the
// Working Group's guidance keeps skill semantics in the frontmatter, which
// skills/list carries); resource templates (the SEP no longer uses them,
// and every file is listed); a check of the per-skill limits of 512 files
// and 16 MiB (skillgen has size limits of its own). README.md has more.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillgen/skillgen/runtime"
)

// NewServer returns a server that serves r: mcp.NewServer(impl, opts) with
// the skills extension declared in its capabilities, and Register(s, r)
// done. opts may be nil; when opts.Capabilities is nil, the server declares
// only what it serves (not the SDK's default logging capability). The
// server may be given more tools, prompts and resources afterwards.
func NewServer(impl *mcp.Implementation, r *runtime.Registry, opts *mcp.ServerOptions) (*mcp.Server, error) {
	var o mcp.ServerOptions
	if opts != nil {
		o = *opts
	}
	caps := &mcp.ServerCapabilities{}
	if o.Capabilities != nil {
		*caps = *o.Capabilities
		caps.Extensions = maps.Clone(caps.Extensions) // the caller's map is not ours to change
	}
	caps.AddExtension(ExtensionID, nil)
	o.Capabilities = caps
	s := mcp.NewServer(impl, &o)
	if err := Register(s, r); err != nil {
		return nil, err
	}
	return s, nil
}

// Register adds r's skill files, prompts, activation tool and the
// skills/list and skills/get methods to s. A server serves one Registry:
// a second Register replaces the methods and any resource, prompt or tool
// of the same name. Register does not declare the skills extension, which
// only the server's options can do: see ExtensionID.
func Register(s *mcp.Server, r *runtime.Registry) error {
	h := &handler{r: r}
	skillFiles := map[string]*runtime.Workflow{}
	workflows := r.Workflows()
	for _, w := range workflows {
		if w.Source.Kind == runtime.KindSkill {
			lw, _ := r.Lookup(w.Slug) // the Registry's own entry, not the copy
			h.skills = append(h.skills, lw)
			skillFiles[skillFile(lw)] = lw
		}
	}

	var resources []*mcp.Resource
	err := fs.WalkDir(r.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		uri := fileURI(name)
		if _, err := url.Parse(uri); err != nil { // mcp.Server.AddResource would panic
			return fmt.Errorf("skill file %q: %w", name, err)
		}
		res := &mcp.Resource{URI: uri, Name: name, MIMEType: mimeType(name), Size: info.Size()}
		if w, ok := skillFiles[name]; ok {
			res.Name, res.Description = w.Slug, w.Description
		}
		resources = append(resources, res)
		return nil
	})
	if err != nil {
		return fmt.Errorf("skillgen/adapters/mcp: %w", err)
	}
	for _, res := range resources {
		s.AddResource(res, h.readResource)
	}

	for _, w := range workflows {
		if w.UserInvocable {
			s.AddPrompt(&mcp.Prompt{
				Name:        w.Slug,
				Description: w.Description,
				Arguments: []*mcp.PromptArgument{{
					Name:        promptArg,
					Description: "The arguments of the invocation, as a user would type them after /" + w.Slug + ".",
				}},
			}, h.getPrompt)
		}
	}

	if t, ok := r.ActivationTool(); ok {
		closed := false
		mcp.AddTool(s, &mcp.Tool{
			Name:        t.Name,
			Description: t.Description,
			InputSchema: json.RawMessage(t.InputSchema),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed},
		}, h.activate)
	}

	if err := h.registerSkills(s); err != nil {
		return fmt.Errorf("skillgen/adapters/mcp: %w", err)
	}
	return nil
}

// promptArg is the one argument of every prompt.
const promptArg = "args"

// handler answers requests from one Registry.
type handler struct {
	r      *runtime.Registry
	skills []*runtime.Workflow // the ingested skills, by slug
}

// readResource reads a skill file. The SDK calls it only for a URI that
// was added as a resource; parseURI checks it again, so that what reaches
// Registry.FS is always the one name the URI was made from.
func (h *handler) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := parseURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	data, err := fs.ReadFile(h.r.FS(), name)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mimeType(name)}
	if len(data) > 0 && utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		c.Text = string(data)
	} else {
		c.Blob = data // never nil: an empty file is "blob": ""
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

func (h *handler) getPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	w, ok := h.r.Lookup(req.Params.Name)
	if !ok || !w.UserInvocable {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", req.Params.Name)}
	}
	for k := range req.Params.Arguments {
		if k != promptArg {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("prompt %q has one argument, %q, not %q", w.Slug, promptArg, k)}
		}
	}
	return &mcp.GetPromptResult{
		Description: w.Description,
		Messages: []*mcp.PromptMessage{{
			Role:    "user",
			Content: &mcp.TextContent{Text: w.Expand(req.Params.Arguments[promptArg])},
		}},
	}, nil
}

// activateInput is the input of activate_skill; the SDK has validated it
// against the tool's schema (an enum of the model-invocable slugs) before
// activate sees it.
type activateInput struct {
	Name string `json:"name"`
}

func (h *handler) activate(_ context.Context, _ *mcp.CallToolRequest, in activateInput) (*mcp.CallToolResult, any, error) {
	dir := ""
	if w, ok := h.r.Lookup(in.Name); ok && w.Source.Kind == runtime.KindSkill {
		dir = scheme + in.Name
	}
	text, err := h.r.Activate(in.Name, dir)
	if err != nil { // the schema's enum lets only model-invocable slugs through
		return nil, nil, fmt.Errorf("activate_skill %q: %w", in.Name, err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}
