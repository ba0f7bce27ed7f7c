package gen

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

func TestCutDescription(t *testing.T) {
	tests := []struct {
		s     string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"one two three four", 10, "one two…"},   // "one two t" → back to the word boundary
		{"one two three four", 9, "one two…"},    // 8 runes fit, the next is a space: no need to back up
		{"one two, three", 10, "one two,…"},      // punctuation stays with its word
		{"unbreakableword here", 8, "unbreak…"},  // no boundary: a hard cut
		{"naïve café résumé", 12, "naïve café…"}, // runes, not bytes
		{"line one\nline two", 12, "line one…"},  // a newline is white space
		{"a  b   c    d", 6, "a  b…"},            // trailing white space is dropped
		{"日本語のテキストです", 5, "日本語の…"},               // no spaces at all
		{"x", 1, "x"},
	}
	for _, tt := range tests {
		got := cutDescription(tt.s, tt.limit)
		if got != tt.want {
			t.Errorf("cutDescription(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n > tt.limit {
			t.Errorf("cutDescription(%q, %d) = %q: %d characters", tt.s, tt.limit, got, n)
		}
	}
}

// specOf returns a spec of n skills and, every fifth, an in-house workflow
// (every tenth of those user-only), with descriptions of varied lengths.
func specOf(n int) *skillgenimpl.Spec {
	spec := &skillgenimpl.Spec{}
	for i := range n {
		slug := fmt.Sprintf("skill-%04d", i)
		desc := strings.Repeat(fmt.Sprintf("Does thing %d with care & <markup>. ", i), 1+i%7)
		w := skillgenimpl.Workflow{Workflow: runtime.Workflow{Slug: slug, Description: strings.TrimSpace(desc), ModelInvocation: true, UserInvocable: true}}
		if i%5 == 4 {
			w.Source = runtime.Source{Kind: runtime.KindWorkflow, Path: ".insomnia/memory/workflow/" + slug + ".md"}
			w.ModelInvocation = i%10 != 9
		} else {
			w.Source = runtime.Source{Kind: runtime.KindSkill, Path: "skills/" + slug + "/SKILL.md"}
			w.Files = []runtime.File{{Path: "SKILL.md", Mode: 0o644, SHA256: strings.Repeat("0", 64)}}
		}
		w.Catalog = w.Description
		if w.Source.Kind == runtime.KindSkill {
			w.CatalogXML = w.Description
		}
		spec.Workflows = append(spec.Workflows, w)
	}
	spec.Blobs = []skillgenimpl.Blob{{Name: strings.Repeat("0", 64)}}
	return spec
}

// catalogTexts returns what the registry of spec gives a model, through
// the runtime: Resident, the tool and SkillsXML for a root of the longest
// length the budget accounts for.
func catalogTexts(t *testing.T, spec *skillgenimpl.Spec) (resident string, tool runtime.Tool, xml string, r *runtime.Registry) {
	t.Helper()
	r, err := skillgenimpl.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	tool, _ = r.ActivationTool()
	return r.Resident(), tool, r.SkillsXML("/" + strings.Repeat("r", XMLBudgetRoot-1)), r
}

func runes(s string) int { return utf8.RuneCountInString(s) }

