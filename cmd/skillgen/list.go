package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/skillgen/skillgen/gen"
)

// list prints the resolved table: every workflow and skill considered, and
// what became of it. It renders no Go.
func (c *cli) list(args []string) int {
	fs := c.newFlags(c.cmd)
	var p pipelineFlags
	p.register(c, fs)
	if code, ok := c.parsePipeline(fs, &p, args); !ok {
		return code
	}
	if p.cfg.Package == "" {
		// No Go code is printed: a directory whose name is not an
		// identifier (a repo root such as my-agent) must not stop it.
		p.cfg.Package = "skills"
	}
	res, code, ok := c.compile(p.cfg)
	if !ok {
		return code
	}
	c.printEntries(res.Entries)
	fmt.Fprintf(c.stderr, "skillgen: %s\n", summary(res.Summary))
	return exitOK
}

func (c *cli) printEntries(entries []gen.ListEntry) {
	if c.json {
		enc := json.NewEncoder(c.stdout)
		for _, e := range entries {
			enc.Encode(e)
		}
		return
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SLUG\tSTATUS\tKIND\tSOURCE\tMODEL\tUSER\tFILES\tNOTE")
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for _, e := range entries {
		note := e.Reason
		if e.By != nil {
			note = fmt.Sprintf("shadowed by %s %s", e.By.Kind, e.By.Path)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", e.Slug, e.Status, e.Source.Kind, e.Source.Path,
			yes(e.ModelInvocation), yes(e.UserInvocable), e.Files, note)
	}
	tw.Flush()
}
