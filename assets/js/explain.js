// The explanation of a printed figure in a popover: a click on a figure (a.xp-link), or keyboard focus on it, shows
// the figure's section of its set's explanation page (fetched once per page, same origin); Escape, the close
// button or a click elsewhere closes it and focus returns to the figure. Without JavaScript the link opens the page.
(function () {
  "use strict";
  var pages = {}, box = null, owner = null, seq = 0, quiet = false;

  function page(url) {
    if (!pages[url]) {
      pages[url] = fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).then(function (t) { return new DOMParser().parseFromString(t, "text/html"); });
    }
    return pages[url];
  }

  function close(refocus) {
    if (!box) return;
    box.remove();
    box = null;
    if (owner) {
      owner.setAttribute("aria-expanded", "false");
      if (refocus) { quiet = true; owner.focus({ preventScroll: true }); quiet = false; }
    }
    owner = null;
  }

  function place(link) {  // below the figure, kept inside the viewport's width
    var p = box.offsetParent || document.body, pr = p.getBoundingClientRect(), lr = link.getBoundingClientRect();
    var x = Math.max(8, Math.min(lr.left, document.documentElement.clientWidth - box.offsetWidth - 8));
    box.style.left = (x - pr.left - p.clientLeft) + "px";
    box.style.top = (lr.bottom - pr.top - p.clientTop + 4) + "px";
  }

  function open(link) {
    if (owner === link) return;
    close(false);
    var url = new URL(link.href, location.href), id = decodeURIComponent(url.hash.slice(1));
    var n = ++seq;
    owner = link;
    link.setAttribute("aria-expanded", "true");
    box = document.createElement("div");
    box.className = "xp-pop";
    box.id = "xp-pop";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", "How this figure was computed");
    box.tabIndex = -1;
    box.innerHTML = '<button type="button" class="xp-close" aria-label="Close">×</button><div class="xp-body" aria-live="polite">Loading…</div>';
    link.setAttribute("aria-controls", box.id);
    link.insertAdjacentElement("afterend", box);
    box.querySelector(".xp-close").addEventListener("click", function () { close(true); });
    place(link);
    page(url.pathname).then(function (doc) {
      if (n !== seq || !box) return;
      var sec = doc.getElementById(id), body = box.querySelector(".xp-body");
      body.textContent = "";
      if (!sec) { body.textContent = "No explanation of this figure was found."; return; }
      var copy = document.importNode(sec, true);
      copy.removeAttribute("id");
      copy.querySelectorAll("[id]").forEach(function (e) { e.removeAttribute("id"); });
      body.appendChild(copy);
      var more = document.createElement("a");
      more.href = link.href;
      more.textContent = "All figures of this set";
      body.appendChild(more);
      place(link);
    }).catch(function () {
      if (n === seq && box) box.querySelector(".xp-body").textContent = "The explanation could not be loaded; follow the link instead.";
    });
  }

  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a.xp-link");
    if (link) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
      e.preventDefault();
      if (owner === link) { close(true); return; }
      open(link);
      box.focus({ preventScroll: true });
    } else if (box && !box.contains(e.target)) {
      close(false);
    }
  });
  document.addEventListener("focusin", function (e) {
    var link = e.target.closest && e.target.closest("a.xp-link");
    if (quiet) return;
    if (link && link.matches(":focus-visible")) open(link);
    else if (box && !box.contains(e.target) && e.target !== owner) close(false);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && box) { e.preventDefault(); close(true); }
  });
})();
