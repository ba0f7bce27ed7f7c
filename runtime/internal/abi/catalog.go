package abi

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The catalog is what a model reads before it activates anything: one
// line per listed model-invocable workflow, in the Resident block and in
// the activation tool's description, and one <skill> per listed skill in
// SkillsXML. Its texts are fixed here, for the build (which precomputes
// Resident and the tool, and fits them to a budget) and for the runtime
// (which renders SkillsXML for the root it is given).

// ResidentHeading starts the Resident block.
const ResidentHeading = "## Workflows\n\nRun one by its slug as /<slug>.\n\n"

// ToolName is the name of the activation tool.
const ToolName = "activate_skill"

// ToolInstruction starts the activation tool's description.
const ToolInstruction = "Load a skill's full instructions, and the list of its files, into the conversation. " +
	"Call it as soon as a task matches one of these skills, before doing the task:\n\n"

// CatalogLine appends "- slug: description\n", line breaks in the
// description (CRLF, LF or CR) folded to one space each.
func CatalogLine(b []byte, slug, description string) []byte {
	b = append(b, "- "...)
	b = append(b, slug...)
	b = append(b, ": "...)
	for i := 0; i < len(description); i++ {
		switch c := description[i]; c {
		case '\r':
			if i+1 < len(description) && description[i+1] == '\n' {
				i++
			}
			b = append(b, ' ')
		case '\n':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return append(b, '\n')
}

// UnlistedLine is the catalog's last line when its budget left n
// workflows out.
func UnlistedLine(n int) string {
	if n == 1 {
		return "(1 more is not listed here; it can still be used by name.)\n"
	}
	return "(" + strconv.Itoa(n) + " more are not listed here; they can still be used by name.)\n"
}

// ToolSchema returns the activation tool's JSON Schema for the given
// slugs (already in order).
func ToolSchema(slugs []string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"name":{"type":"string","enum":[`)
	for i, s := range slugs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(s)) // a slug is a-z, 0-9 and "-": Go and JSON quoting agree
	}
	b.WriteString(`]}},"required":["name"],"additionalProperties":false}`)
	return b.String()
}

// XMLHead and XMLTail enclose SkillsXML, as the agentskills reference
// implementation's to-prompt writes it: every tag and value on a line of
// its own.
const (
	XMLHead = "<available_skills>"
	XMLTail = "\n</available_skills>"
)

// SkillsXML renders the <available_skills> block for root: skill(i), for
// i in [0, n), gives each listed skill's name, description and skill file
// name (ok false to leave it out); unlisted counts those the catalog
// budget left out. <location> is filepath.Join(root, name, file).
//
// budget is the catalog budget the build fitted the listed skills to (0:
// none), for a root of a given length (gen.XMLBudgetRoot characters after
// escaping). A longer root leaves more skills out, from the end, so that
// the block keeps to the budget whatever the root.
func SkillsXML(root string, n int, skill func(i int) (name, description, file string, ok bool), unlisted, budget int) string {
	s := renderXML(root, n, skill, n, unlisted)
	if budget <= 0 || utf8.RuneCountInString(s) <= budget {
		return s
	}
	// The slow path, for long roots only: the size of each listed <skill>,
	// then the most of them, from the start, that fit with the last line.
	var sizes []int
	for i := range n {
		if name, desc, file, ok := skill(i); ok {
			var b strings.Builder
			xmlSkill(&b, name, desc, filepath.Join(root, name, file))
			sizes = append(sizes, utf8.RuneCountInString(b.String()))
		}
	}
	total := utf8.RuneCountInString(XMLHead + XMLTail)
	for _, size := range sizes {
		total += size
	}
	keep := len(sizes)
	for keep > 0 && total+len(unlistedXML(unlisted+len(sizes)-keep)) > budget { // (ASCII: bytes are characters)
		keep--
		total -= sizes[keep]
	}
	return renderXML(root, n, skill, keep, unlisted+len(sizes)-keep)
}

// renderXML renders SkillsXML with the first keep listed skills.
func renderXML(root string, n int, skill func(i int) (name, description, file string, ok bool), keep, unlisted int) string {
	var b strings.Builder
	b.WriteString(XMLHead)
	for i := 0; i < n && keep > 0; i++ {
		if name, desc, file, ok := skill(i); ok {
			xmlSkill(&b, name, desc, filepath.Join(root, name, file))
			keep--
		}
	}
	b.WriteString(unlistedXML(unlisted))
	b.WriteString(XMLTail)
	return b.String()
}

// unlistedXML is SkillsXML's last line when n skills are not listed.
func unlistedXML(n int) string {
	if n == 0 {
		return ""
	}
	return "\n<!-- " + strconv.Itoa(n) + " more skills are not listed here; they can still be used by name. -->"
}

// xmlSkill appends one <skill> of SkillsXML, values HTML-escaped.
func xmlSkill(b *strings.Builder, name, description, location string) {
	for _, s := range [...]string{
		"<skill>",
		"<name>", HTMLEscape(name), "</name>",
		"<description>", HTMLEscape(description), "</description>",
		"<location>", HTMLEscape(location), "</location>",
		"</skill>",
	} {
		b.WriteByte('\n')
		b.WriteString(s)
	}
}

// HTMLEscape escapes as Python's html.escape(s, quote=True), which the
// reference implementation uses.
var HTMLEscape = strings.NewReplacer(
	"&", "&amp;",
	"<", "&lt;",
	">", "&gt;",
	`"`, "&quot;",
	"'", "&#x27;",
).Replace
