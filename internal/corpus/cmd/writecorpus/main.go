// Command writecorpus writes a synthetic workspace of skills (see package
// corpus) and prints what skillgen is expected to make of it, so that a
// figure measured on the corpus can be reproduced by hand:
//
//	go run ./internal/corpus/cmd/writecorpus -out /tmp/corpus
//	cd /tmp/corpus && skillgen validate .claude/skills vendor/anthropic-skills vendor/community-skills team/skills
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/skillgen/skillgen/internal/corpus"
)

func main() {
	out := flag.String("out", "", "directory to write the corpus into (must be empty or not exist)")
	skills := flag.Int("skills", 1000, "skill directories")
	seed := flag.Uint64("seed", 1, "corpus seed")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 || *skills <= 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/corpus/cmd/writecorpus -out dir [-skills n] [-seed n]")
		os.Exit(2)
	}
	st, err := corpus.Write(*out, corpus.Options{Seed: *seed, Skills: *skills})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d skill dirs (%d files, %d bytes) and %d in-house workflows into %s\n",
		st.Skills, st.Files, st.Bytes, len(st.Workflows), *out)
	fmt.Printf("expected: %d ingested, %d shadowed, %d invalid, %d broken links (of %d relative links)\n",
		len(st.Ingested), len(st.Shadowed), len(st.Invalid), len(st.BrokenLinks), st.Links+len(st.BrokenLinks))
	fmt.Printf("skill roots: %s\n", strings.Join(st.Roots, " "))
}
