package eino_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/cloudwego/eino/adk/middlewares/skill"
	"github.com/cloudwego/eino/components/tool"

	"github.com/skillgen/skillgen/adapters/eino"
	"github.com/skillgen/skillgen/examples/agent/skills"
)

// The README's snippet: eino's skill middleware over the bundled example's
// registry, and its tool called the way the agent calls it when the model
// asks for a skill.
func Example() {
	ctx := context.Background()

	// The skill files are written here, once, when the model first loads a skill.
	dir, err := os.MkdirTemp("", "agent-skills-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	mw, err := skill.New(ctx, &skill.Config{Backend: eino.NewBackend(skills.Registry, dir)})
	if err != nil {
		log.Fatal(err)
	}
	// An agent takes the middleware as it is:
	//   adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{..., Middlewares: []adk.AgentMiddleware{mw}})
	// Here we call its tool as the agent does when the model asks for pdf-tools.
	skillTool := mw.AdditionalTools[0].(tool.InvokableTool)
	info, err := skillTool.Info(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Name, strings.Count(info.Desc, "<skill>"), "skills in the catalog")

	out, err := skillTool.InvokableRun(ctx, `{"skill":"pdf-tools"}`)
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Launching") || strings.HasPrefix(line, "Base directory") ||
			strings.HasPrefix(line, "  <file>") {
			fmt.Println(strings.ReplaceAll(line, dir, "$DIR"))
		}
	}
	script, err := os.Stat(filepath.Join(dir, "pdf-tools", "scripts", "extract_text.sh"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(script.Mode())
	// Output:
	// skill 4 skills in the catalog
	// Launching skill: pdf-tools
	// Base directory for this skill: $DIR/pdf-tools
	//   <file>assets/form-template.txt</file>
	//   <file>references/REFERENCE.md</file>
	//   <file>scripts/extract_text.sh</file>
	// -rwxr-xr-x
}
