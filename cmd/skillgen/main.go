// Command skillgen compiles Agent Skills and a workspace's own Workflows
// into a Go package, at build time.
//
//	skillgen [generate] [flags]   write the package (what //go:generate runs)
//	skillgen check      [flags]   same pipeline, writes nothing; exit 1 if stale
//	skillgen list       [flags]   the resolved table
//	skillgen prompt     [flags] [-format resident|xml|tool] [-root dir] [-budget n]
//	skillgen validate   [-json|-format f] PATH...
//	skillgen version
//
// Exit status: 0 ok (warnings allowed), 1 errors or stale output, 2 usage.
// Each command is in a file of its own; see README.md, "Command line".
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

const usage = `usage:
  skillgen [generate] [flags]   write the generated package (what //go:generate runs)
  skillgen check      [flags]   same pipeline, writes nothing; exit 1 if the output is stale
  skillgen list       [flags]   print the resolved table: slug, source, flags, shadowed/skipped
  skillgen prompt     [flags] [-format resident|xml|tool] [-root dir] [-budget n]
  skillgen validate   [-json|-format f] PATH...   PATH: a skill directory, a SKILL.md, or a root of skill dirs
  skillgen version

flags of generate, check, list and prompt:
  -C dir             run as if started in dir
  -manifest file     a manifest layer (repeatable); default: walk up to .insomnia/manifest.toml
  -workspace dir     the workspace; default: the directory holding .insomnia
  -out dir           output directory (default ".")
  -pkg name          package name (default $GOPACKAGE, else the base name of -out)
  -strict            a skipped skill or a missing skills directory fails the run
  -hidden            embed dot-files and dot-directories of skills
  -json              diagnostics (and list rows) as JSON lines on stdout
  -format f          generate, check, validate: diagnostics as text (default, on stderr), json
                     (the same as -json) or github (GitHub Actions workflow commands on stdout)
  -max-file-size n   per-file cap in bytes (default 33554432)
  -max-total-size n  cap on all skill files together in bytes (default 536870912)
  -catalog-budget n  fit the catalog (Resident, the activation tool, SkillsXML) to n characters
  -watch             generate: write, then again whenever an input changes, until Ctrl-C

exit status: 0 ok (warnings allowed), 1 errors or stale output, 2 usage
`

func main() {
	// skillgen is a short-lived process that keeps most of what it
	// allocates (skill texts, the table) until it exits; collecting early
	// only costs time. GOGC, when set, still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// Diagnostics can run to thousands of lines: write them in blocks.
	stdout, stderr := bufio.NewWriter(os.Stdout), bufio.NewWriter(os.Stderr)
	code := run(os.Args[1:], stdout, stderr)
	stdout.Flush()
	stderr.Flush()
	os.Exit(code)
}

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// cli carries what every subcommand prints to.
type cli struct {
	stdout, stderr io.Writer
	cmd            string // the subcommand, for its usage line
	wd             string // diagnostics' paths are made relative to it
	startDir       string // where skillgen was started: -format github's paths are relative to it
	json           bool   // -json
	format         string // -format of generate, check and validate: text, json or github
	hasFormat      bool   // the command has -format
	unworkable     bool   // the configuration cannot work whatever the inputs (gen.Generate's error)
}

func run(args []string, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr}
	c.startDir, _ = os.Getwd()
	cmd := "generate"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	c.cmd = cmd
	switch cmd {
	case "generate":
		return c.generate(args)
	case "check":
		return c.check(args)
	case "list":
		return c.list(args)
	case "prompt":
		return c.prompt(args)
	case "validate":
		return c.validate(args)
	case "version":
		fmt.Fprintf(stdout, "skillgen %s (generated code version %d)\n", version(), skillgenimpl.GenVersion)
		return exitOK
	case "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "skillgen: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
