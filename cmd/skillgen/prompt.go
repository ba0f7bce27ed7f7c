package main

import (
	"encoding/json"
	"fmt"
)

// prompt prints what the generated package's Registry gives a model: the
// Resident block, SkillsXML for a root, or the activation tool as JSON.
// It renders no Go.
func (c *cli) prompt(args []string) int {
	fs := c.newFlags(c.cmd)
	var p pipelineFlags
	p.register(c, fs)
	format, root := "resident", "."
	fs.StringVar(&format, "format", format, "")
	fs.StringVar(&root, "root", root, "")
	fs.IntVar(&p.cfg.CatalogBudget, "budget", 0, "")
	if code, ok := c.parsePipeline(fs, &p, args); !ok {
		return code
	}
	if format != "resident" && format != "xml" && format != "tool" {
		return c.usageError("-format must be resident, xml or tool, not %q", format)
	}
	if p.cfg.Package == "" {
		p.cfg.Package = "skills" // no Go code is printed; see list
	}
	res, code, ok := c.compile(p.cfg)
	if !ok {
		return code
	}
	r := res.Registry()
	switch format {
	case "xml":
		fmt.Fprintln(c.stdout, r.SkillsXML(root))
	case "tool":
		tool, ok := r.ActivationTool()
		if !ok {
			fmt.Fprintln(c.stderr, "skillgen: no workflow is model-invocable: there is no activation tool")
			return exitOK
		}
		out, _ := json.MarshalIndent(struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}{tool.Name, tool.Description, json.RawMessage(tool.InputSchema)}, "", "  ")
		fmt.Fprintln(c.stdout, string(out))
	default:
		fmt.Fprint(c.stdout, r.Resident())
	}
	return exitOK
}
