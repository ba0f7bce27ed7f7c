// Command skillgen compiles Agent Skills and a workspace's own Workflows
// into a Go package, at build time.
//
//	skillgen [generate] [flags]   write the package (what //go:generate runs)
//	skillgen check      [flags]   same pipeline, writes nothing; exit 1 if stale
//	skillgen list       [flags]   the resolved table
//	skillgen prompt     [flags] [-format resident|xml] [-root dir]
//	skillgen validate   [-json] PATH...
//	skillgen version
//
// Exit status: 0 ok (warnings allowed), 1 errors or stale output, 2 usage.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/skillgen/skillgen/gen"
	"github.com/skillgen/skillgen/runtime"
)

const usage = `usage:
  skillgen [generate] [flags]   write the generated package (what //go:generate runs)
  skillgen check      [flags]   same pipeline, writes nothing; exit 1 if the output is stale
  skillgen list       [flags]   print the resolved table: slug, source, flags, shadowed/skipped
  skillgen prompt     [flags] [-format resident|xml] [-root dir]
  skillgen validate   [-json] PATH...   PATH: a skill directory, a SKILL.md, or a root of skill dirs
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
  -max-file-size n   per-file cap in bytes (default 33554432)
  -max-total-size n  cap on all skill files together in bytes (default 536870912)

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
	json           bool
}

func run(args []string, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr}
	cmd := "generate"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	c.cmd = cmd
	switch cmd {
	case "generate", "check", "list", "prompt":
		return c.pipeline(cmd, args)
	case "validate":
		return c.validate(args)
	case "version":
		fmt.Fprintf(stdout, "skillgen %s (generated code version %d)\n", version(), runtime.GenVersion)
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
	return 0, true
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

func (c *cli) pipeline(cmd string, args []string) int {
	fs := c.newFlags(cmd)
	var (
		cfg       gen.Config
		manifests multiFlag
		format    = "resident"
		root      = "."
	)
	fs.StringVar(&cfg.Dir, "C", "", "")
	fs.Var(&manifests, "manifest", "")
	fs.StringVar(&cfg.Workspace, "workspace", "", "")
	fs.StringVar(&cfg.Out, "out", "", "")
	fs.StringVar(&cfg.Package, "pkg", os.Getenv("GOPACKAGE"), "")
	fs.BoolVar(&cfg.Strict, "strict", false, "")
	fs.BoolVar(&cfg.Hidden, "hidden", false, "")
	fs.BoolVar(&c.json, "json", false, "")
	fs.Int64Var(&cfg.MaxFileSize, "max-file-size", gen.DefaultMaxFileSize, "")
	fs.Int64Var(&cfg.MaxTotalSize, "max-total-size", gen.DefaultMaxTotalSize, "")
	if cmd == "prompt" {
		fs.StringVar(&format, "format", format, "")
		fs.StringVar(&root, "root", root, "")
	}
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return c.usageError("%s takes no arguments, got %q", cmd, fs.Args())
	}
	if format != "resident" && format != "xml" {
		return c.usageError("-format must be resident or xml, not %q", format)
	}
	if p := cfg.Package; p != "" && (!token.IsIdentifier(p) || token.IsKeyword(p) || p == "_") {
		return c.usageError("invalid package name %q", p)
	}
	if cfg.MaxFileSize <= 0 || cfg.MaxTotalSize <= 0 {
		return c.usageError("size caps must be positive")
	}
	cfg.Manifests = manifests
	if (cmd == "list" || cmd == "prompt") && cfg.Package == "" {
		// They print no Go code: a directory whose name is not an
		// identifier (a repo root such as my-agent) must not stop them.
		cfg.Package = "skills"
	}

	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail
	}
	if cfg.Dir != "" {
		if info, err := os.Stat(cfg.Dir); err != nil || !info.IsDir() {
			return c.usageError("-C %s: not a directory", cfg.Dir)
		}
		cfg.Dir, _ = filepath.Abs(cfg.Dir)
		wd = cfg.Dir
	}
	c.wd = wd

	if cmd == "generate" {
		cfg.CacheDir = hashCacheDir()
	}
	res, err := gen.Generate(cfg)
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail
	}
	c.printDiagnostics(res.Diagnostics)
	if !res.OK() {
		fmt.Fprintf(c.stderr, "skillgen: %s failed: %s; nothing was written\n", cmd, countErrors(res.Diagnostics))
		return exitFail
	}

	switch cmd {
	case "generate":
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
	case "check":
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
	case "list":
		c.list(res.Entries)
		fmt.Fprintf(c.stderr, "skillgen: %s\n", summary(res.Summary))
	case "prompt":
		if format == "xml" {
			fmt.Fprintln(c.stdout, res.Registry().SkillsXML(root))
		} else {
			fmt.Fprint(c.stdout, res.Registry().Resident())
		}
	}
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

func summary(s gen.Summary) string {
	return fmt.Sprintf("%s, %s, %d shadowed, %d skipped, %s, %s",
		count(s.Workflows, "workflow"), count(s.Skills, "skill"), s.Shadowed, s.Skipped,
		count(s.Files, "file"), count(s.Bytes, "byte"))
}

// count is "1 skill", "2 skills".
func count[N int | int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func countErrors(ds []gen.Diagnostic) string {
	n := 0
	for _, d := range ds {
		if d.Severity == gen.Error {
			n++
		}
	}
	if n == 1 {
		return "1 error"
	}
	return fmt.Sprintf("%d errors", n)
}

func (c *cli) list(entries []gen.ListEntry) {
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

func (c *cli) validate(args []string) int {
	fs := c.newFlags("validate")
	fs.BoolVar(&c.json, "json", false, "")
	hidden := fs.Bool("hidden", false, "")
	// Flags may come before or after the PATHs ("validate dir -json");
	// after "--", everything is a PATH.
	var paths []string
	for rest := args; ; {
		if code, ok := c.parse(fs, rest); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		if at := len(rest) - fs.NArg(); at > 0 && rest[at-1] == "--" {
			paths = append(paths, fs.Args()...)
			break
		}
		paths = append(paths, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(paths) == 0 {
		return c.usageError("validate needs at least one PATH")
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(c.stderr, "skillgen: %v\n", err)
		return exitFail
	}
	c.wd = wd
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return c.usageError("validate: %s: no such file or directory", p)
		}
	}
	results, diags, missing := gen.Validate(paths, *hidden)
	if len(missing) > 0 { // removed between the check above and now
		return c.usageError("validate: %s: no such file or directory", missing[0])
	}
	c.printDiagnostics(diags)
	invalid := 0
	for _, r := range results {
		if !r.Valid {
			invalid++
		}
	}
	fmt.Fprintf(c.stderr, "skillgen: %s checked, %d valid, %d invalid\n", count(len(results), "skill"), len(results)-invalid, invalid)
	for _, d := range diags {
		if d.Severity == gen.Error {
			return exitFail
		}
	}
	return exitOK
}

// jsonDiagnostic is the -json line format (DESIGN §6).
type jsonDiagnostic struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Skill    string `json:"skill"`
	Message  string `json:"message"`
}

func (c *cli) printDiagnostics(ds []gen.Diagnostic) {
	// Sorted by the path as printed: PATHs given in other spellings
	// ("./a", "/abs/a", "b/../a") must not scatter the output.
	files := make([]string, len(ds))
	order := make([]int, len(ds))
	for i, d := range ds {
		files[i], order[i] = c.rel(d.File), i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(strings.Compare(files[i], files[j]), cmp.Compare(ds[i].Line, ds[j].Line), cmp.Compare(ds[i].Col, ds[j].Col))
	})
	// JSON diagnostics go to stdout, except where stdout carries the
	// command's own output (list's rows, prompt's text).
	out := c.stdout
	if c.cmd == "list" || c.cmd == "prompt" {
		out = c.stderr
	}
	enc := json.NewEncoder(out)
	for _, i := range order {
		d, file := ds[i], files[i]
		if c.json {
			enc.Encode(jsonDiagnostic{d.Severity.String(), d.Code, file, d.Line, d.Col, d.Skill, d.Message})
			continue
		}
		if file == "" {
			file = "skillgen"
		}
		fmt.Fprintf(c.stderr, "%s:%d:%d: %s: %s [%s]\n", file, d.Line, d.Col, d.Severity, d.Message, d.Code)
	}
}

// rel makes a path relative to the working directory when it is below it,
// else absolute; always slash-separated.
func (c *cli) rel(p string) string {
	if p == "" {
		return ""
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.wd, p)
	}
	if r, err := filepath.Rel(c.wd, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}
