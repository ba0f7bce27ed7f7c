package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runAsServer makes the test binary run main, so that the test can start
// the server as a subprocess and talk to it over stdio.
const runAsServer = "SKILLGEN_MCP_SERVER_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runAsServer) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestServer starts the server as a subprocess and checks, with the Go
// SDK's client over stdio, one resource, one prompt and the tool.
func TestServer(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), runAsServer+"=1")
	cmd.Stderr = os.Stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-server-test", Version: "v0.0.1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	if got := session.InitializeResult().ServerInfo.Name; got != "skillgen-example" {
		t.Errorf("server %q, want skillgen-example", got)
	}

	res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://data-analysis/assets/sample.csv"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../agent/shared-skills/data-analysis/assets/sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Contents[0]; c.Text != string(want) || c.MIMEType != "text/csv" {
		t.Errorf("sample.csv: %+v, want the file's bytes as text/csv", c)
	}

	prompt, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "standup", Arguments: map[string]string{"args": "backend only"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := prompt.Messages[0].Content.(*mcp.TextContent).Text; !strings.HasPrefix(text, "List the commits merged since yesterday") || !strings.HasSuffix(text, "\n\nARGUMENTS: backend only") {
		t.Errorf("standup prompt: %q", text)
	}

	tool, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "activate_skill", Arguments: map[string]any{"name": "pdf-tools"}})
	if err != nil || tool.IsError {
		t.Fatalf("activate_skill: %+v %v", tool, err)
	}
	if text := tool.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, `<skill_content name="pdf-tools">`) || !strings.Contains(text, "Skill directory: skill://pdf-tools\n") || !strings.Contains(text, "<file>scripts/extract_text.sh</file>") {
		t.Errorf("activate_skill pdf-tools: %q", text)
	}
}

// TestRootReadme: the repository's README shows this program as it is.
func TestRootReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, code, ok := strings.Cut(string(src), "\nimport (")
	if !ok {
		t.Fatal("main.go has no import block")
	}
	if want := "```go\npackage main\n\nimport (" + code + "```\n"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not show main.go as it is; want it to contain:\n%s", want)
	}
}
