package mcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
	"github.com/skillgen/skillgen/examples/agent/skills"
)

// The README shows this function's body as its program (TestREADME keeps
// the two the same).
func Example() {
	ctx := context.Background()
	server, err := skillmcp.NewServer(&mcp.Implementation{Name: "agent-skills", Version: "v1.0.0"}, skills.Registry, nil)
	if err != nil {
		log.Fatal(err)
	}
	// A host serves it on stdio: server.Run(ctx, &mcp.StdioTransport{}).
	// Here a client in the same process connects to it in memory.
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverEnd, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "v1.0.0"}, nil)
	session, err := client.Connect(ctx, clientEnd, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	for res, err := range session.Resources(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.URI, res.MIMEType)
	}
	prompt, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "release", Arguments: map[string]string{"args": "v1.2.0"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", prompt.Messages[0].Content.(*mcp.TextContent).Text)
	tool, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": "code-review"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(tool.Content[0].(*mcp.TextContent).Text)
	// Output:
	// skill://code-review/SKILL.md text/markdown
	// skill://code-review/references/checklist.md text/markdown
	// skill://code-review/scripts/lint.py text/x-python
	// skill://data-analysis/SKILL.md text/markdown
	// skill://data-analysis/assets/sample.csv text/csv
	// skill://data-analysis/references/pandas.md text/markdown
	// skill://data-analysis/scripts/summarize.py text/x-python
	// skill://pdf-tools/SKILL.md text/markdown
	// skill://pdf-tools/assets/form-template.txt text/plain
	// skill://pdf-tools/references/REFERENCE.md text/markdown
	// skill://pdf-tools/scripts/extract_text.sh text/x-shellscript
	// "# Release\n\n1. Check that `main` is green.\n2. Update CHANGELOG.md from the merged pull requests since the last tag.\n3. Tag `vX.Y.Z`, push the tag, and post the announcement.\n\nARGUMENTS: v1.2.0"
	// <skill_content name="code-review">
	// # Code review
	//
	// 1. Read the diff (`git diff origin/main...`).
	// 2. Go through [the checklist](references/checklist.md).
	// 3. Run `scripts/lint.py` on the changed files and report what it finds.
	//
	// Skill directory: skill://code-review
	// Relative paths in this skill are relative to the skill directory.
	//
	// <skill_resources>
	//   <file>references/checklist.md</file>
	//   <file>scripts/lint.py</file>
	// </skill_resources>
	// </skill_content>
}
