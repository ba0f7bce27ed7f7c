package mcp_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	skillmcp "github.com/skillgen/skillgen/adapters/mcp"
)

// serverEnv makes the test binary an MCP server of the fixture registry
// over stdio, for clients that start it as a subprocess.
const serverEnv = "SKILLGEN_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "stdio" {
		s, err := skillmcp.NewServer(&mcp.Implementation{Name: "skillgen-fixture", Version: "v0.0.1"}, fixtureRegistry(), &mcp.ServerOptions{PageSize: 5})
		if err == nil {
			err = s.Run(context.Background(), &mcp.StdioTransport{})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// nodeOutput is what testdata/node/client.mjs prints.
type nodeOutput struct {
	Server       mcp.Implementation      `json:"server"`
	Capabilities mcp.ServerCapabilities  `json:"capabilities"`
	Pages        int                     `json:"pages"`
	Resources    []mcp.Resource          `json:"resources"`
	Contents     map[string]nodeContents `json:"contents"`
	Prompts      []mcp.Prompt            `json:"prompts"`
	Prompt       struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Type, Text string
			} `json:"content"`
		} `json:"messages"`
	} `json:"prompt"`
	Tools     []mcp.Tool     `json:"tools"`
	Tool      nodeToolResult `json:"tool"`
	ToolError nodeToolResult `json:"toolError"`
	Skills    struct {
		Skills []skillmcp.Skill `json:"skills"`
	} `json:"skills"`
	Errors map[string]struct {
		Code     int             `json:"code"`
		Message  string          `json:"message"`
		Resolved json.RawMessage `json:"resolved"`
	} `json:"errors"`
}

type nodeContents struct {
	Kind, URI, MIMEType, Base64 string
}

type nodeToolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type, Text string
	} `json:"content"`
}

