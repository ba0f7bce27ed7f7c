// Package abi is the contract between skillgen's generated code and the
// runtime package: the encoded table format, the storage that generated
// code declares, and the text formats that are fixed at build time.
//
// Generated code reaches it only through runtime/skillgenimpl, which
// re-exports what it needs; package runtime decodes it. It imports the
// standard library only and nothing that uses it (the runtime's vocabulary
// types are type parameters here), so both sides can depend on it.
//
// See ARCHITECTURE.md for the generated-code ABI and its version rule.
package abi

import "sync"

// Table is what a generated package declares, once, as static data: the
// encoded table (one embedded blob), a pointer to every embedded blob, and
// zeroed storage, sized by the generator, into which the runtime decodes
// each workflow the first time it is asked for. Nothing here is built at
// start-up: the generated package's init does a constant amount of work
// whatever the number of skills.
type Table[W, F, M any] struct {
	Data  *string   // the encoded table (see format.go)
	Blobs []*string // every embedded blob, in the order of the table's blob records

	Slots    []Slot[W] // one per workflow
	Files    []F       // one per skill file, in entry order
	Meta     []M       // one per metadata entry, in record order
	Requires []string  // one per requires entry, in record order
}

// Slot holds one workflow, decoded on first use.
type Slot[W any] struct {
	Once sync.Once
	W    W
}

// NewRegistry is set by package runtime, at its package initialization, to
// its constructor of a Registry over a Table. It lets runtime/skillgenimpl
// return a *runtime.Registry without runtime exporting a constructor that
// users could mistake for API. Its argument is the runtime's instantiation
// of *Table, its result the *runtime.Registry.
var NewRegistry func(table any) any
