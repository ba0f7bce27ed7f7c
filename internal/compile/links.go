package compile

import "bytes"

// This file finds the link and image targets of a Markdown body, for the
// link-broken check (linkcheck.go). It reads the body as CommonMark does
// wherever that decides what is a link: block structure (paragraphs, block
// quotes, list items, fenced and indented code, headings, breaks, HTML
// comments and <pre>, <script>, <style> and <textarea> blocks) and inline
// code spans, escapes, brackets and link syntax. Text in code blocks, code
// spans, HTML comments and those blocks is never a link. Other raw HTML is
// read as text: a "[x](y)" inside a <details> block is not
// rendered as a link, but the model reads it as one. A differential run
// against commonmark.js 0.31 over random documents (without raw HTML) found
// no link this scanner reports that commonmark.js does not, beyond
// commonmark.js refusing a tab where the spec allows white space.
//
// Lines end at "\n"; a "\r" counts as white space, so CRLF files scan like
// LF files. The block rules, line by line:
//
//   - A fenced code block opens at a run of three or more backticks (with no
//     backtick after it on the line) or tildes, after the line's ">" and
//     list markers; it closes at a line (indented less than four columns in
//     its list item) holding a run at least as long of the same character
//     and only white space; it ends early when its block quote or list item
//     does (a line without ">", a blank line; a line indented less than the
//     item's content). An HTML comment block ("<!--" to the first line
//     holding "-->") is treated alike, and so is a <pre>, <script>, <style>
//     or <textarea> block (from a line starting with the open tag to the
//     first line holding its close tag, in any case).
//   - List items are tracked by the column their content starts at (up to
//     32 nested): a line indented that far is inside the item, and what
//     follows applies to its indentation relative to the item's content.
//     An item that starts empty ends at a blank line after it.
//   - Relative indentation of four columns or more starts an indented code
//     block when no paragraph is open (it runs on while lines are indented
//     that much or blank) and continues the open paragraph otherwise; so
//     does content four columns or more past a list marker's space.
//   - A blank line, a thematic break ("***", "- - -"), and a setext
//     underline right after a paragraph end the open paragraph.
//   - Any other line is text. It joins the open paragraph (lazily, too:
//     without the ">" markers or indentation the paragraph's containers
//     need) unless it starts a block: a block quote (unless it continues
//     the paragraph's own), a list item (one that may interrupt a
//     paragraph: not empty, and a bullet or "1." when not lazy), or an ATX
//     heading, which is a paragraph by itself.
//   - A paragraph's first lines may be link reference definitions
//     "[label]: target", each on one line (with an optional title closed on
//     that line; a footnote "[^x]:" is not one). Each yields its target.
//
// Inside a paragraph (which may span lines), left to right: a backslash
// before ASCII punctuation escapes it; a string of n backticks opens a code
// span that runs to the next string of exactly n backticks in the
// paragraph (no escapes inside), or is literal text if there is none;
// "<!--" opens an HTML comment that runs to the next "-->"; "[" and "!["
// open link text; a "]" that closes an opener and is directly followed by
// "(" starts an inline link if the rest parses as CommonMark's
// "(" destination [title] ")": white space with at most one line break,
// then "<...>" (no line break or unescaped "<" inside) or a raw
// destination (no white space or control bytes, parentheses balanced to a
// depth of 32), then optionally white space and a title in "", '' or (),
// then ")". A link (not an image) deactivates the "[" openers before it, as
// links do not nest.
//
// Only bodies and paragraphs that hold a "]" are looked at closely: every
// link has one. The scan is a single left-to-right pass over the lines
// (each paragraph's bytes are visited a bounded number of times more, and
// each line costs at most the 32 open list items more), and allocates
// nothing but the result and buffers reused across calls.

// link is one link or image target in a body: the byte range of the target
// as written, without the angle brackets of a "<...>" target. A target can
// be empty ("[x]()", "[x]: <>").
type link struct {
	start, end int
}

// tickRun is a maximal string of backticks in a paragraph.
type tickRun struct {
	pos, n int
}

// Opener kinds on the bracket stack.
const (
	openLink byte = iota
	openImage
)

// maxItems bounds the list items the scanner keeps open, so that a line's
// cost never depends on how deeply the lines before it nested lists.
const maxItems = 32

