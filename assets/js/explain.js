// The explanation of a printed figure in a popover: a click on a figure, or keyboard focus on it, shows the figure's
// section of its set's explanation page (fetched once per page, same origin); Escape, the close button or a click
// elsewhere closes it and focus returns to the figure. A figure is a link (a.xp-link, a shortcode's) or a table cell
// or card figure that names its figure id (data-fig) inside an element that names the explanation page (data-explain).
// Such figures take one tab stop per table or card list, the arrow keys (and Home, End) moving between them (a roving
// tabindex). Without JavaScript the link, or the table's caption, opens the page. A table cell's data-fig with no "/"
// is one part of its id: its row's key (data-fk) is the rest, with that part left empty; put back whole at start.
(function () {
  "use strict";
  var pages = {}, box = null, owner = null, seq = 0, quiet = false, FIG = "[data-explain] [data-fig]";

  function page(url) {
    if (!pages[url]) {
      pages[url] = fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).then(function (t) { return new DOMParser().parseFromString(t, "text/html"); });
    }
    return pages[url];
  }

  function figure(el) {  // the figure an element belongs to, or null
    if (!el.closest) return null;
    var f = el.closest("a.xp-link");
    if (f) return f;
    if (el.closest("a, button")) return null;  // a note's link in a cell keeps its own meaning
    return el.closest(FIG);
  }

  function target(f) {  // the explanation page and the figure id
    if (f.matches("a")) {
      var u = new URL(f.href, location.href);
      return { path: u.pathname, id: decodeURIComponent(u.hash.slice(1)), href: f.href };
    }
    var id = f.getAttribute("data-fig"), path = f.closest("[data-explain]").getAttribute("data-explain");
    return { path: path, id: id, href: path + "#" + id.replace(/%/g, "%25").replace(/#/g, "%23").replace(/ /g, "%20") };
  }

  function close(refocus) {
    if (!box) return;
    box.remove();
    box = null;
    if (owner) {
      if (owner.matches("a")) owner.setAttribute("aria-expanded", "false");
      if (refocus) { quiet = true; owner.focus({ preventScroll: true }); quiet = false; }
    }
    owner = null;
  }

  function place(f) {  // below the figure, kept inside the viewport's width
    var p = box.offsetParent || document.body, pr = p.getBoundingClientRect(), lr = f.getBoundingClientRect();
    var x = Math.max(8, Math.min(lr.left, document.documentElement.clientWidth - box.offsetWidth - 8));
    box.style.left = (x - pr.left - p.clientLeft) + "px";
    box.style.top = (lr.bottom - pr.top - p.clientTop + 4) + "px";
  }

  function open(f) {
    if (owner === f) return;
    close(false);
    var t = target(f), n = ++seq;
    owner = f;
    box = document.createElement("div");
    box.className = "xp-pop";
    box.id = "xp-pop";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "How this figure was computed");
    box.tabIndex = -1;
    box.innerHTML = '<button type="button" class="xp-close" aria-label="Close">×</button><div class="xp-body" aria-live="polite">Loading…</div>';
    if (f.matches("a")) {
      f.setAttribute("aria-expanded", "true");
      f.setAttribute("aria-controls", box.id);
    }
    // after the table's scroll box or the card list, where a box is valid markup; after a link itself
    (f.matches("a") ? f : f.closest(".table-wrap, ul") || f).insertAdjacentElement("afterend", box);
    box.querySelector(".xp-close").addEventListener("click", function () { close(true); });
    place(f);
    page(t.path).then(function (doc) {
      if (n !== seq || !box) return;
      var sec = doc.getElementById(t.id), body = box.querySelector(".xp-body");
      body.textContent = "";
      if (!sec) { body.textContent = "No explanation of this figure was found."; return; }
      var test = sec.parentElement && sec.parentElement.closest("section");
      var heading = test && test.querySelector(":scope > h2");  // the test's title: the figure's label omits it under its heading
      var named = heading ? document.createElement("p") : null;
      if (named) { named.className = "xp-test"; named.textContent = heading.textContent; }
      var where = test && test.querySelector(":scope > .explain-where");  // the test's source line
      var cell = sec.parentElement.matches(".xp-table") ? sec.parentElement.querySelector(":scope > .explain-notebook") : null;  // its table's notebook cell
      var base = new URL(t.path, location.href);
      [named, where, cell, sec].forEach(function (part) {
        if (!part) return;
        var copy = part === named ? part : document.importNode(part, true);
        copy.removeAttribute("id");
        copy.querySelectorAll("[id]").forEach(function (e) { e.removeAttribute("id"); });
        copy.querySelectorAll("a.xp-terms").forEach(function (a) {  // a formula's number: its words, from the page's legend
          var dt = doc.getElementById(a.getAttribute("href").slice(1)), dd = dt && dt.nextElementSibling;
          if (!dd) return;
          var words = document.createElement("span");
          words.className = "xp-terms";
          words.textContent = "(" + dd.textContent + ")";
          a.replaceWith(words);
        });
        copy.querySelectorAll("a[href]").forEach(function (a) {  // the page's links are relative to it, not to this page
          var u = new URL(a.getAttribute("href"), base);
          a.setAttribute("href", u.pathname + u.search + u.hash);
        });
        body.appendChild(copy);
      });
      var more = document.createElement("a");
      more.href = t.href;
      more.textContent = "All figures of this set";
      body.appendChild(more);
      place(f);
    }).catch(function () {
      if (n === seq && box) box.querySelector(".xp-body").textContent = "The explanation could not be loaded; follow the link instead.";
    });
  }

  function group(f) { return f.closest(".table-wrap") || f.closest("[data-explain]"); }

  function step(f, key) {  // the figure the arrow key moves to in a roving group, or null
    var all = Array.prototype.slice.call(group(f).querySelectorAll("[data-fig]")), i = all.indexOf(f);
    if (key === "Home") return all[0];
    if (key === "End") return all[all.length - 1];
    var cell = f.closest("td");
    if (cell && (key === "ArrowUp" || key === "ArrowDown")) {  // the figure in the same column of the rows above or below
      var rows = Array.prototype.slice.call(cell.closest("tbody").rows), r = rows.indexOf(cell.parentElement);
      for (var d = key === "ArrowUp" ? -1 : 1, k = r + d; k >= 0 && k < rows.length; k += d) {
        var c = rows[k].cells[cell.cellIndex];
        if (c && c.hasAttribute("data-fig")) return c;
      }
      return null;
    }
    var fwd = key === "ArrowRight" || key === "ArrowDown";
    return all[i + (fwd ? 1 : -1)] || null;
  }

  function rove(to) {
    group(to).querySelectorAll("[data-fig]").forEach(function (e) { e.tabIndex = -1; });
    to.tabIndex = 0;
    to.focus();
  }

  function whole(f) {  // a cell's whole figure id (site/table_html.py figure_id)
    var id = f.getAttribute("data-fig"), row = f.closest("tr"), key = row && row.getAttribute("data-fk");
    if (id.indexOf("/") >= 0 || !key) return id;
    var parts = key.split("/");
    parts[parts.indexOf("")] = id;
    return parts.join("/");
  }

  document.querySelectorAll("[data-explain]").forEach(function (x) {
    var seen = [];
    x.querySelectorAll("[data-fig]").forEach(function (f) {
      f.setAttribute("data-fig", whole(f));
      var g = group(f);
      f.tabIndex = seen.indexOf(g) < 0 ? 0 : -1;
      if (seen.indexOf(g) < 0) seen.push(g);
      f.title = f.title || "How this figure was computed: click, or Enter";
    });
  });

  document.addEventListener("click", function (e) {
    var f = figure(e.target);
    if (f) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
      e.preventDefault();
      if (owner === f) { close(true); return; }
      if (!f.matches("a")) rove(f);
      open(f);
      box.focus({ preventScroll: true });
    } else if (box && !box.contains(e.target)) {
      close(false);
    }
  });
  document.addEventListener("focusin", function (e) {
    var f = figure(e.target);
    if (quiet) return;
    if (f && f.matches(":focus-visible")) open(f);
    else if (box && !box.contains(e.target) && e.target !== owner) close(false);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && box) { e.preventDefault(); close(true); return; }
    var f = e.target.matches && e.target.matches(FIG) ? e.target : null;
    if (!f) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (owner === f) close(true); else { open(f); box.focus({ preventScroll: true }); }
    } else if (/^(Arrow(Up|Down|Left|Right)|Home|End)$/.test(e.key)) {
      var to = step(f, e.key);
      e.preventDefault();
      if (to) rove(to);
    }
  });
})();
