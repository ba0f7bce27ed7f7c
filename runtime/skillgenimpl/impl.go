// Package skillgenimpl is the ABI between skillgen's generated code and the
// runtime, in the manner of protobuf's runtime/protoimpl: what generated
// code declares and calls, and what the generator encodes. It is not for
// hosts, whose API is package runtime; it changes whenever the generated
// code does, under the version rule in version.go and ARCHITECTURE.md.
//
// A generated package declares one Table, whose Data is the encoded table
// (an embedded blob written by Encode), whose Blobs point at the embedded
// skill files, and whose storage arrays are zeroed static memory sized for
// the table; it exports New(&table) as its Registry.
package skillgenimpl

import (
	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/internal/abi"
)

// Table is what generated code declares. See the package documentation.
type Table = abi.Table[runtime.Workflow, runtime.File, runtime.Meta]

// Slot is the storage of one workflow, decoded on first use.
type Slot = abi.Slot[runtime.Workflow]

// New returns the Registry that serves t. t must not be modified
// afterwards. It does a constant amount of work, whatever t holds.
func New(t *Table) *runtime.Registry { return abi.NewRegistry(t).(*runtime.Registry) }
