package docs

import (
	"html/template"
	"regexp"
	"strings"
)

// markdown renders the part of CommonMark that API descriptions use: paragraphs, bullet and
// numbered lists, fenced code blocks, headings, inline code, strong and emphasis, links (http,
// https, mailto, in-page and same-site only) and bare http(s) URLs. Everything else, raw HTML
// included, is shown as text: the output never carries markup that the source did not ask for
// through these forms.
func markdown(src string) template.HTML {
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	var out strings.Builder
	var para []string
	var list *mdList
	flushPara := func() {
		if len(para) > 0 {
			out.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>")
			para = nil
		}
	}
	flushList := func() {
		if list != nil {
			out.WriteString(list.html())
			list = nil
		}
	}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flushPara()
			flushList()
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			flushPara()
			flushList()
			fence := trimmed[:3]
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence); i++ {
				code = append(code, lines[i])
			}
			out.WriteString("<pre class=\"code\"><code>" + template.HTMLEscapeString(strings.Join(code, "\n")) + "</code></pre>")
		case headingRe.MatchString(trimmed):
			flushPara()
			flushList()
			out.WriteString("<p class=\"md-h\">" + inline(headingRe.ReplaceAllString(trimmed, "")) + "</p>")
		case listItemRe.MatchString(line):
			flushPara()
			m := listItemRe.FindStringSubmatch(line)
			ordered := m[2] != "-" && m[2] != "*" && m[2] != "+"
			if list != nil && list.ordered != ordered {
				flushList()
			}
			if list == nil {
				list = &mdList{ordered: ordered}
			}
			list.items = append(list.items, []string{strings.TrimSpace(m[3])})
		case list != nil:
			last := &list.items[len(list.items)-1]
			*last = append(*last, trimmed)
		default:
			para = append(para, trimmed)
		}
	}
	flushPara()
	flushList()
	return template.HTML(out.String())
}

var (
	headingRe  = regexp.MustCompile(`^#{1,6}\s+`)
	listItemRe = regexp.MustCompile(`^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$`)
)

type mdList struct {
	ordered bool
	items   [][]string
}

func (l *mdList) html() string {
	tag := "ul"
	if l.ordered {
		tag = "ol"
	}
	var b strings.Builder
	b.WriteString("<" + tag + ">")
	for _, it := range l.items {
		b.WriteString("<li>" + inline(strings.Join(it, " ")) + "</li>")
	}
	b.WriteString("</" + tag + ">")
	return b.String()
}

func inline(s string) string {
	var b strings.Builder
	esc := func(x string) { b.WriteString(template.HTMLEscapeString(x)) }
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_[]()#+-.!<>{}|~", s[i+1]) >= 0:
			esc(s[i+1 : i+2])
			i += 2
			continue
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			fence := s[i : i+n]
			if end := strings.Index(s[i+n:], fence); end >= 0 {
				code := s[i+n : i+n+end]
				if len(code) > 2 && code[0] == ' ' && code[len(code)-1] == ' ' {
					code = code[1 : len(code)-1]
				}
				b.WriteString("<code>")
				esc(code)
				b.WriteString("</code>")
				i += n + end + n
				continue
			}
			esc(fence)
			i += n
			continue
		case strings.HasPrefix(s[i:], "**"):
			if end := strings.Index(s[i+2:], "**"); end > 0 {
				b.WriteString("<strong>" + inline(s[i+2:i+2+end]) + "</strong>")
				i += 2 + end + 2
				continue
			}
		case c == '*' && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '*':
			if end := strings.IndexByte(s[i+1:], '*'); end > 0 && s[i+end] != ' ' {
				b.WriteString("<em>" + inline(s[i+1:i+1+end]) + "</em>")
				i += 1 + end + 1
				continue
			}
		case c == '[':
			if m := linkRe.FindStringSubmatch(s[i:]); m != nil && safeURL(m[2]) {
				b.WriteString(`<a href="` + template.HTMLEscapeString(m[2]) + `"` + rel(m[2]) + `>` + inline(m[1]) + `</a>`)
				i += len(m[0])
				continue
			}
		case c == '<':
			if m := autoLinkRe.FindStringSubmatch(s[i:]); m != nil {
				b.WriteString(`<a href="` + template.HTMLEscapeString(m[1]) + `"` + rel(m[1]) + `>`)
				esc(m[1])
				b.WriteString("</a>")
				i += len(m[0])
				continue
			}
		case c == 'h' && (i == 0 || !isWordByte(s[i-1])):
			if m := bareURLRe.FindString(s[i:]); m != "" {
				m = strings.TrimRight(m, ".,;:!?'\")")
				b.WriteString(`<a href="` + template.HTMLEscapeString(m) + `"` + rel(m) + `>`)
				esc(m)
				b.WriteString("</a>")
				i += len(m)
				continue
			}
		}
		esc(s[i : i+1])
		i++
	}
	return b.String()
}

var (
	linkRe     = regexp.MustCompile(`^\[([^\]\n]+)\]\(\s*([^()\s]+)\s*\)`)
	autoLinkRe = regexp.MustCompile(`^<(https?://[^\s<>]+)>`)
	bareURLRe  = regexp.MustCompile(`^https?://[^\s<>]+`)
)

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// safeURL allows web and mail links and references inside the site; never javascript: or data:.
func safeURL(u string) bool {
	l := strings.ToLower(u)
	switch {
	case strings.HasPrefix(l, "https://"), strings.HasPrefix(l, "http://"), strings.HasPrefix(l, "mailto:"):
		return true
	case strings.HasPrefix(l, "#"):
		return true
	case strings.HasPrefix(l, "/") && !strings.HasPrefix(l, "//"):
		return true
	}
	return false
}

func rel(u string) string {
	if strings.HasPrefix(u, "#") || strings.HasPrefix(u, "/") {
		return ""
	}
	return ` rel="noopener noreferrer"`
}
