package main

import (
	"fmt"
	"path/filepath"
)

// check runs generate's pipeline and plan, and writes nothing: exit 1 when
// the output is stale.
func (c *cli) check(args []string) int {
	fs := c.newFlags(c.cmd)
	var p pipelineFlags
	p.register(c, fs)
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
		fmt.Fprintf(c.stderr, "%s: warning: leftover of an interrupted run; the next generate removes it\n", c.rel(filepath.Join(res.Out, l)))
	}
	for _, ch := range rep.Changes {
		fmt.Fprintf(c.stderr, "%s: %s\n", c.rel(filepath.Join(res.Out, ch.Path)), ch.Kind)
	}
	if rep.Stale() {
		fmt.Fprintf(c.stderr, "skillgen: %s is stale: %d file(s) differ, are missing or are extra; run go generate\n", c.rel(res.Out), len(rep.Changes))
		return exitFail
	}
	fmt.Fprintf(c.stderr, "skillgen: %s; %s is up to date\n", summary(res.Summary), c.rel(res.Out))
	return exitOK
}
