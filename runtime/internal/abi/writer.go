package abi

// Section is a section of records.
type Section int

// The sections, in the order they are laid out.
const (
	Workflows Section = iota
	Entries
	Blobs
	Requires
	Metas
	Notes
	numSections
)

// sectionHeader gives each section's count and offset header words.
var sectionHeader = [numSections][2]int{
	Workflows: {HWorkflowCount, HWorkflowOff},
	Entries:   {HEntryCount, HEntryOff},
	Blobs:     {HBlobCount, HBlobOff},
	Requires:  {HRequireCount, HRequireOff},
	Metas:     {HMetaCount, HMetaOff},
	Notes:     {HNoteCount, HNoteOff},
}

// Writer builds an encoded table. Records are appended to their sections
// in order; strings go to the heap, each distinct string once.
type Writer struct {
	header   [HeaderWords]uint32
	sections [numSections][]uint32
	counts   [numSections]int
	heap     []byte
	strings  map[string]uint32 // heap offset of each string stored
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer { return &Writer{strings: map[string]uint32{}} }

// Str stores s in the heap (once) and returns its two words.
func (w *Writer) Str(s string) (off, n uint32) {
	if s == "" {
		return 0, 0
	}
	o, ok := w.strings[s]
	if !ok {
		o = uint32(len(w.heap))
		w.heap = append(w.heap, s...)
		w.strings[s] = o
	}
	return o, uint32(len(s))
}

// SetHeader sets header word i.
func (w *Writer) SetHeader(i int, v uint32) { w.header[i] = v }

// SetHeaderString sets the two header words of a string at i.
func (w *Writer) SetHeaderString(i int, s string) {
	w.header[i], w.header[i+1] = w.Str(s)
}

// Add appends one record to a section.
func (w *Writer) Add(s Section, words ...uint32) {
	w.sections[s] = append(w.sections[s], words...)
	w.counts[s]++
}

// Count returns how many records a section has.
func (w *Writer) Count(s Section) int { return w.counts[s] }

// Bytes lays the table out: magic, header, sections, heap.
func (w *Writer) Bytes() []byte {
	off := len(Magic) + 4*HeaderWords
	for s := range numSections {
		w.header[sectionHeader[s][0]] = uint32(w.counts[s])
		w.header[sectionHeader[s][1]] = uint32(off)
		off += 4 * len(w.sections[s])
	}
	w.header[HHeapOff] = uint32(off)
	b := make([]byte, 0, off+len(w.heap))
	b = append(b, Magic...)
	put := func(v uint32) { b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	for _, v := range w.header {
		put(v)
	}
	for s := range numSections {
		for _, v := range w.sections[s] {
			put(v)
		}
	}
	return append(b, w.heap...)
}
