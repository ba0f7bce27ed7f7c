package compile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillgen/skillgen/runtime"

	"gopkg.in/yaml.v3"
)

// WorkflowDir is where a workspace keeps its own Workflows, one
// <slug>.md per Workflow.
var WorkflowDir = filepath.Join(ManifestDir, "memory", "workflow")

const (
	wfFieldDesc      = "description"
	wfFieldModel     = "model_invokation" // the host's spelling
	wfFieldUser      = "user_invocable"
	wfFieldRequires  = "requires"
	wfFieldCreatedAt = "created_at"
	wfFieldUpdatedAt = "updated_at"
)

// ParseWorkflow validates an in-house Workflow file named <slug>.md. Every
// error is fatal to the run: in-house Workflows are strict.
func ParseWorkflow(file, slug string, src []byte) (*Workflow, []Diagnostic) {
	ds := &diags{file: file}
	w := parseWorkflow(ds, slug, src)
	if HasErrors(ds.list) {
		return nil, ds.list
	}
	return w, ds.list
}

func parseWorkflow(ds *diags, slug string, src []byte) *Workflow {
	if reason := slugProblem(slug); reason != "" {
		ds.errorf(CodeSlugInvalid, 0, 0, "workflow slug %q (the file name without .md) is invalid: %s", slug, reason)
	}
	w := &Workflow{Slug: slug, UserInvocable: true, Requires: []string{}}
	doc, ok := parseFrontmatterDoc(ds, src, MaxSkillMDSize)
	if !ok {
		return w
	}
	w.Body = string(src[doc.fm.bodyStart:])
	var keys map[string]*yaml.Node
	fields := map[string]*yaml.Node{}
	if doc.root != nil {
		keys = fieldKeys(doc, ds)
		for _, k := range sortedKeys(keys) {
			switch k {
			case wfFieldDesc, wfFieldModel, wfFieldUser, wfFieldRequires, wfFieldCreatedAt, wfFieldUpdatedAt:
				fields[k] = valueOf(doc.root, keys[k])
			default:
				line, col := doc.pos(keys[k])
				ds.warnf(CodeUnknownField, line, col, "unknown field %q is ignored", k)
			}
		}
	}

	w.ModelInvocation = boolField(doc, ds, fields, wfFieldModel, false)
	w.UserInvocable = boolField(doc, ds, fields, wfFieldUser, true)

	if v, present := scalarField(doc, ds, keys, fields, wfFieldDesc); present {
		w.Description = strings.TrimSpace(v.Value)
		line, col := doc.pos(v)
		n := utf8.RuneCountInString(w.Description)
		switch {
		case n == 0:
			ds.errorf(CodeDescriptionMissing, line, col, "description is empty")
		case w.ModelInvocation && n > MaxDescriptionLen:
			ds.errorf(CodeDescriptionTooLong, line, col, "description is %d characters long; at most %d are allowed with %s: true", n, MaxDescriptionLen, wfFieldModel)
		}
	} else if !hasField(keys, wfFieldDesc) {
		ds.errorf(CodeDescriptionMissing, 1, 1, "required field %q is missing", wfFieldDesc)
	}

	if v := fields[wfFieldRequires]; v != nil && !isNull(v) {
		line, col := doc.pos(v)
		if v.Kind != yaml.SequenceNode {
			ds.errorf(CodeFieldType, line, col, "field %q must be a list of Knowledge slugs, not %s", wfFieldRequires, kindName(v))
		} else {
			for _, item := range v.Content {
				it := resolve(item)
				line, col := doc.pos(item)
				if it == nil || it.Kind != yaml.ScalarNode {
					ds.errorf(CodeFieldType, line, col, "each entry of %q must be a slug, not %s", wfFieldRequires, kindName(item))
					continue
				}
				if reason := slugProblem(it.Value); reason != "" {
					ds.errorf(CodeSlugInvalid, line, col, "required Knowledge slug %q is invalid: %s", it.Value, reason)
					continue
				}
				w.Requires = append(w.Requires, it.Value)
			}
		}
	}

	for _, name := range []string{wfFieldCreatedAt, wfFieldUpdatedAt} {
		v := fields[name]
		if v == nil || isNull(v) {
			continue
		}
		if v.Kind != yaml.ScalarNode || !isTimestamp(v) {
			line, col := doc.pos(v)
			ds.errorf(CodeFieldType, line, col, "field %q must be a timestamp such as 2006-01-02 or 2006-01-02T15:04:05Z", name)
		}
	}
	return w
}

// boolField returns a boolean field, or def when it is absent or null.
func boolField(doc *yamlDoc, ds *diags, fields map[string]*yaml.Node, name string, def bool) bool {
	v := fields[name]
	if v == nil || isNull(v) {
		return def
	}
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		line, col := doc.pos(v)
		ds.errorf(CodeFieldType, line, col, "field %q must be true or false", name)
		return def
	}
	return b
}

func isTimestamp(v *yaml.Node) bool {
	var t time.Time
	if v.Decode(&t) == nil {
		return true
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateTime, time.DateOnly} {
		if _, err := time.Parse(layout, v.Value); err == nil {
			return true
		}
	}
	return false
}

// loadWorkflows reads every <slug>.md in the workspace's workflow directory,
// in byte order of name. A missing directory means no Workflows.
func loadWorkflows(workspace string) ([]*Workflow, []Diagnostic) {
	dir := filepath.Join(workspace, WorkflowDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Diagnostic{{Severity: Error, Code: CodeReadFailed, File: dir, Message: "cannot read workflow directory: " + err.Error()}}
	}
	var (
		out []*Workflow
		all []Diagnostic
	)
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
			continue
		}
		file := filepath.Join(dir, name)
		src, d := readRegular(file, MaxSkillMDSize, "", ^fs.FileMode(0))
		if d != nil {
			d.Severity = Error
			all = append(all, *d)
			continue
		}
		if src == nil { // a directory named *.md
			continue
		}
		w, ds := ParseWorkflow(file, strings.TrimSuffix(name, ".md"), src)
		all = append(all, ds...)
		if w != nil {
			all = append(all, workflowLinks(file, workspace, src, len(src)-len(w.Body))...)
			w.Source = runtime.Source{Kind: runtime.KindWorkflow, Path: filepath.ToSlash(filepath.Join(WorkflowDir, name))}
			out = append(out, w)
		}
	}
	return out, all
}
