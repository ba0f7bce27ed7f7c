package abi

// The encoded table: what a generated package embeds as one blob and the
// runtime reads in place, without decoding it at start-up.
//
//	magic       8 bytes, Magic
//	header      HeaderWords little-endian uint32 words (H* below)
//	records     sections of fixed-size records of uint32 words:
//	            workflows (by slug), entries (skill files, by path), blobs
//	            (by name), requires, metadata, notifications
//	heap        the bytes of every string, each stored once
//
// A string is a pair of words: its offset in the heap and its length.
// Every count, offset and length fits in 32 bits: the table holds names,
// descriptions and in-house bodies, never the contents of skill files
// (those are the blobs), and skillgen caps the inputs far below 4 GiB.
const Magic = "skgtbl03"

// Header words.
const (
	HWorkflowCount = iota
	HWorkflowOff   // byte offset of the first workflow record
	HEntryCount
	HEntryOff
	HBlobCount
	HBlobOff
	HRequireCount
	HRequireOff
	HMetaCount
	HMetaOff
	HNoteCount
	HNoteOff
	HResident                        // string (2 words): the value of Registry.Resident
	HToolDescription = HResident + 2 // string: the activation tool's description, "" when there is no tool
	HToolSchema      = HToolDescription + 2
	HUnlisted        = HToolSchema + 2     // model-invocable workflows left out of the catalog by its budget
	HUnlistedSkills  = HUnlisted + 1       // skills left out of SkillsXML
	HCatalogBudget   = HUnlistedSkills + 1 // the catalog budget, 0: none (SkillsXML keeps to it for any root)
	HHeapOff         = HCatalogBudget + 1
	HeaderWords      = HHeapOff + 1
)

// Workflow record words. Strings take two words.
const (
	WSlug         = 0
	WDescription  = 2
	WFlags        = 4
	WBodyA        = 5 // skills: the blob of the skill file; in-house: the body's heap offset
	WBodyB        = 6 // skills: the offset of the body in that blob; in-house: the body's length
	WSource       = 7
	WLicense      = 9
	WCompat       = 11
	WTools        = 13
	WReqStart     = 15 // first requires record
	WReqCount     = 16
	WMetaStart    = 17 // first metadata record
	WMetaCount    = 18
	WEntryStart   = 19 // first entry record of the skill's files (they are contiguous: they share the prefix "slug/")
	WEntryCount   = 20
	WCatalog      = 21 // string: the description as the catalog lines list it (Resident, the tool)
	WCatalogXML   = 23 // string: the description as SkillsXML lists it
	WorkflowWords = 25
)

// Workflow flags.
const (
	FlagModel     = 1 << iota // model-invocable
	FlagUser                  // user-invocable
	FlagSkill                 // an ingested skill (else an in-house workflow)
	FlagListed                // listed in the catalog lines (Resident, the tool)
	FlagListedXML             // listed in SkillsXML
)

// Entry record words: one skill file as FS serves it.
const (
	EPath      = 0 // string: "<slug>/<path in the skill>"
	ESlugLen   = 2 // length of "<slug>", so the path in the skill is Path[SlugLen+1:]
	EMode      = 3 // permission bits
	EBlob      = 4 // the blob holding the bytes
	EntryWords = 5
)

// Blob record words.
const (
	BName     = 0 // string: the hex SHA-256 of the contents
	BSizeLo   = 2
	BSizeHi   = 3
	BlobWords = 4
)

// Requires, metadata and notification record words.
const (
	RequireWords = 2 // string
	MKey         = 0 // string
	MValue       = 2 // string
	MetaWords    = 4
	NCode        = 0 // string
	NMessage     = 2 // string
	NoteWords    = 4
)

// Data is an encoded table, read in place.
type Data string

// Word returns the little-endian uint32 at byte offset off.
func (d Data) Word(off int) uint32 {
	s := string(d[off : off+4])
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// Int returns the word at byte offset off as an int.
func (d Data) Int(off int) int { return int(d.Word(off)) }

// Header returns header word i.
func (d Data) Header(i int) int { return d.Int(len(Magic) + 4*i) }

// String returns the string whose two words start at byte offset off. It
// is a substring of the table: nothing is copied.
func (d Data) String(off int) string {
	start := d.Header(HHeapOff) + d.Int(off)
	return string(d[start : start+d.Int(off+4)])
}

// Record returns the byte offset of record i of the section whose first
// record is at the offset in header word offWord, with words per record.
func (d Data) Record(offWord, words, i int) int { return d.Header(offWord) + 4*words*i }

// Valid reports whether d starts with the magic of this format and is long
// enough for its header.
func (d Data) Valid() bool {
	return len(d) >= len(Magic)+4*HeaderWords && string(d[:len(Magic)]) == Magic
}
