package gen

import (
	"testing"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/skillgenimpl"
)

// TestTableSizeBound: the bound Generate checks against the format's 4 GiB
// is never below the size of the table Encode writes.
func TestTableSizeBound(t *testing.T) {
	for _, n := range []int{0, 1, 7, 200} {
		for _, budget := range []int{0, 3000} {
			spec := specOf(n)
			for i := range spec.Workflows {
				w := &spec.Workflows[i]
				if i%3 == 0 {
					w.Requires = []string{"policy", "style"}
					w.Metadata = []runtime.Meta{{Key: "k", Value: "v"}}
					w.License, w.Compatibility, w.AllowedTools = "MIT", "Needs poppler.", "Read Bash"
				}
			}
			spec.Notifications = []runtime.Notification{{Code: "shadowed", Message: "skill /x was shadowed"}}
			l := &lowered{spec: spec}
			l.catalog = fitCatalog(spec, budget)
			data, err := skillgenimpl.Encode(spec)
			if err != nil {
				t.Fatal(err)
			}
			if bound := l.tableSizeBound(); bound < int64(len(data)) {
				t.Errorf("%d workflows, budget %d: bound %d < %d bytes encoded", n, budget, bound, len(data))
			}
		}
	}
}
