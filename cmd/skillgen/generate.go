package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillgen/skillgen/gen"
)

// generate writes the package: what go generate runs. With -watch it
// writes it again whenever an input changes (watch.go).
func (c *cli) generate(args []string) int {
	fs := c.newFlags(c.cmd)
	var p pipelineFlags
	p.register(c, fs)
	c.registerFormat(fs)
	watch := fs.Bool("watch", false, "")
	if code, ok := c.parsePipeline(fs, &p, args); !ok {
		return code
	}
	p.cfg.CacheDir = hashCacheDir()
	if *watch {
		return c.watch(p.cfg)
	}
	return c.generateOnce(p.cfg, func() bool { return true })
}

// generateOnce compiles and writes, printing the diagnostics and the
// summary. mayWrite, asked between the two, can stop the run before it
// writes anything.
func (c *cli) generateOnce(cfg gen.Config, mayWrite func() bool) int {
	res, code, ok := c.compile(cfg)
	if !ok {
		return code
	}
	if !mayWrite() {
		return exitOK
	}
	rep, err := res.Write()
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail
	}
	for _, w := range rep.Warnings {
		if c.format == "github" {
			c.githubCommand(gen.Warning, res.Out, 0, 0, "", w)
			continue
		}
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
