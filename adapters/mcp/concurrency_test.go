package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
)

// TestConcurrentClients connects 50 clients to one server at once; each
// does a full round (every page of resources, reads of several files,
// every prompt, the tool, skills/list, errors) and checks every answer.
// Between them the clients read every file. Run with -race.
func TestConcurrentClients(t *testing.T) {
	r := fixtureRegistry()
	files := fsFiles(t, r.FS())
	s, err := skillmcp.NewServer(&mcp.Implementation{Name: "shared"}, r, &mcp.ServerOptions{PageSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	const clients = 50
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = connectTo(t, s, nil)
	}

	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := round(cs, i, files); err != nil {
				errs <- fmt.Errorf("client %d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// round is one client's full round against the fixture registry.
func round(cs *mcp.ClientSession, i int, files map[string][]byte) error {
	ctx := context.Background()
	var listed []*mcp.Resource
	for res, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return err
		}
		listed = append(listed, res)
	}
	if len(listed) != len(files) {
		return fmt.Errorf("%d resources, want %d", len(listed), len(files))
	}
	for j := range 5 { // client i reads files 5i … 5i+4, wrapping around
		res := listed[(5*i+j)%len(listed)]
		got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: res.URI})
		if err != nil {
			return fmt.Errorf("read %s: %w", res.URI, err)
		}
		name := res.Name
		if res.Description != "" { // a SKILL.md, named by its slug
			name += "/SKILL.md"
		}
		if want, ok := files[name]; !ok || !bytes.Equal(contentBytes(got.Contents[0]), want) {
			return fmt.Errorf("read %s: %q, want %q", res.URI, contentBytes(got.Contents[0]), want)
		}
	}

	args := fmt.Sprintf("client-%d 'word %d'", i, i)
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "user-only", Arguments: map[string]string{"args": args}})
	if err != nil {
		return err
	}
	if want := fmt.Sprintf("Deploy client-%d to word %d (%s).\n", i, i, args); p.Messages[0].Content.(*mcp.TextContent).Text != want {
		return fmt.Errorf("prompt: %q, want %q", p.Messages[0].Content.(*mcp.TextContent).Text, want)
	}
	for _, name := range []string{"odd-names", "both", "a", "a-b", "user-only"} {
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name}); err != nil {
			return fmt.Errorf("prompt %s: %w", name, err)
		}
	}

	tool, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": "a-b"}})
	if err != nil || tool.IsError {
		return fmt.Errorf("activate: %+v %v", tool, err)
	}
	if want, _ := fixtureRegistry().Activate("a-b", "skill://a-b"); tool.Content[0].(*mcp.TextContent).Text != want {
		return fmt.Errorf("activate: %q, want %q", tool.Content[0].(*mcp.TextContent).Text, want)
	}
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": "nope"}})
	if err != nil || !bad.IsError {
		return fmt.Errorf("activate nope: %+v %v, want isError", bad, err)
	}

	list, err := mcp.CallCustomMethod[*skillmcp.ListSkillsParams, *skillmcp.ListSkillsResult](ctx, cs, "skills/list", &skillmcp.ListSkillsParams{})
	if err != nil || len(list.Skills) != 4 {
		return fmt.Errorf("skills/list: %+v %v, want 4 skills", list, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://odd-names/../a/SKILL.md"}); wireCode(err) != -32602 {
		return fmt.Errorf("traversal: %v, want -32602", err)
	}
	return nil
}
