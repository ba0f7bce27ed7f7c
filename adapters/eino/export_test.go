package eino

import (
	"sync/atomic"

	"github.com/skillgen/skillgen/runtime"
)

// CountMaterialize makes b count its calls of Registry.Materialize, so that
// tests can tell how often the skill files were written.
func CountMaterialize(b *Backend) *atomic.Int32 {
	n := new(atomic.Int32)
	materialize := b.materialize
	b.materialize = func(dir string) ([]runtime.Grant, error) {
		n.Add(1)
		return materialize(dir)
	}
	return n
}
