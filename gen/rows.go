package gen

import "strconv"

// rows appends the data declarations of the generated file exactly as
// gofmt lays them out: each composite literal element on one line, indented
// by one tab, with a trailing comma; keyed fields separated by ", ". It
// writes no other shapes, which keeps that promise easy to keep;
// TestRowsAreGofmt and checkGofmt hold it to it. It appends into one byte
// slice, with no intermediate strings: rendering is on the path of every
// generate.
type rows struct {
	b      []byte
	fields []int // fields written so far in each open literal
}

// decl starts a top-level declaration: a blank line, then an optional
// comment line.
func (r *rows) decl(comment string) {
	r.b = append(r.b, '\n')
	if comment != "" {
		r.b = append(r.b, "// "...)
		r.b = append(r.b, comment...)
		r.b = append(r.b, '\n')
	}
}

// beginSlice opens "var name = []elem{"; each row then starts with row().
func (r *rows) beginSlice(name, elem string) {
	r.b = append(r.b, "var "...)
	r.b = append(r.b, name...)
	r.b = append(r.b, " = []"...)
	r.b = append(r.b, elem...)
	r.b = append(r.b, "{\n"...)
}

// row opens one element line.
func (r *rows) row() { r.b = append(r.b, '\t'); r.open("") }

// endRow closes the element line opened by row.
func (r *rows) endRow() { r.close(); r.b = append(r.b, ",\n"...) }

func (r *rows) endSlice() { r.b = append(r.b, "}\n"...) }

// open starts a composite literal "typ{".
func (r *rows) open(typ string) {
	r.b = append(r.b, typ...)
	r.b = append(r.b, '{')
	r.fields = append(r.fields, 0)
}

func (r *rows) close() {
	r.fields = r.fields[:len(r.fields)-1]
	r.b = append(r.b, '}')
}

// key starts the next "Key: " of the innermost literal (or element of a
// list when key is "").
func (r *rows) key(k string) {
	n := &r.fields[len(r.fields)-1]
	if *n > 0 {
		r.b = append(r.b, ", "...)
	}
	*n++
	if k != "" {
		r.b = append(r.b, k...)
		r.b = append(r.b, ": "...)
	}
}

// raw adds a field whose value is Go source already.
func (r *rows) raw(k, v string) { r.key(k); r.b = append(r.b, v...) }

// str adds a string field, left out when empty (the zero value).
func (r *rows) str(k, v string) {
	if v != "" {
		r.key(k)
		r.b = strconv.AppendQuote(r.b, v)
	}
}

// quoted adds a string element of a list.
func (r *rows) quoted(v string) { r.key(""); r.b = strconv.AppendQuote(r.b, v) }

// flag adds a bool field, left out when false.
func (r *rows) flag(k string, v bool) {
	if v {
		r.raw(k, "true")
	}
}

// int adds an integer field.
func (r *rows) int(k string, v int64) { r.key(k); r.b = strconv.AppendInt(r.b, v, 10) }
