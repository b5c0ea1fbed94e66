// The index keeps the anchors of the reference's former single page (/docs#createAttribute,
// /docs#schema-Attribute, /docs#tag-Attributes): each is a link with data-moved to where that part
// is now, which a reader without scripts follows by hand; with scripts the page goes there at once.
(function () {
  "use strict";
  if (!location.hash) { return; }
  var id;
  try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
  var el = document.getElementById(id);
  if (el && el.hasAttribute("data-moved") && el.href) { location.replace(el.href); }
})();

// Filter box for the sidebar: the page is complete without it (the box stays hidden when scripts
// do not run). "/" focuses the box, Escape clears it.
(function () {
  "use strict";
  var input = document.getElementById("filter");
  if (!input) { return; }
  var items = Array.prototype.slice.call(document.querySelectorAll("li[data-filter]"));
  var groups = Array.prototype.slice.call(document.querySelectorAll("[data-group], .nav .nav-models, .nav-families"));
  input.hidden = false;
  function apply() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    items.forEach(function (li) {
      var text = li.getAttribute("data-filter");
      li.hidden = !words.every(function (w) { return text.indexOf(w) !== -1; });
    });
    groups.forEach(function (g) {
      g.hidden = words.length > 0 && !g.querySelector("li[data-filter]:not([hidden])");
      if (g.tagName === "DETAILS" && words.length > 0 && !g.hidden) { g.open = true; }
    });
  }
  input.addEventListener("input", apply);
  input.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { input.value = ""; apply(); input.blur(); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== input && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      input.focus();
    }
  });
})();
