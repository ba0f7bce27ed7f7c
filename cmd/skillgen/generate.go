package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// generate writes the package: what go generate runs.
func (c *cli) generate(args []string) int {
	fs := c.newFlags(c.cmd)
	var p pipelineFlags
	p.register(c, fs)
	if code, ok := c.parsePipeline(fs, &p, args); !ok {
		return code
	}
	p.cfg.CacheDir = hashCacheDir()
	res, code, ok := c.compile(p.cfg)
	if !ok {
		return code
	}
	rep, err := res.Write()
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(c.stderr, "%s: warning: %s\n", c.rel(res.Out), w)
	}
	fmt.Fprintf(c.stderr, "skillgen: %s; %d written, %d removed in %s\n",
		summary(res.Summary), len(rep.Written), len(rep.Removed), c.rel(res.Out))
	return exitOK
}

// hashCacheDir is where generate keeps its cache of file hashes:
// $SKILLGEN_CACHE, else the user's cache directory; SKILLGEN_CACHE=off
// turns it off. check never uses it.
func hashCacheDir() string {
	switch dir := os.Getenv("SKILLGEN_CACHE"); dir {
	case "off":
		return ""
	case "":
		if base, err := os.UserCacheDir(); err == nil {
			return filepath.Join(base, "skillgen")
		}
		return ""
	default:
		return dir
	}
}