// linkScanner scans bodies; its buffers are reused from one body to the
// next, so one scanner per goroutine allocates only while they grow.
type linkScanner struct {
	items    []int // content columns of the open list items, outermost first
	cols     []int // content columns of the list markers of the current line
	ticks    []tickRun
	nextSame []int32 // per tick run: index of the next run of the same length, or -1
	cursor   []int32 // per length: the first run of that length not yet passed, or -1
	openers  []byte  // the bracket stack: openLink or openImage
	quotes   int     // the open paragraph is in this many block quotes
}

// scanLinks returns the link targets of body in order of position.
func scanLinks(body []byte) []link {
	var s linkScanner
	return s.scan(body, nil)
}

// scan appends the link targets of body to out, in order of position.
func (s *linkScanner) scan(body []byte, out []link) []link {
	if bytes.IndexByte(body, ']') < 0 {
		return out
	}
	s.items, s.quotes = s.items[:0], 0
	var (
		fence       byte   // '`' or '~' inside a fenced code block, '<' inside a raw HTML block, else 0
		fenceEnd    []byte // what ends that raw HTML block
		fenceLen    int
		fenceQuoted bool // the fence was opened in a block quote
		fenceCol    int  // the content column of the list item the fence is in
		indented    bool // inside an indented code block
		indentCol   int  // its lines are indented this much
		emptyItem   = -1 // the line before opened an empty list item: the items above it
		open        bool // a paragraph is open
		defs        bool // and it holds only link reference definitions so far
		para        int  // the start of its text after those
	)
	for pos, next := 0, 0; pos < len(body); pos = next {
		eol := len(body)
		if i := bytes.IndexByte(body[pos:], '\n'); i >= 0 {
			eol = pos + i
		}
		next = min(eol+1, len(body))
		line := body[pos:eol]
		ind, k := indentation(line)
		blank := k == len(line) || isBlank(line[k:])
		if fence != 0 {
			switch {
			case fenceQuoted && (blank || line[k] != '>'):
				fence = 0 // the block quote ended, and the fence in it
			case !fenceQuoted && !blank && ind < fenceCol:
				fence = 0 // the list item ended, and the fence in it
			case fence == '<':
				if containsFold(line, fenceEnd) {
					fence = 0
				}
				continue
			default:
				if (fenceQuoted || ind-fenceCol < 4) && closesFence(line, fence, fenceLen, fenceQuoted) {
					fence = 0
				}
				continue
			}
		}
		if indented {
			if blank || ind >= indentCol {
				continue
			}
			indented = false
		}
		empty := emptyItem
		emptyItem = -1
		if blank {
			if empty >= 0 { // a list item starts with one blank line at most
				s.items = s.items[:empty]
			}
			out = s.paragraph(body, para, pos, open, out)
			open = false
			continue
		}
		// The open list items this line is indented enough to be in.
		m := len(s.items)
		for m > 0 && ind < s.items[m-1] {
			m--
		}
		base := 0
		if m > 0 {
			base = s.items[m-1]
		}
		if ind-base >= 4 {
			if open { // a continuation line of the open paragraph
				if defs && line[k] == '[' {
					if start, end, ok := refDef(body, pos+k, eol); ok {
						out = append(out, link{start, end})
						para = next
						continue
					}
				}
				defs = false
				continue
			}
			s.items = s.items[:m]
			indented, indentCol = true, base+4
			continue
		}
		if isBreak(line[k:], open && m == len(s.items) && s.quotes == 0) { // a lazy line is no underline
			out = s.paragraph(body, para, pos, open, out)
			open = false
			s.items = s.items[:m]
			continue
		}
		cont := 0 // the leading ">" markers that may continue the open paragraph's quotes
		if open && m == len(s.items) {
			cont = s.quotes
		}
		ct := s.containers(line, k, ind, cont)
		rest := line[ct.end:]
		lazy := m < len(s.items) || ct.leadQuotes < s.quotes                          // leaves some of the open paragraph's containers
		inQuote := open && ct.quoteOnly && ct.quotes <= s.quotes && m == len(s.items) // goes on in the open paragraph's quote
		switch {
		case ct.end == k || inQuote:
		case open && !ct.interrupts && !lazy: // (a lazy line's markers start a block, whatever they are)
			ct, rest = container{end: k}, line[k:] // a list item that cannot interrupt a paragraph: text
		case isBlank(rest) || ct.code:
			// An empty container, or one that starts with indented code.
			out = s.paragraph(body, para, pos, open, out)
			open = false
			s.push(m)
			switch {
			case len(s.cols) == 0:
			case ct.code:
				indented, indentCol = true, s.items[len(s.items)-1]+4
			case ct.quotes == 0:
				emptyItem = len(s.items) - 1
			}
			continue
		}
		if isBlank(rest) || ct.end > k && isBreak(rest, inQuote) {
			// A blank line or a break in the quote ("> ---").
			out = s.paragraph(body, para, pos, open, out)
			open = false
			s.push(m)
			continue
		}
		ch, n := opensFence(rest)
		end := htmlBlockEnd(rest)
		if n == 0 && end != nil && !containsFold(rest[2:], end) {
			ch, n = '<', 1 // a raw HTML block that goes on: code, as far as links go
		}
		if n > 0 || end != nil {
			out = s.paragraph(body, para, pos, open, out)
			open = false
			s.push(m)
			fence, fenceEnd, fenceLen, fenceQuoted, fenceCol = ch, end, n, ct.quotes > 0, 0
			if len(s.items) > 0 {
				fenceCol = s.items[len(s.items)-1]
			}
			continue
		}
		heading := isHeading(rest)
		if open && !heading && (ct.end == k || inQuote) {
			// A continuation line of the open paragraph (the list items
			// stay open: it may be a lazy one). It may go on with the
			// paragraph's link reference definitions.
			if defs && rest[0] == '[' {
				if start, end, ok := refDef(body, pos+ct.end, eol); ok {
					out = append(out, link{start, end})
					para = next
					continue
				}
			}
			defs = false
			continue
		}
		out = s.paragraph(body, para, pos, open, out)
		s.push(m)
		open, defs, para, s.quotes = true, false, pos, ct.quotes
		if heading {
			out = s.paragraph(body, para, next, open, out)
			open = false
			continue
		}
		if rest[0] == '[' {
			if start, end, ok := refDef(body, pos+ct.end, eol); ok {
				out = append(out, link{start, end})
				defs, para = true, next
			}
		}
	}
	return s.paragraph(body, para, len(body), open, out)
}

