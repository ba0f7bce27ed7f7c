package gen

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// CatalogWarnSize is the catalog size, in characters, over which generate
// warns (catalog-large) when no budget is given: what Codex budgets for it.
const CatalogWarnSize = 8000

// XMLBudgetRoot is the length of the SkillsXML root a catalog budget is
// fitted for, in characters after HTML escaping: for any root up to this
// long SkillsXML(root) lists what the build chose; a longer one makes it
// leave more skills out, from the end, so that it keeps to the budget
// whatever the root.
const XMLBudgetRoot = 64

// minCut is the fewest characters a description is cut to: below that a
// description says nothing, and entries are left out instead.
const minCut = 40

// Catalog describes the catalog of a generated package: the lines of
// Resident and of the activation tool's description (one per
// model-invocable workflow), and the <skill> entries of SkillsXML (one per
// skill). Sizes are in characters (runes).
type Catalog struct {
	Budget int // -catalog-budget; 0: none
	Size   int // the largest of Resident, the tool's description and SkillsXML (root of XMLBudgetRoot characters), as served
	Full   int // the same before any trimming

	Entries, Unlisted, Cut          int // catalog lines: workflows, left out, descriptions cut to (0: none cut)
	XMLEntries, XMLUnlisted, XMLCut int // the same for SkillsXML
}

// Trimmed reports whether the budget changed the catalog.
func (c Catalog) Trimmed() bool {
	return c.Unlisted > 0 || c.Cut > 0 || c.XMLUnlisted > 0 || c.XMLCut > 0
}

func (c Catalog) trimMessage() string {
	part := func(what string, entries, unlisted, cut int) string {
		s := fmt.Sprintf("%s list%s %d of %d", what, map[bool]string{true: "s", false: ""}[what == "SkillsXML"], entries-unlisted, entries)
		if cut > 0 {
			s += fmt.Sprintf(", descriptions cut to %d characters", cut)
		}
		return s
	}
	return fmt.Sprintf("the catalog was fitted to its budget of %d characters (%d, from %d): %s; %s; every workflow can still be invoked by name",
		c.Budget, c.Size, c.Full,
		part("Resident and the activation tool", c.Entries, c.Unlisted, c.Cut),
		part("SkillsXML", c.XMLEntries, c.XMLUnlisted, c.XMLCut))
}

// xmlRoot stands for any SkillsXML root of XMLBudgetRoot characters.
var xmlRoot = strings.Repeat("x", XMLBudgetRoot)

// fitCatalog measures the catalog of spec and, when it is over budget
// (characters, 0: no budget), fits it, deterministically: first every
// description is cut, at a word boundary and ending in "…", to an equal
// share (the largest cap that fits: shorter descriptions are kept whole);
// if even descriptions of minCut characters do not fit, entries are left
// out from the end, in slug order, and a last line says how many. The
// lines (Resident and the tool) and SkillsXML are fitted each on its own.
// Every workflow stays invocable and in the tool's enum.
func fitCatalog(spec *skillgenimpl.Spec, budget int) Catalog {
	ws := spec.Workflows
	lines := func() int {
		size := utf8.RuneCountInString(spec.Resident())
		if tool, ok := spec.Tool(); ok {
			size = max(size, utf8.RuneCountInString(tool.Description))
		}
		return size
	}
	xml := func() int { return utf8.RuneCountInString(spec.SkillsXML(xmlRoot)) }
	var lineIdx, xmlIdx []int
	for i := range ws {
		if ws[i].ModelInvocation {
			lineIdx = append(lineIdx, i)
		}
		if ws[i].Source.Kind == runtime.KindSkill {
			xmlIdx = append(xmlIdx, i)
		}
	}
	c := Catalog{Budget: budget, Entries: len(lineIdx), XMLEntries: len(xmlIdx)}
	c.Full = max(lines(), xml())
	if budget > 0 {
		set := func(w *skillgenimpl.Workflow, s string) { w.Catalog = s }
		c.Cut, c.Unlisted = fit(ws, lineIdx, set, lines, budget)
		setXML := func(w *skillgenimpl.Workflow, s string) { w.CatalogXML = s }
		c.XMLCut, c.XMLUnlisted = fit(ws, xmlIdx, setXML, xml, budget)
	}
	c.Size = max(lines(), xml())
	spec.CatalogBudget = budget // after the fit: with it, SkillsXML keeps to the budget by itself
	return c
}

// fit fits one part of the catalog: ws[idx[k]] are its entries, set sets
// an entry's catalog description ("" leaves it out), size measures the
// part. It returns the cap descriptions were cut to (0: none) and how many
// entries were left out.
func fit(ws []skillgenimpl.Workflow, idx []int, set func(*skillgenimpl.Workflow, string), size func() int, budget int) (cut, unlisted int) {
	if size() <= budget || len(idx) == 0 {
		return 0, 0
	}
	longest := 0
	for _, i := range idx {
		longest = max(longest, utf8.RuneCountInString(ws[i].Description))
	}
	apply := func(limit, keep int) {
		for k, i := range idx {
			if k < keep {
				set(&ws[i], cutDescription(ws[i].Description, limit))
			} else {
				set(&ws[i], "")
			}
		}
	}
	// The largest cap in [minCut, longest) that fits, all entries kept.
	// (Descriptions all shorter than minCut are not cut at all.)
	lo, hi := minCut, longest-1
	if lo > hi {
		lo, hi = longest, longest
	}
	capped := func(limit int) int {
		if limit >= longest {
			return 0
		}
		return limit
	}
	apply(lo, len(idx))
	if size() <= budget {
		for lo < hi { // invariant: lo fits
			mid := lo + (hi-lo+1)/2
			if apply(mid, len(idx)); size() <= budget {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		apply(lo, len(idx))
		return capped(lo), 0
	}
	// The most entries that fit at the smallest cap.
	keepLo, keepHi := 0, len(idx)-1 // invariant: keepHi+1 does not fit
	for keepLo < keepHi {
		mid := keepLo + (keepHi-keepLo+1)/2
		if apply(lo, mid); size() <= budget {
			keepLo = mid
		} else {
			keepHi = mid - 1
		}
	}
	apply(lo, keepLo)
	return capped(lo), len(idx) - keepLo
}

// cutDescription cuts s to at most limit characters: at the last word
// boundary that leaves room for a closing "…". A description that fits is
// returned as it is.
func cutDescription(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	// The byte offset after limit-1 runes.
	end, n := 0, 0
	for end < len(s) && n < limit-1 {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
		n++
	}
	cut := s[:end]
	if next, _ := utf8.DecodeRuneInString(s[end:]); !unicode.IsSpace(next) {
		if i := strings.LastIndexFunc(cut, unicode.IsSpace); i > 0 {
			cut = cut[:i]
		}
	}
	return strings.TrimRightFunc(cut, unicode.IsSpace) + "…"
}
