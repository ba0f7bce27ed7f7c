package skillgenimpl

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/skillgen/skillgen/runtime"
	"github.com/skillgen/skillgen/runtime/internal/abi"
)

// MaxTable is the largest encoded table: its offsets and lengths are 32-bit.
const MaxTable = math.MaxUint32

// SizeBound is an upper bound of the size of s's encoded table, cheap to
// compute: every string as if none were shared, and every record, by the
// format's own record sizes. A spec whose bound is over MaxTable may not
// encode.
func (s *Spec) SizeBound() int64 {
	n := int64(len(abi.Magic) + 4*abi.HeaderWords)
	str := func(v string) int64 { return int64(len(v)) }
	for i := range s.Workflows {
		w := &s.Workflows[i]
		n += 4*abi.WorkflowWords + str(w.Slug) + str(w.Description) + str(w.Body) + str(w.Source.Path) + str(w.License) +
			str(w.Compatibility) + str(w.AllowedTools) + str(w.Catalog) + str(w.CatalogXML)
		for _, r := range w.Requires {
			n += 4*abi.RequireWords + str(r)
		}
		for _, m := range w.Metadata {
			n += 4*abi.MetaWords + str(m.Key) + str(m.Value)
		}
		for _, f := range w.Files {
			n += 4*abi.EntryWords + str(w.Slug) + 1 + str(f.Path)
		}
		// Resident and the tool's description hold the catalog lines
		// (each at most "- " + slug + ": " + description + a newline, or
		// the unlisted line); the schema holds every slug, quoted.
		n += 2*(str(w.Slug)+str(w.Catalog)+8) + str(w.Slug) + 3
	}
	for _, nt := range s.Notifications {
		n += 4*abi.NoteWords + str(nt.Code) + str(nt.Message)
	}
	for _, b := range s.Blobs {
		n += 4*abi.BlobWords + str(b.Name)
	}
	return n + int64(len(abi.ResidentHeading)+len(abi.ToolInstruction)) + 2*int64(len(abi.UnlistedLine(len(s.Workflows)))) + 256
}

// Encode returns the table blob of s: what a generated Table's Data holds.
// The same Spec always gives the same bytes.
func Encode(s *Spec) ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("skillgenimpl: %w", err)
	}
	w := abi.NewWriter()
	for _, b := range s.Blobs {
		off, n := w.Str(b.Name)
		w.Add(abi.Blobs, off, n, uint32(b.Size), uint32(b.Size>>32))
	}

	// Entries: every skill file, sorted by "<slug>/<path>". The files of
	// one skill share the prefix "<slug>/", so they are contiguous and in
	// the order of its Files.
	type entry struct {
		path     string
		workflow int
		file     int
	}
	var entries []entry
	for i := range s.Workflows {
		for j, f := range s.Workflows[i].Files {
			entries = append(entries, entry{s.Workflows[i].Slug + "/" + f.Path, i, j})
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.path, b.path) })
	entryStart := make([]int, len(s.Workflows))
	for i, e := range entries {
		wf := &s.Workflows[e.workflow]
		if e.file == 0 {
			entryStart[e.workflow] = i
		}
		f := wf.Files[e.file]
		blob, _ := s.blob(f.SHA256)
		off, n := w.Str(e.path)
		w.Add(abi.Entries, off, n, uint32(len(wf.Slug)), uint32(f.Mode.Perm()), uint32(blob))
	}

	for i := range s.Workflows {
		wf := &s.Workflows[i]
		reqStart, metaStart := w.Count(abi.Requires), w.Count(abi.Metas)
		for _, r := range wf.Requires {
			off, n := w.Str(r)
			w.Add(abi.Requires, off, n)
		}
		for _, m := range wf.Metadata {
			ko, kn := w.Str(m.Key)
			vo, vn := w.Str(m.Value)
			w.Add(abi.Metas, ko, kn, vo, vn)
		}
		flags := uint32(0)
		if wf.ModelInvocation {
			flags |= abi.FlagModel
		}
		if wf.UserInvocable {
			flags |= abi.FlagUser
		}
		if wf.Catalog != "" {
			flags |= abi.FlagListed
		}
		if wf.CatalogXML != "" {
			flags |= abi.FlagListedXML
		}
		var bodyA, bodyB uint32
		if sf := wf.skillFile(); sf >= 0 {
			flags |= abi.FlagSkill
			blob, _ := s.blob(wf.Files[sf].SHA256)
			bodyA, bodyB = uint32(blob), uint32(wf.BodyStart)
		} else {
			bodyA, bodyB = w.Str(wf.Body)
		}
		rec := make([]uint32, 0, abi.WorkflowWords)
		str := func(v string) { o, n := w.Str(v); rec = append(rec, o, n) }
		str(wf.Slug)
		str(wf.Description)
		rec = append(rec, flags, bodyA, bodyB)
		str(wf.Source.Path)
		str(wf.License)
		str(wf.Compatibility)
		str(wf.AllowedTools)
		rec = append(rec, uint32(reqStart), uint32(len(wf.Requires)), uint32(metaStart), uint32(len(wf.Metadata)),
			uint32(entryStart[i]), uint32(len(wf.Files)))
		str(wf.Catalog)
		str(wf.CatalogXML)
		if len(rec) != abi.WorkflowWords {
			panic(fmt.Sprintf("skillgenimpl: a workflow record of %d words, the format's is %d", len(rec), abi.WorkflowWords))
		}
		w.Add(abi.Workflows, rec...)
	}

	for _, n := range s.Notifications {
		co, cn := w.Str(n.Code)
		mo, mn := w.Str(n.Message)
		w.Add(abi.Notes, co, cn, mo, mn)
	}

	w.SetHeaderString(abi.HResident, s.Resident())
	if tool, ok := s.Tool(); ok {
		w.SetHeaderString(abi.HToolDescription, tool.Description)
		w.SetHeaderString(abi.HToolSchema, tool.InputSchema)
	}
	unlisted, unlistedSkills := s.Unlisted()
	w.SetHeader(abi.HUnlisted, uint32(unlisted))
	w.SetHeader(abi.HUnlistedSkills, uint32(unlistedSkills))
	w.SetHeader(abi.HCatalogBudget, uint32(max(0, min(s.CatalogBudget, math.MaxUint32))))
	data := w.Bytes()
	if len(data) > MaxTable {
		return nil, fmt.Errorf("skillgenimpl: the table is %d bytes, over 4 GiB", len(data))
	}
	return data, nil
}

// Build returns a Registry that serves s without generated code, for
// previews of a build and for tests. Its FS serves the files whose blob
// carries its Data; a skill whose skill file's blob does not has an empty
// Body.
func Build(s *Spec) (*runtime.Registry, error) {
	data, err := Encode(s)
	if err != nil {
		return nil, err
	}
	str := string(data)
	st := s.Storage()
	t := &Table{
		Data:     &str,
		Blobs:    make([]*string, len(s.Blobs)),
		Slots:    make([]Slot, st.Slots),
		Files:    make([]runtime.File, st.Files),
		Meta:     make([]runtime.Meta, st.Meta),
		Requires: make([]string, st.Requires),
	}
	for i, b := range s.Blobs {
		t.Blobs[i] = b.Data
	}
	return New(t), nil
}