// TestNodeClient runs a client that is not written here, the official
// TypeScript SDK (pinned in testdata/node/package-lock.json), against this
// test binary serving the fixture registry over stdio.
func TestNodeClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the Node.js client (npm ci)")
	}
	node, errNode := exec.LookPath("node")
	npm, errNPM := exec.LookPath("npm")
	if errNode != nil || errNPM != nil {
		t.Skip("skipping: the TypeScript SDK client needs node and npm on the PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	modules := installNodeModules(t, ctx, npm)
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join("testdata", "node", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	run := exec.CommandContext(ctx, node, "client.mjs", self)
	run.Dir = dir
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("node client.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	var out nodeOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("client output: %v\n%s", err, stdout.String())
	}
	checkNodeOutput(t, &out)
}

// installNodeModules installs testdata/node's locked packages with npm ci
// and returns their node_modules directory. The installation is kept in
// the user's cache directory, keyed by the package files' hash, as go test
// keeps its build cache: unpacking the packages takes longer than the
// test. A run that finds no complete installation makes one in a temporary
// directory and renames it into place, so that concurrent runs never see
// half of one. Delete the skillgen-mcp-test cache directory to start over.
func installNodeModules(t *testing.T, ctx context.Context, npm string) string {
	t.Helper()
	h := sha256.New()
	var files [][]byte
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "node", f))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
		files = append(files, b)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	parent := filepath.Join(cache, "skillgen-mcp-test")
	dir := filepath.Join(parent, fmt.Sprintf("node-%x", h.Sum(nil)[:8]))
	const done = ".installed"
	if _, err := os.Stat(filepath.Join(dir, done)); err == nil {
		return filepath.Join(dir, "node_modules")
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(parent, "tmp-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp) // gone after the rename, unless this run lost the race
	for i, f := range []string{"package.json", "package-lock.json"} {
		if err := os.WriteFile(filepath.Join(tmp, f), files[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	install := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline", "--loglevel=error")
	install.Dir = tmp
	if out, err := install.CombinedOutput(); err != nil {
		if unreachable(string(out)) {
			t.Skipf("skipping: npm cannot reach its registry to install @modelcontextprotocol/sdk:\n%s", out)
		}
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, done), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, done)); err2 != nil {
			t.Fatalf("installing node modules: %v", err)
		}
		// Another run installed them first.
	}
	return filepath.Join(dir, "node_modules")
}

// unreachable reports whether npm's output says it could not reach the
// registry.
func unreachable(out string) bool {
	for _, s := range []string{"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH", "ENOTCACHED", "network"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

func checkNodeOutput(t *testing.T, out *nodeOutput) {
	r := fixtureRegistry()
	files := fsFiles(t, r.FS())
	if out.Server.Name != "skillgen-fixture" || out.Capabilities.Extensions[skillmcp.ExtensionID] == nil {
		t.Errorf("server %+v, capabilities %+v", out.Server, out.Capabilities)
	}
	if want := (len(files) + 4) / 5; out.Pages != want {
		t.Errorf("%d pages of 5, want %d", out.Pages, want)
	}
	if len(out.Resources) != len(files) {
		t.Errorf("%d resources, want %d", len(out.Resources), len(files))
	}
	seen := map[string]bool{}
	for _, o := range oddNames {
		c, ok := out.Contents[o.uri]
		if !ok {
			t.Errorf("%s was not read", o.uri)
			continue
		}
		seen[o.uri] = true
		got, err := base64.StdEncoding.DecodeString(c.Base64)
		want := files["odd-names/"+o.path]
		if err != nil || !bytes.Equal(got, want) || c.URI != o.uri {
			t.Errorf("%s: %s %q (%v), want %q", o.uri, c.Kind, got, err, want)
		}
	}
	if c := out.Contents["skill://odd-names/assets/logo.png"]; c.Kind != "blob" || c.MIMEType != "image/png" || c.Base64 != base64.StdEncoding.EncodeToString([]byte(pngBytes)) {
		t.Errorf("logo.png: %+v, want the PNG bytes as a blob", c)
	}
	if c := out.Contents["skill://odd-names/SKILL.md"]; c.Kind != "text" || c.MIMEType != "text/markdown" {
		t.Errorf("SKILL.md: %+v, want text/markdown text", c)
	}
	for uri := range out.Contents {
		if !seen[uri] && !strings.HasPrefix(uri, "skill://a") && !strings.HasPrefix(uri, "skill://model-only/") {
			t.Errorf("unexpected resource %s", uri)
		}
	}

	var prompts []string
	for _, p := range out.Prompts {
		prompts = append(prompts, p.Name)
	}
	if want := []string{"a", "a-b", "both", "odd-names", "user-only"}; !reflect.DeepEqual(prompts, want) {
		t.Errorf("prompts %q, want %q", prompts, want)
	}
	if m := out.Prompt.Messages; len(m) != 1 || m[0].Role != "user" || m[0].Content.Type != "text" || m[0].Content.Text != "Deploy api to eu west (api 'eu west').\n" {
		t.Errorf("prompt %+v", out.Prompt)
	}
	if len(out.Tools) != 1 || out.Tools[0].Name != "activate_skill" {
		t.Errorf("tools %+v", out.Tools)
	}
	want, _ := r.Activate("odd-names", "skill://odd-names")
	if out.Tool.IsError || len(out.Tool.Content) != 1 || out.Tool.Content[0].Text != want {
		t.Errorf("activate_skill: %+v, want %q", out.Tool, want)
	}
	if !out.ToolError.IsError || len(out.ToolError.Content) != 1 || !strings.Contains(out.ToolError.Content[0].Text, "no-such-skill") {
		t.Errorf("activate_skill of an unknown name: %+v, want isError", out.ToolError)
	}
	if len(out.Skills.Skills) != 4 || out.Skills.Skills[3].URI != "skill://odd-names/SKILL.md" || !reflect.DeepEqual(out.Skills.Skills[3].Frontmatter, oddFrontmatter) {
		t.Errorf("skills/list: %+v", out.Skills)
	}
	for _, name := range []string{"traversal", "backslash", "unknownPrompt", "unknownTool", "unknownSkill"} {
		if e := out.Errors[name]; e.Code != -32602 {
			t.Errorf("%s: %+v, want error -32602", name, e)
		}
	}
}
