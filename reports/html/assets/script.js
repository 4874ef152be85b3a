// The report page's behaviour: sortable and filterable tables, the
// dataset and method selectors, and a self-test (open the page with
// #selftest) whose verdict the browser test reads from the DOM.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) {
    errors.push("script error: " + (e.message || e) + (e.lineno ? " (line " + e.lineno + ")" : ""));
    var res = document.getElementById("selftest-result");
    if (res) { res.setAttribute("data-status", "fail"); res.textContent = errors.join("\n"); }
  });
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  // Sorting: a click on a header sorts by that column, ascending first;
  // cells with data-v sort by number (empty = n/a, always last).
  function cellKey(row, col, numeric) {
    var c = row.cells[col];
    if (!c) return numeric ? NaN : "";
    if (numeric) { var v = c.getAttribute("data-v"); return v === null || v === "" ? NaN : parseFloat(v); }
    return c.textContent.trim().toLowerCase();
  }
  function sortTable(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    var numeric = th.getAttribute("data-sort") === "num";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r._i = i; });
    rows.sort(function (a, b) {
      var x = cellKey(a, col, numeric), y = cellKey(b, col, numeric), d;
      if (numeric) {
        if (isNaN(x) || isNaN(y)) d = isNaN(x) - isNaN(y);
        else d = dir * (x - y);
        if (isNaN(x) && isNaN(y)) d = 0;
      } else d = dir * (x < y ? -1 : x > y ? 1 : 0);
      return d || a._i - b._i;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    all("th", table.tHead).forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
  }
  all("table.sortable").forEach(function (table) {
    all("th", table.tHead).forEach(function (th, col) {
      th.title = "sort by this column";
      th.addEventListener("click", function () {
        sortTable(table, col, th.getAttribute("aria-sort") === "ascending" ? -1 : 1);
      });
    });
  });

  // Text filters: hide the rows of a table that do not contain the text.
  all("input.filter").forEach(function (input) {
    var table = document.getElementById(input.getAttribute("data-for"));
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      all("tbody tr", table).forEach(function (r) {
        r.classList.toggle("hid-f", q !== "" && r.textContent.toLowerCase().indexOf(q) < 0);
      });
    });
  });

  // Selectors: one dataset (or all) and a set of methods; rows, dataset
  // sections, front panels and front points outside them are hidden.
  var dsSelect = document.getElementById("ds-select");
  var boxes = all("#m-select input[type=checkbox]");
  var note = document.getElementById("selection-note");
  function applySelection() {
    var ds = dsSelect.value, on = {}, off = 0;
    boxes.forEach(function (b) { on[b.value] = b.checked; if (!b.checked) off++; });
    all("[data-dataset]").forEach(function (el) {
      var d = el.getAttribute("data-dataset");
      // Pooled front panels (no dataset) stay.
      el.classList.toggle("hid-ds", ds !== "" && d !== "" && d !== ds && el.tagName !== "OPTION");
    });
    all("tr[data-method], ul.legend li[data-method], ol.front-key li[data-method], details.rules[data-method]").forEach(function (el) {
      el.classList.toggle("hid-m", on[el.getAttribute("data-method")] === false);
    });
    all("g.pt[data-method], text.plabel[data-method]").forEach(function (el) {
      el.classList.toggle("hid-m", on[el.getAttribute("data-method")] === false);
    });
    all("tr[data-a]").forEach(function (el) {
      el.classList.toggle("hid-m", on[el.getAttribute("data-a")] === false || on[el.getAttribute("data-b")] === false);
    });
    var parts = [];
    if (ds) parts.push("dataset " + ds);
    if (off) parts.push((boxes.length - off) + " of " + boxes.length + " methods (mean ranks, tests and the Pareto lines are those of all methods)");
    note.textContent = parts.length ? "showing " + parts.join(", ") : "";
  }
  dsSelect.addEventListener("change", applySelection);
  boxes.forEach(function (b) { b.addEventListener("change", applySelection); });
  document.getElementById("m-all").addEventListener("click", function () { boxes.forEach(function (b) { b.checked = true; }); applySelection(); });
  document.getElementById("m-none").addEventListener("click", function () { boxes.forEach(function (b) { b.checked = false; }); applySelection(); });
  // A link to a dataset's section selects nothing: it only scrolls there.
  applySelection();

  // Front points: the tooltip shows the method, the configuration and the
  // values at once (the SVG <title> it replaces is the no-script fallback).
  var tip = document.getElementById("tip");
  all("g.pt").forEach(function (g) {
    var t = g.querySelector("title");
    if (!t) return;
    g.setAttribute("data-tip", t.textContent);
    g.removeChild(t);
    g.addEventListener("mouseover", function (e) {
      tip.textContent = g.getAttribute("data-tip");
      tip.hidden = false;
      tip.style.left = (e.clientX + 14) + "px";
      tip.style.top = (e.clientY + 14) + "px";
    });
    g.addEventListener("mouseout", function () { tip.hidden = true; });
  });

  // Self-test: sort a results table both ways, apply the dataset and
  // method selectors and a text filter, check what is shown, then restore.
  function visible(el) { return !el.closest(".hid-ds, .hid-m, .hid-f"); }
  function selftest() {
    var out = [];
    function check(ok, what) { out.push((ok ? "ok " : "FAIL ") + what); }
    var table = document.querySelector("table.cells");
    check(!!table, "a results table exists");
    if (table) {
      var ths = table.tHead.rows[0].cells, col = -1;
      for (var i = 0; i < ths.length; i++) if (ths[i].textContent === "Accuracy") col = i;
      check(col >= 0, "the results table has an Accuracy column");
      var values = function () { return Array.prototype.map.call(table.tBodies[0].rows, function (r) { return parseFloat(r.cells[col].getAttribute("data-v")); }); };
      ths[col].click();
      var v = values(), asc = v.length > 1;
      for (var j = 1; j < v.length; j++) if (v[j - 1] > v[j]) asc = false;
      check(asc, "sorting by Accuracy ascending (" + v.length + " rows)");
      check(ths[col].getAttribute("aria-sort") === "ascending", "the header shows the ascending order");
      ths[col].click();
      v = values(); var desc = v.length > 1;
      for (j = 1; j < v.length; j++) if (v[j - 1] < v[j]) desc = false;
      check(desc, "sorting by Accuracy descending");
    }
    if (dsSelect.options.length > 1) {
      var want = dsSelect.options[dsSelect.options.length - 1].value;
      dsSelect.value = want;
      dsSelect.dispatchEvent(new Event("change"));
      var rows = all("table.cells tbody tr").filter(visible);
      check(rows.length > 0 && rows.every(function (r) { return r.getAttribute("data-dataset") === want; }), "the dataset selector shows only " + want + " (" + rows.length + " rows)");
      var secs = all("section.dataset").filter(visible);
      check(secs.length === 1 && secs[0].getAttribute("data-dataset") === want, "one dataset section is shown");
      dsSelect.value = "";
      dsSelect.dispatchEvent(new Event("change"));
      check(all("table.cells tbody tr").filter(visible).length === all("table.cells tbody tr").length, "all datasets again");
    }
    if (boxes.length > 1) {
      var m = boxes[0].value;
      boxes[0].checked = false;
      boxes[0].dispatchEvent(new Event("change"));
      var shown = all("tr[data-method], g.pt[data-method], details.rules[data-method]").filter(visible);
      check(shown.length > 0 && shown.every(function (r) { return r.getAttribute("data-method") !== m; }), "the method selector hides " + m);
      var hiddenRules = all("details.rules[data-method]").filter(function (d) { return d.getAttribute("data-method") === m && !visible(d); });
      if (all("details.rules[data-method]").some(function (d) { return d.getAttribute("data-method") === m; })) {
        check(hiddenRules.length > 0, "the method selector hides the rules of " + m + " (" + hiddenRules.length + " rule sets)");
      }
      boxes[0].checked = true;
      boxes[0].dispatchEvent(new Event("change"));
    }
    // A sweep point, whose tip names its configuration, when there is one.
    var pts = all("g.pt"), pt = pts.filter(function (g) { return (g.getAttribute("data-tip") || "").split("\n")[0].indexOf(" · ") > 0; })[0] || pts[0];
    if (pt) {
      pt.dispatchEvent(new MouseEvent("mouseover", { clientX: 100, clientY: 100, bubbles: true }));
      var label = pt.getAttribute("data-tip") || "";
      check(!tip.hidden && tip.textContent === label && label.indexOf("accuracy") >= 0, "hovering a front point shows " + JSON.stringify(label.split("\n")[0]));
      pt.dispatchEvent(new MouseEvent("mouseout", { bubbles: true }));
    }
    var f = document.querySelector("input.filter");
    if (f && table) {
      var first = table.tBodies[0].rows[0].cells[0].textContent;
      f.value = first;
      f.dispatchEvent(new Event("input"));
      var kept = all("tbody tr", table).filter(visible);
      check(kept.length > 0 && kept.every(function (r) { return r.textContent.toLowerCase().indexOf(first.toLowerCase()) >= 0; }), "the text filter keeps only rows containing " + first);
      f.value = "";
      f.dispatchEvent(new Event("input"));
    }
    // The rules of the dataset sections: each set shows rules (text in a
    // code cell), a default rule ("ELSE ...") only last, and a set's
    // coverage column, where there is one, holds fractions.
    var sets = all("details.rules");
    if (sets.length) {
      var good = sets.filter(function (d) {
        var rows = all("table.rules tbody tr", d);
        if (!rows.length || !rows.every(function (r, i) { return /^IF /.test(r.cells[1].textContent) || (i === rows.length - 1 && i > 0 && /^ELSE /.test(r.cells[1].textContent)); })) return false;
        return rows.every(function (r) { return r.cells.length < 4 || r.cells[2].textContent === "—" || /^[01]\.\d{3}$/.test(r.cells[2].textContent); });
      });
      var open = sets.filter(function (d) { return d.open; }).length;
      check(good.length === sets.length, "the rules sections show rules in " + good.length + " of " + sets.length + " rule sets (" + open + " open)");
    }
    out = errors.concat(out);
    var res = document.getElementById("selftest-result");
    var failed = errors.length > 0 || out.some(function (l) { return l.indexOf("FAIL") === 0; });
    res.setAttribute("data-status", failed ? "fail" : "pass");
    res.textContent = out.join("\n");
  }
  if (location.hash === "#selftest") {
    try { selftest(); } catch (e) {
      errors.push("self-test threw: " + e);
      var res = document.getElementById("selftest-result");
      res.setAttribute("data-status", "fail");
      res.textContent = errors.join("\n");
    }
  }
})();
