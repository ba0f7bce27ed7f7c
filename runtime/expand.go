package runtime

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Expand returns the workflow's body with the arguments of an invocation
// (what Invoke returns after "/slug ") substituted, as Claude Code does for
// skills and commands:
//
//   - $ARGUMENTS is replaced by args, as given;
//   - $ARGUMENTS[N] and $N (N = 0, 1, …) by the Nth word of args, or by
//     nothing when there are fewer words. Words are separated by white
//     space; single or double quotes group words and are removed ('a b' is
//     one word), and nothing else is special (no escapes, no variables).
//
// Any other "$" is left as it is. When the body holds none of these
// placeholders and args is not empty, the body is returned followed by a
// blank line and "ARGUMENTS: {args}", so that the arguments are not lost.
func (w *Workflow) Expand(args string) string {
	body := w.Body
	if !hasPlaceholder(body) {
		if args == "" {
			return body
		}
		switch {
		case body == "":
			return "ARGUMENTS: " + args
		case strings.HasSuffix(body, "\n"):
			return body + "\nARGUMENTS: " + args
		default:
			return body + "\n\nARGUMENTS: " + args
		}
	}
	var words []string
	wordsSplit := false
	word := func(n int) string {
		if !wordsSplit {
			words, wordsSplit = splitWords(args), true
		}
		if n >= 0 && n < len(words) {
			return words[n]
		}
		return ""
	}
	var b strings.Builder
	b.Grow(len(body) + len(args))
	for {
		i := strings.IndexByte(body, '$')
		if i < 0 {
			b.WriteString(body)
			return b.String()
		}
		b.WriteString(body[:i])
		rest := body[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			rest = rest[len("ARGUMENTS"):]
			if n, after, ok := index(rest); ok {
				b.WriteString(word(n))
				rest = after
			} else {
				b.WriteString(args)
			}
		case len(rest) > 0 && isDigit(rest[0]):
			n, after := number(rest)
			b.WriteString(word(n))
			rest = after
		default:
			b.WriteByte('$')
		}
		body = rest
	}
}

// hasPlaceholder reports whether s holds $ARGUMENTS or $ followed by a digit.
func hasPlaceholder(s string) bool {
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			return false
		}
		s = s[i+1:]
		if strings.HasPrefix(s, "ARGUMENTS") || len(s) > 0 && isDigit(s[0]) {
			return true
		}
	}
}

// index parses "[N]" at the start of s.
func index(s string) (n int, rest string, ok bool) {
	if len(s) < 3 || s[0] != '[' || !isDigit(s[1]) {
		return 0, s, false
	}
	n, rest = number(s[1:])
	if !strings.HasPrefix(rest, "]") {
		return 0, s, false
	}
	return n, rest[1:], true
}

// number parses the digits at the start of s; a number too large for an
// int is -1, which no word has.
func number(s string) (n int, rest string) {
	i := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		if n >= 0 {
			if n > (1<<31-1)/10 {
				n = -1
			} else {
				n = n*10 + int(s[i]-'0')
			}
		}
	}
	return n, s[i:]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// splitWords splits args into words at unquoted white space; a pair of
// single or double quotes groups what is between them (and is removed). An
// unclosed quote runs to the end. Bytes are copied as they are, valid
// UTF-8 or not.
func splitWords(args string) []string {
	var words []string
	var cur []byte
	inWord := false
	var quote byte
	for i := 0; i < len(args); {
		c := args[i]
		r, size := utf8.DecodeRuneInString(args[i:])
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur = append(cur, args[i:i+size]...)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, string(cur))
				cur = cur[:0]
				inWord = false
			}
		default:
			cur = append(cur, args[i:i+size]...)
			inWord = true
		}
		i += size
	}
	if inWord {
		words = append(words, string(cur))
	}
	return words
}