func TestFitCatalog(t *testing.T) {
	full := specOf(200)
	untrimmed := fitCatalog(specOf(200), 0)
	resident, tool, xml, _ := catalogTexts(t, full)
	if want := max(runes(resident), runes(tool.Description), runes(xml)); untrimmed.Size != want || untrimmed.Full != want {
		t.Fatalf("untrimmed catalog: %+v; the texts are %d, %d, %d characters", untrimmed, runes(resident), runes(tool.Description), runes(xml))
	}
	var modelSlugs []string
	for _, w := range full.Workflows {
		if w.ModelInvocation {
			modelSlugs = append(modelSlugs, w.Slug)
		}
	}

	for _, budget := range []int{untrimmed.Full, untrimmed.Full - 1, 60000, 30000, 8000, 3000, 1000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			spec := specOf(200)
			c := fitCatalog(spec, budget)
			resident, tool, xml, r := catalogTexts(t, spec)
			for name, text := range map[string]string{"Resident": resident, "the tool's description": tool.Description, "SkillsXML": xml} {
				if n := runes(text); n > budget {
					t.Errorf("%s is %d characters, over the budget of %d", name, n, budget)
				}
			}
			if c.Size != max(runes(resident), runes(tool.Description), runes(xml)) {
				t.Errorf("Catalog.Size %d is not the largest text", c.Size)
			}
			if c.Full != untrimmed.Full || c.Budget != budget {
				t.Errorf("Catalog %+v: Full and Budget must be the untrimmed size and the budget", c)
			}
			if (budget >= untrimmed.Full) == c.Trimmed() {
				t.Errorf("budget %d, untrimmed %d: Trimmed() = %v", budget, untrimmed.Full, c.Trimmed())
			}

			// Every workflow is still there, invocable, and in the enum.
			var schema struct {
				Properties struct{ Name struct{ Enum []string } }
			}
			if err := json.Unmarshal([]byte(tool.InputSchema), &schema); err != nil || !slices.Equal(schema.Properties.Name.Enum, modelSlugs) {
				t.Errorf("the tool's enum is not every model-invocable slug: %v", err)
			}
			for _, w := range full.Workflows {
				if got, ok := r.Lookup(w.Slug); !ok || got.Description != w.Description {
					t.Errorf("Lookup(%s) = %v, %v: the full description must stay", w.Slug, got, ok)
				}
			}

			// The listed lines: a prefix of the workflows in slug order,
			// each description whole or cut to the same cap, and a last
			// line counting the rest.
			lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(resident, "## Workflows\n\nRun one by its slug as /<slug>.\n\n"), "\n"), "\n")
			listed := 0
			for _, l := range lines {
				if !strings.HasPrefix(l, "- ") {
					continue
				}
				slug, desc, _ := strings.Cut(strings.TrimPrefix(l, "- "), ": ")
				if slug != modelSlugs[listed] {
					t.Fatalf("line %d lists %s, want %s (entries are dropped from the end)", listed, slug, modelSlugs[listed])
				}
				w, _ := r.Lookup(slug)
				switch {
				case desc == w.Description:
					if c.Cut > 0 && runes(desc) > c.Cut {
						t.Errorf("%s: a description of %d characters was not cut to %d", slug, runes(desc), c.Cut)
					}
				case strings.HasSuffix(desc, "…") && strings.HasPrefix(w.Description, strings.TrimSuffix(desc, "…")):
					if c.Cut == 0 || runes(desc) > c.Cut {
						t.Errorf("%s: cut to %d characters, the cap is %d", slug, runes(desc), c.Cut)
					}
				default:
					t.Errorf("%s: %q is neither the description nor a cut of it", slug, desc)
				}
				listed++
			}
			if unlisted := len(modelSlugs) - listed; unlisted != c.Unlisted {
				t.Errorf("%d lines listed, %d left out; Catalog says %d left out", listed, unlisted, c.Unlisted)
			} else if unlisted > 0 && !strings.HasSuffix(resident, fmt.Sprintf("(%d more are not listed here; they can still be used by name.)\n", unlisted)) {
				t.Errorf("Resident does not end with the count of the %d left out:\n%s", unlisted, resident)
			}
			// Registry.Catalog gives the same entries, for catalogs of a
			// host's own.
			entries, unlisted := r.Catalog()
			if unlisted != c.Unlisted || len(entries) != listed {
				t.Errorf("Catalog() gives %d entries, %d left out; Resident lists %d, %d left out", len(entries), unlisted, listed, c.Unlisted)
			}
			for _, e := range entries {
				if !strings.Contains(resident, "- "+e.Slug+": "+e.Description+"\n") {
					t.Errorf("Catalog() entry %s: %q is not Resident's line", e.Slug, e.Description)
				}
			}
			if c.XMLUnlisted > 0 && !strings.Contains(xml, fmt.Sprintf("<!-- %d more skills are not listed here", c.XMLUnlisted)) {
				t.Errorf("SkillsXML does not count the %d skills left out", c.XMLUnlisted)
			}

			// Deterministic.
			again := specOf(200)
			if c2 := fitCatalog(again, budget); c2 != c {
				t.Errorf("a second fit gives %+v, want %+v", c2, c)
			}
			if r2, _, _, _ := catalogTexts(t, again); r2 != resident {
				t.Errorf("a second fit gives another Resident")
			}
		})
	}
}

