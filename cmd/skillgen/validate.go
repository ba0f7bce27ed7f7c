package main

import (
	"fmt"
	"os"

	"github.com/skillgen/skillgen/gen"
)

// validate checks skills against the Agent Skills format: a SKILL.md, a
// skill directory, or a root of skill directories per PATH.
func (c *cli) validate(args []string) int {
	fs := c.newFlags("validate")
	fs.BoolVar(&c.json, "json", false, "")
	c.registerFormat(fs)
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
