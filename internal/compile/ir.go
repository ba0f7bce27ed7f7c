package compile

import (
	"encoding/json"
	"io/fs"

	"github.com/skillgen/skillgen/runtime"
)

// Program is the resolved result of a compile: what the generated package
// will hold.
type Program struct {
	Workflows     []*Workflow            // ingested, sorted by slug
	Notifications []runtime.Notification // in resolution order
	Entries       []ListEntry            // every workflow and skill considered, in resolution order
}

// Workflow is one resolved entry of the table.
type Workflow struct {
	Slug, Description              string
	ModelInvocation, UserInvocable bool
	Requires                       []string
	Source                         runtime.Source
	License, Compatibility         string
	AllowedTools                   string
	Metadata                       []Meta
	Body                           string // in-house Workflows: the Markdown after the frontmatter (skills: BodyText)

	// Skills only.
	SkillFile string // "SKILL.md", or "skill.md" as found
	BodyStart int    // offset of Body in the SKILL.md file
	Dir       string // the skill directory, as listed under its root
	Files     []File // sorted by Path; includes SkillFile
}

// File is one file of a skill.
type File struct {
	Path   string      // slash-separated, relative to the skill directory
	Mode   fs.FileMode // 0o644, or 0o755 when any execute bit is set
	Size   int64
	SHA256 [32]byte
	Src    string // where the bytes are read from (a symlink's target, resolved)
	Data   []byte // the bytes, when already in memory (the SKILL.md)

	// seen is the file the walk checked at Src. Bytes are only ever read
	// from that same file: if Src was swapped since (say, for a symlink
	// out of the skill), the run fails instead of embedding it.
	seen fs.FileInfo
}

// BodyText is the Markdown after the frontmatter, byte for byte. A skill's
// body is not copied out of its SKILL.md: the generated code slices it from
// the embedded file, so only previews need it as a string.
func (w *Workflow) BodyText() string {
	if w.Source.Kind != runtime.KindSkill {
		return w.Body
	}
	for _, f := range w.Files {
		if f.Path == w.SkillFile {
			return string(f.Data[w.BodyStart:])
		}
	}
	return ""
}

// Status of a ListEntry.
const (
	StatusIngested = "ingested"
	StatusShadowed = "shadowed"
	StatusSkipped  = "skipped"
)

// ListEntry is one row of `skillgen list`: a workflow or skill that was
// considered, and what became of it.
type ListEntry struct {
	Slug   string
	Source runtime.Source
	Status string          // StatusIngested, StatusShadowed or StatusSkipped
	By     *runtime.Source // the winner, for shadowed entries
	Reason string          // why it was skipped

	ModelInvocation bool
	UserInvocable   bool
	Files           int
}

// MarshalJSON writes an entry as `skillgen list -json` prints it (see
// README.md, "Command line").
func (e ListEntry) MarshalJSON() ([]byte, error) {
	type source struct {
		Kind runtime.SourceKind `json:"kind"`
		Path string             `json:"path"`
	}
	var by *source
	if e.By != nil {
		by = &source{e.By.Kind, e.By.Path}
	}
	return json.Marshal(struct {
		Slug            string  `json:"slug"`
		Source          source  `json:"source"`
		Status          string  `json:"status"`
		By              *source `json:"shadowed_by,omitempty"`
		Reason          string  `json:"reason,omitempty"`
		ModelInvocation bool    `json:"model_invocation"`
		UserInvocable   bool    `json:"user_invocable"`
		Files           int     `json:"files"`
	}{e.Slug, source{e.Source.Kind, e.Source.Path}, e.Status, by, e.Reason, e.ModelInvocation, e.UserInvocable, e.Files})
}
