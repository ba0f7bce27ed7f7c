package runtime

import (
	"errors"
	"strconv"
	"strings"

	"github.com/skillgen/skillgen/runtime/internal/abi"
)

// ErrNotModelInvocable is returned by Activate for a workflow whose
// ModelInvocation is false: only the user may run it, as /<slug>.
var ErrNotModelInvocable = errors.New("skillgen/runtime: workflow is not model invocable")

// Tool is a model-facing tool definition, usable with any LLM SDK: give
// the model Name, Description and InputSchema (a JSON Schema object) as its
// function or tool declaration, and answer a call with Activate.
type Tool struct {
	Name        string // "activate_skill"
	Description string // a short instruction, then one "- slug: description" line per listed workflow
	InputSchema string // JSON Schema: an object with one required property "name", enum = every model-invocable slug
}

// ActivationTool returns the tool through which a model activates a
// workflow by name, and false when no workflow is model-invocable. The
// tool is built at build time: ActivationTool does not allocate.
func (r *Registry) ActivationTool() (Tool, bool) {
	desc := r.headerString(abi.HToolDescription)
	if desc == "" {
		return Tool{}, false
	}
	return Tool{Name: abi.ToolName, Description: desc, InputSchema: r.headerString(abi.HToolSchema)}, true
}

// maxResources is how many files Activate lists; a line says how many more
// there are.
const maxResources = 100

// Activate returns what the model reads when it activates the workflow
// named name: its body wrapped in <skill_content>, followed by the skill
// directory (when dir is not "") and the skill's other files, listed, not
// read:
//
//	<skill_content name="{slug}">
//	{body}
//
//	Skill directory: {dir}
//	Relative paths in this skill are relative to the skill directory.
//
//	<skill_resources>
//	  <file>{path}</file>
//	</skill_resources>
//	</skill_content>
//
// The body ends in exactly the newlines it has (one is added when it has
// none); when dir is not "", every {baseDir} and ${CLAUDE_SKILL_DIR} in it
// is replaced by dir. The directory lines are left out when dir is "", and
// the resources block when the workflow has no file but its SKILL.md (always
// for in-house workflows); it lists at most 100 files, sorted, then a line
// "<!-- N more files -->". dir is where the host serves the skill's files:
// the directory Materialize wrote them to, or a URI prefix such as
// "skill://{slug}". An unknown name is ErrNotFound; a workflow that is not
// model-invocable is ErrNotModelInvocable.
func (r *Registry) Activate(name, dir string) (string, error) {
	w, ok := r.Lookup(name)
	if !ok {
		return "", ErrNotFound
	}
	if !w.ModelInvocation {
		return "", ErrNotModelInvocable
	}
	body := w.Body
	if dir != "" && (strings.Contains(body, "{baseDir}") || strings.Contains(body, "${CLAUDE_SKILL_DIR}")) {
		body = strings.NewReplacer("{baseDir}", dir, "${CLAUDE_SKILL_DIR}", dir).Replace(body)
	}
	var b strings.Builder
	b.Grow(len(body) + len(dir) + 200 + 40*min(len(w.Files), maxResources))
	b.WriteString(`<skill_content name="`)
	b.WriteString(xmlEscape(w.Slug))
	b.WriteString("\">\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\n") {
		b.WriteByte('\n')
	}
	if dir != "" {
		b.WriteString("\nSkill directory: ")
		b.WriteString(dir)
		b.WriteString("\nRelative paths in this skill are relative to the skill directory.\n")
	}
	skillFile := ""
	if w.Source.Kind == KindSkill {
		skillFile = w.Source.Path[strings.LastIndexByte(w.Source.Path, '/')+1:]
	}
	listed, more := 0, 0
	for _, f := range w.Files {
		if f.Path == skillFile {
			continue
		}
		if listed == maxResources {
			more++
			continue
		}
		if listed == 0 {
			b.WriteString("\n<skill_resources>\n")
		}
		listed++
		b.WriteString("  <file>")
		b.WriteString(xmlEscape(f.Path))
		b.WriteString("</file>\n")
	}
	if more > 0 {
		b.WriteString("  <!-- ")
		b.WriteString(strconv.Itoa(more))
		b.WriteString(" more files -->\n")
	}
	if listed > 0 {
		b.WriteString("</skill_resources>\n")
	}
	b.WriteString("</skill_content>\n")
	return b.String(), nil
}

// xmlEscape escapes text for an XML element or a double-quoted attribute.
var xmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace

// A CatalogEntry is one line of the catalog: a model-invocable workflow
// and its description as the catalog lists it.
type CatalogEntry struct {
	Slug, Description string
}

// Catalog returns the entries of the catalog that Resident and the
// activation tool list, by slug: every model-invocable workflow, each with
// its description as listed (cut to the catalog budget the package was
// generated with, if any), and how many the budget left out (they can
// still be activated by name). It is for hosts and adapters that render a
// catalog of their own.
func (r *Registry) Catalog() (entries []CatalogEntry, unlisted int) {
	for i := range r.len() {
		const want = abi.FlagModel | abi.FlagListed
		if r.flags(i)&want == want {
			entries = append(entries, CatalogEntry{Slug: r.slug(i), Description: r.d.String(r.record(i) + 4*abi.WCatalog)})
		}
	}
	return entries, r.d.Header(abi.HUnlisted)
}
