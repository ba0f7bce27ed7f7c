// Command agent is a minimal host of a skillgen package: it serves the
// Workflows and skill files compiled into ./skills, with no skill files on
// disk and no scan at start-up.
//
//	agent                 print the resident prompt block, the table,
//	                      the build-time notifications and the grants
//	agent /<slug> [args]  print the workflow's body (and its arguments)
//	agent -activate name  print what a model reads when it activates name
//	agent -materialize d  write the skill files under d and print the grants
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/skillgen/skillgen/examples/agent/skills"
)

func main() {
	args := os.Args[1:]
	switch {
	case len(args) == 0:
		overview()
	case args[0] == "-activate" && len(args) == 2:
		// What the activation tool answers; the files are served as skill://.
		content, err := skills.Registry.Activate(args[1], "skill://"+args[1])
		if err != nil {
			fmt.Fprintf(os.Stderr, "agent: %s: %v\n", args[1], err)
			os.Exit(1)
		}
		fmt.Print(content)
	case args[0] == "-materialize" && len(args) == 2:
		grants, err := skills.Registry.Materialize(args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "agent:", err)
			os.Exit(1)
		}
		for _, g := range grants {
			fmt.Printf("%s %s recursive=%t\n", g.Permission, g.Target, g.Recursive)
		}
	default:
		w, rest, err := skills.Registry.Invoke(strings.Join(args, " "))
		if err != nil {
			fmt.Fprintf(os.Stderr, "agent: %s: %v\n", args[0], err)
			os.Exit(1)
		}
		fmt.Printf("# /%s (%s %s)\n", w.Slug, w.Source.Kind, w.Source.Path)
		if rest != "" {
			fmt.Printf("# arguments: %s\n", rest)
		}
		fmt.Print(w.Body)
	}
}

func overview() {
	r := skills.Registry
	fmt.Print(r.Resident())

	fmt.Println("\n## Table")
	for _, w := range r.Workflows() {
		fmt.Printf("/%-14s %-8s model=%-5t user=%-5t files=%d  %s\n",
			w.Slug, w.Source.Kind, w.ModelInvocation, w.UserInvocable, len(w.Files), w.Source.Path)
	}

	fmt.Println("\n## Notifications")
	for _, n := range r.Notifications() {
		fmt.Printf("[%s] %s\n", n.Code, n.Message)
	}

	fmt.Println("\n## Grants")
	for _, g := range r.Grants() {
		fmt.Printf("%s %s/ recursive=%t\n", g.Permission, g.Target, g.Recursive)
	}
}
