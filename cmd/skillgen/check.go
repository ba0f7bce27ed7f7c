package main

import (
	"fmt"
	"path/filepath"

	"github.com/skillgen/skillgen/gen"
)

// check runs generate's pipeline and plan, and writes nothing: exit 1 when
// the output is stale.
func (c *cli) check(args []string) int {
	fs := c.newFlags(c.cmd)
	var p pipelineFlags
	p.register(c, fs)
	c.registerFormat(fs)
	if code, ok := c.parsePipeline(fs, &p, args); !ok {
		return code
	}
	res, code, ok := c.compile(p.cfg)
	if !ok {
		return code
	}
	rep, err := res.Check()
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail
	}
	for _, l := range rep.Leftovers {
		const msg = "leftover of an interrupted run; the next generate removes it"
		if c.format == "github" {
			c.githubCommand(gen.Warning, filepath.Join(res.Out, l), 0, 0, "leftover", msg)
			continue
		}
		fmt.Fprintf(c.stderr, "%s: warning: %s\n", c.rel(filepath.Join(res.Out, l)), msg)
	}
	for _, ch := range rep.Changes {
		if c.format == "github" {
			c.githubCommand(gen.Error, filepath.Join(res.Out, ch.Path), 0, 0, "stale",
				fmt.Sprintf("%s %s; run go generate", c.startRel(filepath.Join(res.Out, ch.Path)), staleWhat[ch.Kind]))
			continue
		}
		fmt.Fprintf(c.stderr, "%s: %s\n", c.rel(filepath.Join(res.Out, ch.Path)), ch.Kind)
	}
	if rep.Stale() {
		fmt.Fprintf(c.stderr, "skillgen: %s; %s is stale: %d file(s) differ, are missing or are extra; run go generate\n",
			summary(res.Summary), c.rel(res.Out), len(rep.Changes))
		return exitFail
	}
	fmt.Fprintf(c.stderr, "skillgen: %s; %s is up to date\n", summary(res.Summary), c.rel(res.Out))
	return exitOK
}

// staleWhat says what a Change's kind means, for -format github.
var staleWhat = map[string]string{
	"differs": "differs from what skillgen generates",
	"missing": "is missing",
	"extra":   "is not part of the generated package",
}
