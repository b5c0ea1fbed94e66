package apptest

import "testing"

// ParseHTML reads the DOM as Chromium serialises it, and HiddenBy finds what markup hides.
func TestParseHTMLAndHiddenBy(t *testing.T) {
	doc, err := ParseHTML(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title><style>p{}</style></head>
<body><input id="i" hidden=""><br><p id="p">A &amp; <b>B</b>&nbsp;c</p>
<div hidden=""><span id="h1">x</span></div><div style="display: none"><span id="h2">x</span></div>
<details><summary><span id="s">open me</span></summary><span id="h3">x</span></details>
<details open=""><span id="v">shown</span></details><div aria-hidden="true"><i id="h4">x</i></div>
<script>if (a < b && c > d) { document.write("</p>") }</script><p id="after">after</p></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	byID := func(id string) *Node {
		t.Helper()
		ns := doc.FindAll(func(n *Node) bool { return n.Attr["id"] == id })
		if len(ns) != 1 {
			t.Fatalf("%d elements with id %s", len(ns), id)
		}
		return ns[0]
	}
	if got := byID("p").Text(); got != "A & B c" {
		t.Errorf("text %q", got)
	}
	if byID("p").Closest(func(n *Node) bool { return n.Tag == "body" }) == nil {
		t.Error("p is not in body")
	}
	for id, want := range map[string]string{"i": "<input hidden>", "h1": "<div hidden>", "h2": "<div style=display: none>",
		"h3": "<details> (closed)", "h4": "<div aria-hidden=true>", "s": "", "v": "", "p": "", "after": ""} {
		if got := byID(id).HiddenBy(); got != want {
			t.Errorf("%s hidden by %q, want %q", id, got, want)
		}
	}
	if title := doc.FindAll(func(n *Node) bool { return n.Tag == "title" }); len(title) != 1 || title[0].HiddenBy() != "<head>" {
		t.Error("the head's content counts as hidden")
	}
}