// TestSkillsXMLAnyRoot: SkillsXML keeps to the budget for every root, not
// only the one of XMLBudgetRoot characters the fit assumed. A root whose
// HTML escaping makes it longer (each of & < > " ' takes 4 to 6
// characters), or a root that is simply longer, leaves more skills out,
// from the end, and the last line counts them; a root the fit accounted
// for lists exactly what the build chose.
func TestSkillsXMLAnyRoot(t *testing.T) {
	roots := map[string]string{
		"64 x":              strings.Repeat("x", XMLBudgetRoot),
		"64 &":              strings.Repeat("&", XMLBudgetRoot),
		"64 '":              strings.Repeat("'", XMLBudgetRoot),
		`64 "`:              strings.Repeat(`"`, XMLBudgetRoot),
		"64 <":              strings.Repeat("<", XMLBudgetRoot),
		"a path with R&D":   "/srv/R&D/" + strings.Repeat("s", XMLBudgetRoot-9),
		"O'Brien's home":    "/Users/O'Brien/skills",
		"300 bytes":         "/" + strings.Repeat("long/", 60),
		"64 bytes of emoji": strings.Repeat("\U0001F600", XMLBudgetRoot/4),
		"empty":             "",
	}
	untrimmed := fitCatalog(specOf(200), 0)
	for budget := 7900; budget <= 8100; budget += 7 {
		spec := specOf(200)
		c := fitCatalog(spec, budget)
		r, err := skillgenimpl.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		for name, root := range roots {
			xml := r.SkillsXML(root)
			if n := runes(xml); n > budget {
				t.Errorf("budget %d, root %s: SkillsXML is %d characters", budget, name, n)
			}
			if xml != spec.SkillsXML(root) {
				t.Errorf("budget %d, root %s: the preview's SkillsXML differs from the registry's", budget, name)
			}
			listed := strings.Count(xml, "<skill>")
			unlisted := c.XMLEntries - listed
			if unlisted > 0 && !strings.HasSuffix(xml, fmt.Sprintf("\n<!-- %d more skills are not listed here; they can still be used by name. -->\n</available_skills>", unlisted)) {
				t.Errorf("budget %d, root %s: %d skills listed of %d, and no last line counting %d:\n%s", budget, name, listed, c.XMLEntries, unlisted, xml)
			}
			fits := runes(abiEscape(root)) <= XMLBudgetRoot
			if fits && unlisted != c.XMLUnlisted {
				t.Errorf("budget %d, root %s (fits the fit's assumption): %d left out, the build chose %d", budget, name, unlisted, c.XMLUnlisted)
			}
			if !fits && unlisted < c.XMLUnlisted {
				t.Errorf("budget %d, root %s: %d left out, fewer than the build's %d", budget, name, unlisted, c.XMLUnlisted)
			}
			// The listed skills are the first ones, in slug order, and as
			// many as fit: one more would not.
			var skills []skillgenimpl.Workflow
			var names []string
			for _, w := range spec.Workflows {
				if w.Source.Kind == runtime.KindSkill {
					skills = append(skills, w)
				}
			}
			for _, w := range skills[:listed] {
				names = append(names, "\n<name>\n"+w.Slug+"\n</name>")
			}
			if got := regexp.MustCompile(`\n<name>\n[^\n]*\n</name>`).FindAllString(xml, -1); !slices.Equal(got, names) {
				t.Errorf("budget %d, root %s: lists %q, want the first %d skills", budget, name, got, listed)
			}
			if !fits && listed < c.XMLEntries-c.XMLUnlisted {
				next := skills[listed]
				block := "\n<skill>\n<name>\n" + next.Slug + "\n</name>\n<description>\n" + abiEscape(next.CatalogXML) + "\n</description>\n<location>\n" +
					abiEscape(filepath.Join(root, next.Slug, "SKILL.md")) + "\n</location>\n</skill>"
				comment := func(n int) int {
					if n == 0 {
						return 0
					}
					return runes(fmt.Sprintf("\n<!-- %d more skills are not listed here; they can still be used by name. -->", n))
				}
				if n := runes(xml) + runes(block) - comment(unlisted) + comment(unlisted-1); n <= budget {
					t.Errorf("budget %d, root %s: %d skills listed, but %d fit (%d characters)", budget, name, listed, listed+1, n)
				}
			}
		}
	}
	// Without a budget nothing is left out, whatever the root.
	spec := specOf(200)
	fitCatalog(spec, 0)
	if xml := spec.SkillsXML(roots["300 bytes"]); strings.Count(xml, "<skill>") != untrimmed.XMLEntries {
		t.Errorf("no budget: SkillsXML lists %d of %d skills", strings.Count(xml, "<skill>"), untrimmed.XMLEntries)
	}
}

