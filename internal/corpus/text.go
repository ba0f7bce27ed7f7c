package corpus

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Vocabulary of the synthetic skills. Names are domain + action (+ topic),
// the way public collections name theirs ("pdf-form-filler").
var (
	domains = []string{
		"pdf", "docx", "xlsx", "pptx", "csv", "json", "yaml", "sql", "postgres", "mysql", "redis", "kafka",
		"k8s", "docker", "terraform", "aws", "gcp", "azure", "git", "github", "gitlab", "jira", "slack",
		"notion", "figma", "react", "vue", "svelte", "nextjs", "django", "flask", "fastapi", "rails", "go",
		"rust", "python", "typescript", "java", "kotlin", "swift", "android", "ios", "api", "graphql", "grpc",
		"openapi", "auth", "oauth", "jwt", "stripe", "billing", "invoice", "email", "calendar", "meeting",
		"release", "changelog", "incident", "oncall", "security", "secrets", "license", "i18n", "a11y", "seo",
		"analytics", "metrics", "logging", "tracing", "prometheus", "grafana", "ml", "llm", "prompt", "eval",
		"dataset", "image", "video", "audio", "svg", "canvas", "brand", "theme", "font", "diagram", "mermaid",
		"latex", "markdown", "docs", "readme", "test", "e2e", "playwright", "cypress", "jest", "pytest",
		"benchmark", "perf", "profile", "memory", "cache", "cdn", "dns", "nginx", "webhook", "cron", "backup",
		"migration", "schema", "etl", "pipeline", "notebook", "pandas", "spark", "mcp", "webapp", "slides",
	}
	actions = []string{
		"tools", "helper", "builder", "generator", "reviewer", "analyzer", "formatter", "linter", "converter",
		"extractor", "writer", "debugger", "migrator", "auditor", "planner", "assistant", "toolkit", "workflow",
		"guide", "checker", "designer", "optimizer", "scaffolder", "explorer", "reporter", "filler", "editor",
	}
	topics = []string{
		"forms", "tables", "reports", "charts", "tests", "docs", "specs", "configs", "queries", "alerts",
		"dashboards", "templates", "notes", "reviews", "releases", "budgets", "contracts", "invoices",
	}
	words = strings.Fields(`the a an of to and in for with on by from as at into over under when before after
		file files document documents table tables column columns row rows field fields value values form forms
		page pages section sections header footer style styles theme font fonts image images chart charts
		script scripts command commands option options flag flags input output result results error errors
		warning warnings request response endpoint endpoints token tokens user users team project repository
		branch commit commits change changes review reviews test tests suite case cases fixture fixtures build
		builds release releases version versions package packages module modules dependency dependencies
		config configuration environment variable variables secret secrets key keys cache index query queries
		schema schemas migration migrations record records event events log logs metric metrics trace traces
		alert alerts dashboard dashboards service services cluster clusters node nodes container containers
		image layer layers volume volumes network policy policies role roles permission permissions scope
		extract convert validate generate render parse format check update create delete merge split fill
		read write load save export import compare summarize analyze review deploy run install configure
		always never only first then also instead carefully quickly exactly safely locally remotely
		existing new current previous next final complete partial large small empty valid invalid
		required optional default custom shared internal public private structured plain rich`)
	nonASCII = []string{"naïve", "café", "résumé", "Zürich", "façade", "日本語", "データ", "文書", "Ελληνικά", "Łódź", "señal", "über"}
	langs    = []string{"bash", "python", "json", "yaml", "typescript", "go", "sql"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// between returns a uniform int in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// logBetween returns an int in [lo, hi], about log-uniformly distributed
// (a uniform octave, then uniform within it): most values are small, a few
// are large, as file sizes are. Integers only, so that a seed gives the same
// corpus on every platform.
func logBetween(r *rand.Rand, lo, hi int) int {
	octaves := 0
	for lo<<(octaves+1) <= hi {
		octaves++
	}
	if octaves == 0 {
		return between(r, lo, hi)
	}
	o := r.IntN(octaves)
	return between(r, lo<<o, min(hi, lo<<(o+1)))
}

// title upper-cases the first letter of an ASCII word.
func title(w string) string {
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return w
	}
	return string(w[0]-'a'+'A') + w[1:]
}

// sentence writes a sentence of n words: capitalised, with an occasional
// code span, comma or non-ASCII word, ending with a full stop. It never
// holds ": " or " #", so it is safe as a plain YAML scalar.
func sentence(r *rand.Rand, b *strings.Builder, n int) {
	for i := range n {
		if i > 0 {
			if r.IntN(9) == 0 {
				b.WriteByte(',')
			}
			b.WriteByte(' ')
		}
		w := pick(r, words)
		switch k := r.IntN(40); {
		case k == 0:
			w = "`" + pick(r, domains) + "-" + pick(r, actions) + "`"
		case k == 1:
			w = pick(r, nonASCII)
		case k == 2:
			w = "`--" + pick(r, words) + "`"
		}
		if i == 0 {
			w = title(w)
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
}

func paragraph(r *rand.Rand, b *strings.Builder) {
	for i := range between(r, 2, 6) {
		if i > 0 {
			b.WriteByte(' ')
		}
		sentence(r, b, between(r, 6, 22))
	}
	b.WriteString("\n\n")
}

func bullets(r *rand.Rand, b *strings.Builder, numbered bool) {
	for i := range between(r, 3, 8) {
		if numbered {
			fmt.Fprintf(b, "%d. ", i+1)
		} else {
			b.WriteString("- ")
		}
		if r.IntN(4) == 0 {
			fmt.Fprintf(b, "**%s**: ", title(pick(r, words)))
		}
		sentence(r, b, between(r, 4, 16))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
}

func codeBlock(r *rand.Rand, b *strings.Builder) {
	lang := pick(r, langs)
	b.WriteString("```" + lang + "\n")
	for range between(r, 3, 14) {
		switch lang {
		case "bash":
			fmt.Fprintf(b, "%s scripts/%s_%s.py --%s %s.%s\n", pick(r, []string{"python3", "uv run", "./"}),
				pick(r, words), pick(r, words), pick(r, words), pick(r, words), pick(r, []string{"pdf", "csv", "json", "md"}))
		case "python":
			fmt.Fprintf(b, "%s = %s(%q, %s=%d)\n", pick(r, words), pick(r, words), pick(r, words), pick(r, words), r.IntN(100))
		case "json", "yaml":
			fmt.Fprintf(b, "  %q: %q,\n", pick(r, words), pick(r, words)+"-"+pick(r, words))
		case "typescript":
			fmt.Fprintf(b, "const %s = await %s.%s(%q);\n", pick(r, words), pick(r, domains), pick(r, words), pick(r, words))
		case "go":
			fmt.Fprintf(b, "%s, err := %s.%s(ctx, %q)\n", pick(r, words), pick(r, domains), title(pick(r, words)), pick(r, words))
		case "sql":
			fmt.Fprintf(b, "SELECT %s, %s FROM %s WHERE %s = $%d;\n", pick(r, words), pick(r, words), pick(r, words), pick(r, words), r.IntN(9)+1)
		}
	}
	b.WriteString("```\n\n")
}

func table(r *rand.Rand, b *strings.Builder) {
	b.WriteString("| Option | Default | Description |\n|---|---|---|\n")
	for range between(r, 3, 9) {
		fmt.Fprintf(b, "| `--%s-%s` | `%d` | ", pick(r, words), pick(r, words), r.IntN(1000))
		sentence(r, b, between(r, 5, 12))
		b.WriteString(" |\n")
	}
	b.WriteByte('\n')
}

var sectionTitles = []string{
	"Overview", "When to use", "Instructions", "Workflow", "Examples", "Options", "Troubleshooting",
	"Best practices", "Output format", "Quick start", "Advanced usage", "Notes", "Limitations", "Reference",
}

// markdown writes a document of about size bytes: a title, then sections
// of paragraphs, lists, code blocks and tables. With rules, some sections
// are separated by a "---" line (a Markdown rule, never a frontmatter fence
// once the frontmatter is closed).
func markdown(r *rand.Rand, b *strings.Builder, heading string, size int, rules bool) {
	start := b.Len()
	fmt.Fprintf(b, "# %s\n\n", heading)
	paragraph(r, b)
	for b.Len()-start < size {
		if rules && r.IntN(8) == 0 {
			b.WriteString("---\n\n")
		}
		fmt.Fprintf(b, "## %s\n\n", pick(r, sectionTitles))
		for range between(r, 1, 4) {
			switch r.IntN(7) {
			case 0, 1, 2:
				paragraph(r, b)
			case 3:
				bullets(r, b, false)
			case 4:
				bullets(r, b, true)
			case 5:
				codeBlock(r, b)
			case 6:
				if r.IntN(2) == 0 {
					table(r, b)
				} else {
					fmt.Fprintf(b, "### %s %s\n\n", title(pick(r, words)), pick(r, words))
					paragraph(r, b)
				}
			}
		}
	}
}

// description writes a skill description of about n characters (before
// wrapping): what the skill does, then when to use it.
func description(r *rand.Rand, domain, action string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s with the %s %s", title(pick(r, []string{"extract", "convert", "review", "generate", "validate", "summarize", "analyze", "format", "create", "update"})),
		pick(r, words), pick(r, words), domain, action)
	b.WriteString(". ")
	for b.Len() < n {
		sentence(r, &b, between(r, 6, 16))
		b.WriteByte(' ')
	}
	b.WriteString("Use when the user mentions ")
	b.WriteString(domain)
	b.WriteString(" or asks to ")
	b.WriteString(pick(r, words))
	b.WriteString(" ")
	b.WriteString(pick(r, words))
	b.WriteString(".")
	return b.String()
}

// wrap breaks s into lines of about width characters, for folded scalars.
func wrap(s string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(s) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// script writes source code of about size bytes in the language of ext.
func script(r *rand.Rand, ext string, size int) string {
	var b strings.Builder
	switch ext {
	case ".sh":
		b.WriteString("#!/usr/bin/env bash\nset -euo pipefail\n\n")
	case ".py":
		b.WriteString("#!/usr/bin/env python3\n\"\"\"")
		sentence(r, &b, 10)
		b.WriteString("\"\"\"\n\nimport argparse\nimport json\nimport sys\n\n")
	case ".js", ".ts":
		b.WriteString("#!/usr/bin/env node\n'use strict';\n\n")
	}
	for b.Len() < size {
		name := pick(r, words) + "_" + pick(r, words)
		switch ext {
		case ".sh":
			fmt.Fprintf(&b, "%s() {\n  local %s=\"$1\"\n  if [[ -z \"$%s\" ]]; then\n    echo \"usage: %s <%s>\" >&2\n    return 1\n  fi\n  %s \"$%s\" | grep -v '^#' || true\n}\n\n",
				name, pick(r, words), pick(r, words), name, pick(r, words), pick(r, domains), pick(r, words))
		case ".py":
			fmt.Fprintf(&b, "def %s(%s, %s=None):\n    \"\"\"", name, pick(r, words), pick(r, words))
			sentence(r, &b, between(r, 6, 14))
			fmt.Fprintf(&b, "\"\"\"\n    result = []\n    for item in %s or []:\n        if item.get(%q):\n            result.append(item[%q])\n    return result\n\n\n",
				pick(r, words), pick(r, words), pick(r, words))
		default:
			fmt.Fprintf(&b, "function %s(%s) {\n  // ", strings.ReplaceAll(name, "_", ""), pick(r, words))
			sentence(r, &b, between(r, 6, 14))
			fmt.Fprintf(&b, "\n  return %s.map((x) => x.%s);\n}\n\n", pick(r, words), pick(r, words))
		}
	}
	return b.String()
}

// licenseText is a license-like document of about size bytes, the same for
// the same key: the file collections copy into every skill.
func licenseText(key string, size int) string {
	var seed uint64
	for _, c := range key {
		seed = seed*131 + uint64(c)
	}
	r := rand.New(rand.NewPCG(seed, 0x11ce45e))
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nCopyright the contributors. All rights reserved where not granted below.\n\n", key)
	for n := 1; b.Len() < size; n++ {
		fmt.Fprintf(&b, "%d. ", n)
		paragraph(r, &b)
	}
	return b.String()
}
