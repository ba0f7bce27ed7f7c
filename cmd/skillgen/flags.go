package main

import (
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillgen/skillgen/gen"
)

// newFlags makes a FlagSet whose errors are usage errors.
func (c *cli) newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("skillgen "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses flags; it returns an exit code when the command must stop.
func (c *cli) parse(fs *flag.FlagSet, args []string) (int, bool) {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, usage)
		return exitOK, false
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n\n%s", err, shortUsage(c.cmd))
		return exitUsage, false
	}
	if c.hasFormat {
		given := false
		fs.Visit(func(f *flag.Flag) { given = given || f.Name == "format" })
		switch {
		case !given:
		case c.format != "text" && c.format != "json" && c.format != "github":
			return c.usageError("-format must be text, json or github, not %q", c.format), false
		case c.json && c.format != "json":
			// -json is -format json, kept as it always was.
			return c.usageError("-json and -format %s contradict each other", c.format), false
		}
		if c.format == "json" {
			c.json = true
		}
	}
	return 0, true
}

// registerFormat adds -format (diagnostics as text, json or github) to the
// flags of generate, check and validate. list has -json only, and prompt's
// -format chooses what it prints.
func (c *cli) registerFormat(fs *flag.FlagSet) {
	c.hasFormat = true
	fs.StringVar(&c.format, "format", "text", "")
}

func (c *cli) usageError(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "skillgen: "+format+"\n\n%s", append(args, shortUsage(c.cmd))...)
	return exitUsage
}

// shortUsage is what a usage error prints: the command's own line of the
// usage and where to find the rest.
func shortUsage(cmd string) string {
	for _, line := range strings.Split(usage, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "skillgen" && strings.Trim(f[1], "[]") == cmd {
			return "usage:\n" + line + "\nrun 'skillgen -h' for every command and flag\n"
		}
	}
	return usage
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// pipelineFlags are the flags of generate, check, list and prompt: they
// all run the same pipeline.
type pipelineFlags struct {
	cfg       gen.Config
	manifests multiFlag
}

// register adds the pipeline's flags to fs.
func (p *pipelineFlags) register(c *cli, fs *flag.FlagSet) {
	cfg := &p.cfg
	fs.StringVar(&cfg.Dir, "C", "", "")
	fs.Var(&p.manifests, "manifest", "")
	fs.StringVar(&cfg.Workspace, "workspace", "", "")
	fs.StringVar(&cfg.Out, "out", "", "")
	fs.StringVar(&cfg.Package, "pkg", os.Getenv("GOPACKAGE"), "")
	fs.BoolVar(&cfg.Strict, "strict", false, "")
	fs.BoolVar(&cfg.Hidden, "hidden", false, "")
	fs.BoolVar(&c.json, "json", false, "")
	fs.Int64Var(&cfg.MaxFileSize, "max-file-size", gen.DefaultMaxFileSize, "")
	fs.Int64Var(&cfg.MaxTotalSize, "max-total-size", gen.DefaultMaxTotalSize, "")
	if c.cmd != "prompt" { // prompt has -budget
		fs.IntVar(&cfg.CatalogBudget, "catalog-budget", 0, "")
	}
}

// parsePipeline parses the pipeline's flags (and any the command added to
// fs) and checks them; it returns an exit code when the command must stop.
func (c *cli) parsePipeline(fs *flag.FlagSet, p *pipelineFlags, args []string) (int, bool) {
	if code, ok := c.parse(fs, args); !ok {
		return code, false
	}
	cfg := &p.cfg
	switch {
	case fs.NArg() > 0:
		return c.usageError("%s takes no arguments, got %q", c.cmd, fs.Args()), false
	case cfg.Package != "" && (!token.IsIdentifier(cfg.Package) || token.IsKeyword(cfg.Package) || cfg.Package == "_"):
		return c.usageError("invalid package name %q", cfg.Package), false
	case cfg.MaxFileSize <= 0 || cfg.MaxTotalSize <= 0:
		return c.usageError("size caps must be positive"), false
	case cfg.CatalogBudget < 0:
		return c.usageError("the catalog budget must not be negative"), false
	}
	cfg.Manifests = p.manifests
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail, false
	}
	if cfg.Dir != "" {
		if info, err := os.Stat(cfg.Dir); err != nil || !info.IsDir() {
			return c.usageError("-C %s: not a directory", cfg.Dir), false
		}
		cfg.Dir, _ = filepath.Abs(cfg.Dir)
		wd = cfg.Dir
	}
	c.wd = wd
	return 0, true
}

// compile runs the pipeline and prints its diagnostics; it returns an
// exit code when the command must stop.
func (c *cli) compile(cfg gen.Config) (*gen.Result, int, bool) {
	res, err := gen.Generate(cfg)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		c.unworkable = true
		return nil, exitFail, false
	}
	c.printDiagnostics(res.Diagnostics)
	if !res.OK() {
		fmt.Fprintf(c.stderr, "skillgen: %s failed: %s; nothing was written\n", c.cmd, countErrors(res.Diagnostics))
		return nil, exitFail, false
	}
	return res, 0, true
}