// abiEscape is the HTML escaping of SkillsXML's values.
var abiEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;").Replace

// TestFitCatalogOrder checks the order of the two steps: a budget that
// cutting alone can meet leaves every entry listed.
func TestFitCatalogOrder(t *testing.T) {
	spec := specOf(50)
	full := fitCatalog(specOf(50), 0).Full
	c := fitCatalog(spec, full*2/3)
	if c.Cut == 0 && c.XMLCut == 0 || c.Unlisted != 0 || c.XMLUnlisted != 0 {
		t.Errorf("at two thirds of the size: %+v; want descriptions cut and every entry listed", c)
	}
	c = fitCatalog(specOf(50), 500)
	if c.Cut != minCut || c.Unlisted == 0 {
		t.Errorf("at 500 characters: %+v; want descriptions cut to %d and entries left out", c, minCut)
	}
}

// TestCatalogDiagnostics: catalog-large over CatalogWarnSize without a
// budget, naming the size and the flag; none within a budget; a budget too
// small for the fixed parts is said so.
func TestCatalogDiagnostics(t *testing.T) {
	big := &lowered{spec: specOf(200)}
	big.catalog = fitCatalog(big.spec, 0)
	ds := big.catalogDiagnostics()
	if len(ds) != 1 || ds[0].Code != CodeCatalogLarge || ds[0].Severity != Warning ||
		!strings.Contains(ds[0].Message, fmt.Sprint(big.catalog.Size)) || !strings.Contains(ds[0].Message, "-catalog-budget") {
		t.Errorf("catalog of %d characters: %v", big.catalog.Size, ds)
	}
	fitted := &lowered{spec: specOf(200)}
	fitted.catalog = fitCatalog(fitted.spec, 8000)
	if ds := fitted.catalogDiagnostics(); len(ds) != 1 || ds[0].Code != CodeCatalogTrimmed || ds[0].Severity != Info {
		t.Errorf("within its budget: %v; want the trim, as info", ds)
	}
	small := &lowered{spec: specOf(3)}
	small.catalog = fitCatalog(small.spec, 0)
	if ds := small.catalogDiagnostics(); len(ds) != 0 {
		t.Errorf("a small catalog: %v", ds)
	}
	tiny := &lowered{spec: specOf(200)}
	tiny.catalog = fitCatalog(tiny.spec, 50)
	if ds := tiny.catalogDiagnostics(); len(ds) != 2 || ds[1].Code != CodeCatalogLarge || !strings.Contains(ds[1].Message, "too small") {
		t.Errorf("a budget of 50: %+v: %v", tiny.catalog, ds)
	}
}