var (
	commentStart = []byte("<!--")
	commentEnd   = []byte("-->")
)

// rawTags open CommonMark's first kind of HTML block, whose text is never
// Markdown, up to the line holding the matching close tag (in any case).
var rawTags = [...]struct{ name, end []byte }{
	{[]byte("pre"), []byte("</pre>")},
	{[]byte("script"), []byte("</script>")},
	{[]byte("style"), []byte("</style>")},
	{[]byte("textarea"), []byte("</textarea>")},
}

// htmlBlockEnd returns what ends the raw HTML block that b starts: "-->"
// for a comment, "</pre>" and the like for a rawTags element (lower case);
// nil when b starts none.
func htmlBlockEnd(b []byte) []byte {
	if bytes.HasPrefix(b, commentStart) {
		return commentEnd
	}
	if len(b) == 0 || b[0] != '<' {
		return nil
	}
	for _, tag := range rawTags {
		n := 1 + len(tag.name)
		if len(b) >= n && bytes.EqualFold(b[1:n], tag.name) && (len(b) == n || b[n] == '>' || isSpace(b[n])) {
			return tag.end
		}
	}
	return nil
}

// containsFold reports whether b holds sub, in any case of ASCII letters.
func containsFold(b, sub []byte) bool {
	for i := 0; i+len(sub) <= len(b); i++ {
		if bytes.EqualFold(b[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// push closes the list items past the first m and opens those of the
// current line's markers.
func (s *linkScanner) push(m int) {
	s.items = s.items[:m]
	for _, c := range s.cols {
		if len(s.items) < maxItems {
			s.items = append(s.items, c)
		}
	}
}

// indentation returns the indentation of line in columns and the offset of
// its first byte that is not a space or tab.
func indentation(line []byte) (cols, k int) {
	for ; k < len(line); k++ {
		switch line[k] {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return cols, k
		}
	}
	return cols, k
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// isBreak reports whether b (a line from its first non-blank byte) ends a
// paragraph by itself: a thematic break (three or more of one of "-", "*",
// "_", and spaces or tabs) or, after a paragraph, a setext heading
// underline (a run of "=" or "-", then white space).
func isBreak(b []byte, paraOpen bool) bool {
	c := b[0]
	if c != '-' && c != '*' && c != '_' && c != '=' {
		return false
	}
	n, run := 0, 0 // all of c; the first run of c
	for i, x := range b {
		switch {
		case x == c:
			n++
			if run == i {
				run++
			}
		case !isSpace(x):
			return false
		}
	}
	switch {
	case n >= 3 && c != '=':
		return true
	case paraOpen && (c == '=' || c == '-'):
		return run == n
	}
	return false
}

// container says what ">" and list markers a line starts with. The
// content columns of its list items (those not inside a block quote) are
// left in linkScanner.cols.
type container struct {
	end        int  // offset of the content after the markers and their white space
	quotes     int  // how many ">" markers it has
	leadQuotes int  // how many of them come before any list marker
	quoteOnly  bool // it has ">" markers only
	interrupts bool // the first marker may interrupt a paragraph: ">", a non-empty bullet item or item "1."
	code       bool // the content is indented code: 4 columns or more past the markers' space
	decided    bool // interrupts is set
}

// containers reads the markers line starts with at k (at column col).
// The first cont ">" markers are taken as those of the open paragraph's
// quotes: whether the markers interrupt it is said by the first marker
// after them.
func (s *linkScanner) containers(line []byte, k, col, cont int) container {
	ct := container{end: k}
	s.cols = s.cols[:0]
	markers := 0
	for k < len(line) {
		x := line[k]
		n := 0 // the marker's length
		switch {
		case x == '>':
			n = 1
		case x == '-' || x == '+' || x == '*':
			if k+1 == len(line) || isSpace(line[k+1]) {
				n = 1
			}
		case x >= '0' && x <= '9':
			d := k
			for d < len(line) && d-k < 9 && line[d] >= '0' && line[d] <= '9' {
				d++
			}
			if d < len(line) && (line[d] == '.' || line[d] == ')') && (d+1 == len(line) || isSpace(line[d+1])) {
				n = d + 1 - k
			}
		}
		if n == 0 {
			break
		}
		list := x != '>'
		k += n
		col += n
		after := col // the column right after the marker
		for k < len(line) && isSpace(line[k]) {
			if line[k] == '\t' {
				col += 4 - col%4
			} else {
				col++
			}
			k++
		}
		ct.end = k
		empty := isBlank(line[k:])
		if !ct.decided && markers >= cont {
			ct.interrupts = !list || !empty && (n == 1 || n == 2 && x == '1')
			ct.decided = true
		}
		markers++
		space := col - after
		if !list {
			ct.quotes++
			if len(s.cols) == 0 && ct.quotes == markers {
				ct.leadQuotes++
			}
			if space > 0 {
				space-- // the one optional space after ">"
			}
		}
		code := !empty && space >= 4+boolInt(list)
		if list && ct.quotes == 0 {
			switch {
			case empty || code:
				s.cols = append(s.cols, after+1)
			default:
				s.cols = append(s.cols, col)
			}
		}
		if code {
			ct.code = true
			break
		}
	}
	ct.quoteOnly = ct.quotes == markers && markers > 0
	return ct
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// opensFence returns the character and length of the fence that b opens,
// or 0, 0.
func opensFence(b []byte) (byte, int) {
	if len(b) < 3 || (b[0] != '`' && b[0] != '~') {
		return 0, 0
	}
	c := b[0]
	n := 1
	for n < len(b) && b[n] == c {
		n++
	}
	if n < 3 || (c == '`' && bytes.IndexByte(b[n:], '`') >= 0) {
		return 0, 0
	}
	return c, n
}

// closesFence reports whether line closes a fence of n characters c
// (after its ">" markers, if the fence is in a block quote).
func closesFence(line []byte, c byte, n int, quoted bool) bool {
	k := 0
	for k < len(line) && (isSpace(line[k]) || quoted && line[k] == '>') {
		k++
	}
	m := k
	for m < len(line) && line[m] == c {
		m++
	}
	return m-k >= n && isBlank(line[m:])
}

// isHeading reports whether b starts an ATX heading.
func isHeading(b []byte) bool {
	n := 0
	for n < len(b) && b[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(b) || isSpace(b[n]))
}

// isPunct reports whether c is ASCII punctuation, which a backslash escapes.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// refDef parses a link reference definition starting at b[i] == '['
// and ending at eol (its line's end). It returns the target's range.
func refDef(b []byte, i, eol int) (start, end int, ok bool) {
	j := i + 1
	if j < eol && b[j] == '^' { // a footnote, not a link
		return 0, 0, false
	}
	label := false
label:
	for ; j < eol; j++ {
		switch c := b[j]; {
		case c == '\\' && j+1 < eol && isPunct(b[j+1]):
			j++
			label = true
		case c == '[':
			return 0, 0, false
		case c == ']':
			break label
		case !isSpace(c):
			label = true
		}
	}
	if !label || j+1 >= eol || b[j+1] != ':' {
		return 0, 0, false
	}
	k := j + 2
	for k < eol && isSpace(b[k]) {
		k++
	}
	start, end, after, ok := destination(b, k, eol)
	if !ok || (end == start && b[start-1] != '<') {
		return 0, 0, false
	}
	m := after
	for m < eol && isSpace(b[m]) {
		m++
	}
	if m == eol {
		return start, end, true
	}
	if m == after { // a title must be set off by white space
		return 0, 0, false
	}
	if t, ok := title(b, m, eol); ok && isBlank(b[t:eol]) {
		return start, end, true
	}
	return 0, 0, false
}

// destination parses a link destination at b[i], within b[:hi]: "<...>"
// or raw. It returns the target's range and the offset after it.
func destination(b []byte, i, hi int) (start, end, after int, ok bool) {
	if i < hi && b[i] == '<' {
		for j := i + 1; j < hi; j++ {
			switch b[j] {
			case '\\':
				if j+1 < hi && isPunct(b[j+1]) {
					j++
				}
			case '\n', '<':
				return 0, 0, 0, false
			case '>':
				return i + 1, j, j + 1, true
			}
		}
		return 0, 0, 0, false
	}
	depth := 0
	j := i
raw:
	for ; j < hi; j++ {
		switch c := b[j]; {
		case c == '\\' && j+1 < hi && isPunct(b[j+1]):
			j++
		case c == '(':
			if depth++; depth > 32 {
				return 0, 0, 0, false
			}
		case c == ')':
			if depth == 0 {
				break raw
			}
			depth--
		case c <= ' ' || c == 0x7f:
			break raw
		}
	}
	if depth != 0 {
		return 0, 0, 0, false
	}
	return i, j, j, true
}

// title parses a link title at b[i] ('"', '\” or '('), within b[:hi], and
// returns the offset after it.
func title(b []byte, i, hi int) (after int, ok bool) {
	closer := b[i]
	switch closer {
	case '(':
		closer = ')'
	case '"', '\'':
	default:
		return 0, false
	}
	for j := i + 1; j < hi; j++ {
		switch c := b[j]; {
		case c == '\\' && j+1 < hi && isPunct(b[j+1]):
			j++
		case c == closer:
			return j + 1, true
		case c == '(' && closer == ')':
			return 0, false
		}
	}
	return 0, false
}

// skipSpace skips spaces and tabs (and CRs) and at most one line break,
// and in a block quote the ">" markers after it.
func skipSpace(b []byte, i, hi int, quoted bool) int {
	nl := false
	for ; i < hi; i++ {
		switch c := b[i]; {
		case c == '\n' && !nl:
			nl = true
		case c == '>' && nl && quoted:
		case !isSpace(c):
			return i
		}
	}
	return i
}

// inlineLink parses "(destination title)" after a "]" at b[i] == '(',
// within b[:hi]. It returns the target's range and the offset after ")".
func inlineLink(b []byte, i, hi int, quoted bool) (start, end, after int, ok bool) {
	d := skipSpace(b, i+1, hi, quoted)
	start, end, after, ok = destination(b, d, hi)
	if !ok {
		return 0, 0, 0, false
	}
	j := skipSpace(b, after, hi, quoted)
	if j < hi && b[j] == ')' {
		return start, end, j + 1, true
	}
	if j == after || j >= hi {
		return 0, 0, 0, false
	}
	t, ok := title(b, j, hi)
	if !ok {
		return 0, 0, 0, false
	}
	j = skipSpace(b, t, hi, quoted)
	if j < hi && b[j] == ')' {
		return start, end, j + 1, true
	}
	return 0, 0, 0, false
}

// inlineSpecial marks the bytes the inline scan stops at.
var inlineSpecial = [256]bool{'\\': true, '`': true, '!': true, '[': true, ']': true, '<': true}

// paragraph appends the inline links of body[lo:hi], the text of a
// paragraph, if open.
func (s *linkScanner) paragraph(body []byte, lo, hi int, open bool, out []link) []link {
	if !open || lo >= hi || bytes.IndexByte(body[lo:hi], ']') < 0 {
		return out
	}
	s.codeSpans(body, lo, hi)
	s.openers = s.openers[:0]
	floor := 0 // link openers below this index are inactive
	t := 0     // the first tick run that does not end before i
	for i := lo; i < hi; {
		if !inlineSpecial[body[i]] {
			i++
			continue
		}
		switch body[i] {
		case '\\':
			if i+1 < hi && isPunct(body[i+1]) {
				i += 2
			} else {
				i++
			}
		case '`':
			for s.ticks[t].pos+s.ticks[t].n <= i {
				t++
			}
			n := s.ticks[t].pos + s.ticks[t].n - i // the rest of the run, after an escaped backtick
			if u := s.closer(t, n); u >= 0 {
				i = s.ticks[u].pos + s.ticks[u].n
			} else {
				i += n
			}
		case '<':
			i++
			if bytes.HasPrefix(body[i-1:hi], commentStart) {
				if j := bytes.Index(body[i+1:hi], commentEnd); j >= 0 {
					i += 1 + j + len(commentEnd)
				}
			}
		case '!':
			if i+1 < hi && body[i+1] == '[' {
				s.openers = append(s.openers, openImage)
				i += 2
			} else {
				i++
			}
		case '[':
			s.openers = append(s.openers, openLink)
			i++
		case ']':
			top := len(s.openers) - 1
			if top < 0 {
				i++
				break
			}
			kind := s.openers[top]
			inactive := kind == openLink && top < floor
			s.openers = s.openers[:top]
			floor = min(floor, top)
			if inactive || i+1 >= hi || body[i+1] != '(' {
				i++
				break
			}
			start, end, after, ok := inlineLink(body, i+1, hi, s.quotes > 0)
			if !ok {
				i++
				break
			}
			out = append(out, link{start, end})
			if kind == openLink {
				floor = len(s.openers)
			}
			i = after
		}
	}
	return out
}

// codeSpans lists the backtick strings of body[lo:hi] and links each to the
// next one of the same length, for closer.
func (s *linkScanner) codeSpans(body []byte, lo, hi int) {
	s.ticks = s.ticks[:0]
	longest := 0
	for i := lo; i < hi; {
		j := bytes.IndexByte(body[i:hi], '`')
		if j < 0 {
			break
		}
		i += j
		n := 1
		for i+n < hi && body[i+n] == '`' {
			n++
		}
		s.ticks = append(s.ticks, tickRun{i, n})
		longest = max(longest, n)
		i += n
	}
	s.nextSame = grow(s.nextSame, len(s.ticks))
	s.cursor = grow(s.cursor, longest+1)
	for n := range s.cursor {
		s.cursor[n] = -1
	}
	for u := len(s.ticks) - 1; u >= 0; u-- {
		n := s.ticks[u].n
		s.nextSame[u] = s.cursor[n]
		s.cursor[n] = int32(u)
	}
}

// closer returns the index of the first tick run after run t whose length
// is n, or -1. Calls come with t never decreasing, so each length's cursor
// only moves forward: all calls together take time linear in the runs.
func (s *linkScanner) closer(t, n int) int {
	if n >= len(s.cursor) {
		return -1
	}
	u := s.cursor[n]
	for u >= 0 && int(u) <= t {
		u = s.nextSame[u]
	}
	s.cursor[n] = u
	return int(u)
}

func grow(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n, n+n/4)
	}
	return b[:n]
}
