// Small conveniences on top of pages that work without JavaScript:
// the deal form (quick contracts, auto-filled points, live preview),
// the read-only page's polling, and the new-game preset switch.
"use strict";

(function () {
  function $(sel, root) { return (root || document).querySelector(sel); }
  // Scores as the server and the PDF write them: a real minus sign (U+2212).
  function number(n) { return n < 0 ? "\u2212" + (-n) : String(n); }
  function signed(n) { return n > 0 ? "+" + n : number(n); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  // ---------------------------------------------------------------- deal form
  function dealForm(form) {
    var contract = $("#contract", form);
    var step = parseInt(contract.dataset.step, 10);  // the agreements, from the page
    var max = parseInt(contract.dataset.max, 10);
    var timer = null;

    function declarer() {
      var r = $("input[name=declarer]:checked", form);
      return r ? r.value : null;
    }
    function pointInputs() { return $all("input.pts", form); }

    // The declarer's points are 120 minus the others, until typed by hand.
    function autofill() {
      var d = declarer();
      var others = 0, missing = 0, target = null;
      pointInputs().forEach(function (inp) {
        var seat = inp.closest(".seat").dataset.seat;
        if (seat === d) { target = inp; return; }
        if (inp.value.trim() === "") { missing += 1; } else { others += parseInt(inp.value, 10) || 0; }
      });
      pointInputs().forEach(function (inp) {
        if (inp !== target && inp.dataset.auto === "1") { inp.value = ""; inp.dataset.auto = ""; }
      });
      if (target && target.dataset.typed !== "1") {
        if (missing === 0 && others <= 120) { target.value = String(120 - others); target.dataset.auto = "1"; }
        else if (target.dataset.auto === "1") { target.value = ""; }
      }
      markZeros();
    }

    function markZeros() {
      pointInputs().forEach(function (inp) {
        inp.closest(".seat").classList.toggle("zero", inp.value.trim() === "0");
      });
    }

    function setContract(v) {
      v = Math.max(100, Math.min(max, v));
      contract.value = String(v);
      $all(".chip", form).forEach(function (c) { c.classList.toggle("on", c.dataset.contract === contract.value); });
      schedule();
    }

    function schedule() { clearTimeout(timer); timer = setTimeout(preview, 200); }

    function preview() {
      var data = new FormData(form);
      data.delete("csrf_token");
      data.set("action", "play");
      var params = new URLSearchParams(data);
      if (form.dataset.edit) { params.set("edit", form.dataset.edit); }
      var msg = $("#preview-msg");
      msg.classList.remove("error");
      if (!declarer() || contract.value.trim() === "") {
        msg.textContent = ""; clearPreview(); return;
      }
      fetch(form.dataset.preview + "?" + params.toString(), { headers: { "Accept": "application/json" }, cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (res) {
          if (res.ok) {
            res.delta.forEach(function (d, s) {
              var cell = $(".pv-delta[data-seat='" + s + "']");
              if (cell) { cell.textContent = signed(d); }
              var sc = $(".pv-score[data-seat='" + s + "']");
              if (sc) { sc.textContent = "→ " + number(res.score[s]); }
            });
            msg.textContent = "";
          } else {
            clearPreview();
            // A field's complaint waits until that field was left (or the form sent):
            // nobody wants «enter the points» before having typed any.
            msg.textContent = res.errors.filter(shownError)
              .map(function (e) { return e.text; }).join(" · ");
          }
          // Someone else changed the game since this form was opened: saving will be
          // refused, so say so now (textContent: the text is never parsed as HTML).
          if (res.stale) { msg.textContent = res.stale_text; msg.classList.add("error"); }
          else { msg.classList.remove("error"); }
        })
        .catch(function () { msg.textContent = ""; });
    }

    var touched = {};
    form.addEventListener("focusout", function (ev) {
      if (ev.target && ev.target.name) { touched[ev.target.name] = true; }
    });
    function shownError(e) {
      if (e.field === "points" || e.field === "marriages" || e.field === "no_tricks") {
        if (e.seat === null) { return Object.keys(touched).some(function (k) { return k.indexOf("points_") === 0; }); }
        return !!touched["points_" + e.seat];
      }
      if (e.field === "top" || e.field === "stale") { return true; }
      return !!touched[e.field];
    }

    function clearPreview() {
      $all(".pv-delta, .pv-score").forEach(function (c) { c.textContent = ""; });
    }

    $all(".chip", form).forEach(function (chip) {
      chip.addEventListener("click", function () { setContract(parseInt(chip.dataset.contract, 10)); });
    });
    $all(".step", form).forEach(function (btn) {
      btn.addEventListener("click", function () {
        var cur = parseInt(contract.value, 10);
        if (isNaN(cur)) { cur = parseInt(contract.placeholder, 10) || 100; setContract(cur); return; }
        setContract(cur + parseInt(btn.dataset.step, 10));
      });
    });
    pointInputs().forEach(function (inp) {
      inp.addEventListener("input", function () {
        inp.dataset.typed = inp.value.trim() === "" ? "" : "1";
        inp.dataset.auto = "";
        autofill(); schedule();
      });
    });
    $all("input[name=declarer]", form).forEach(function (r) {
      r.addEventListener("change", function () { autofill(); schedule(); });
    });
    form.addEventListener("change", schedule);
    contract.addEventListener("input", schedule);
    pointInputs().forEach(function (inp) { if (inp.value.trim() !== "") { inp.dataset.typed = "1"; } });
    markZeros();
    if (declarer() && contract.value) { schedule(); }
  }

  // ---------------------------------------------------------------- every write form
  // One tap, one request: a second tap while the first is on its way does nothing. The
  // buttons are disabled a moment after the submit, so the tapped one still sends its value.
  function oneShot(form) {
    form.addEventListener("submit", function (ev) {
      if (form.dataset.sending === "1") { ev.preventDefault(); return; }
      form.dataset.sending = "1";
      setTimeout(function () {
        $all("button[type=submit]", form).forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  }
  // Coming back with the browser's back button shows the form usable again.
  window.addEventListener("pageshow", function () {
    $all("form[method=post]").forEach(function (form) {
      form.dataset.sending = "";
      $all("button[type=submit]", form).forEach(function (b) { b.disabled = false; });
    });
  });

  // A refused save: the first wrong field gets the focus and comes into view.
  function focusWrong(summary) {
    var target = summary.dataset.focus && document.getElementById(summary.dataset.focus);
    if (target) { target.focus({ preventScroll: true }); target.scrollIntoView({ block: "center" }); }
  }

  // Times written in UTC by the server, shown in the phone's own time.
  function localTimes(root) {
    $all("time.local", root).forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d.getTime())) { return; }
      var hm = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var day = d.toLocaleDateString();
      t.textContent = day === new Date().toLocaleDateString() ? hm : day + " " + hm;
    });
  }

  // The "why" of a number: fetched from its small page when tapped, shown under the row.
  function whyLinks(root) {
    root.addEventListener("click", function (ev) {
      var link = ev.target.closest && ev.target.closest("a.why");
      if (!link || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
      ev.preventDefault();
      var row = link.closest("tr");
      var next = row.nextElementSibling;
      if (next && next.classList.contains("why-row")) { next.remove(); return; }
      fetch(link.href, { headers: { "Accept": "text/html" } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) { location.href = link.href; return; }
          var box = new DOMParser().parseFromString(html, "text/html").getElementById("why");
          if (!box) { return; }
          var h = box.querySelector("h1");
          if (h) { h.remove(); }
          var tr = document.createElement("tr");
          tr.className = "why-row";
          var td = document.createElement("td");
          td.colSpan = row.children.length;
          td.appendChild(document.importNode(box, true));
          tr.appendChild(td);
          row.parentNode.insertBefore(tr, row.nextSibling);
        })
        .catch(function () { location.href = link.href; });
    });
  }

  // ---------------------------------------------------------------- read-only polling
  function poll(live) {
    var seconds = Math.max(5, parseInt(live.dataset.poll, 10) || 5); // never more often than every 5 s
    var etag = live.dataset.etag || null;
    var lastOk = new Date();
    // Old totals must not pass for current ones: a failed poll says so above the page,
    // with the time of the last answer, until a poll gets through again.
    function reachable(ok) {
      var box = document.getElementById("offline");
      if (ok) { lastOk = new Date(); if (box) { box.remove(); } return; }
      if (!box) {
        box = document.createElement("p");
        box.id = "offline"; box.className = "offline error"; box.setAttribute("role", "status");
        live.parentNode.insertBefore(box, live);
      }
      var words = document.getElementById("offline-words");
      var hm = lastOk.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      box.textContent = (words ? words.dataset.lost : "").replace("{time}", hm);
    }
    function tick() {
      var headers = { "Accept": "text/html" };
      if (etag) { headers["If-None-Match"] = etag; }
      fetch(location.href, { headers: headers, cache: "no-store" })
        .then(function (r) {
          reachable(r.status < 500);
          if (r.status === 304 || !r.ok) { return null; }
          etag = r.headers.get("ETag") || etag;
          return r.text();
        })
        .then(function (html) {
          if (!html) { return; }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("live");
          if (!fresh) { return; }
          // Keep open the cards and legend the watcher had open (the protocol rows hold no
          // <details>, so the indexes stay put when a new row arrives on top).
          var open = $all("details", live).map(function (d) { return d.open; });
          live.innerHTML = fresh.innerHTML;
          localTimes(live);
          $all("details", live).forEach(function (d, i) { if (open[i]) { d.open = true; } });
        })
        .catch(function () { reachable(false); })
        .then(function () { setTimeout(tick, seconds * 1000); });
    }
    setTimeout(tick, seconds * 1000);
  }

  // ---------------------------------------------------------------- new game
  function newGame(form) {
    var preset = $("#preset", form);
    var apply = $("button[value=preset]", form);
    preset.addEventListener("change", function () {
      if (form.requestSubmit) { form.requestSubmit(apply); } else { apply.click(); }
    });
    // The summary of what differs from the preset follows every change.
    var presets = JSON.parse(form.dataset.presets || "{}");
    function shown(field) {
      if (field.type === "checkbox") { return field.checked ? form.dataset.on : form.dataset.off; }
      if (field.tagName === "SELECT") { return field.options[field.selectedIndex].textContent; }
      return field.value.trim() === "" ? "—" : field.value.trim();
    }
    function value(field) {
      if (field.type === "checkbox") { return field.checked; }
      return field.value.trim();
    }
    function same(a, b) {
      if (typeof a === "boolean") { return a === !!b; }
      return a === (b === null || b === undefined ? "" : String(b));
    }
    function summary() {
      var base = presets[preset.value] || {};
      var list = $("#diff-list", form);
      if (!list) { return; }
      list.innerHTML = "";
      $all("[data-ag]", form).forEach(function (field) {
        var id = field.dataset.ag;
        if (same(value(field), base[id])) { return; }
        var li = document.createElement("li");
        var b = document.createElement("b");
        b.textContent = field.closest(".agreement").dataset.title;
        li.appendChild(b);
        li.appendChild(document.createTextNode(": " + shown(field)));
        list.appendChild(li);
      });
      var none = $("#diff-none", form);
      if (none) { none.hidden = list.children.length > 0; }
    }
    $all("[data-ag]", form).forEach(function (field) {
      field.addEventListener("change", summary);
      field.addEventListener("input", summary);
    });

    var dealer = $("#first_dealer", form);
    $all(".name-input", form).forEach(function (inp) {
      inp.addEventListener("input", function () {
        var opt = dealer.options[parseInt(inp.dataset.seat, 10)];
        if (opt) { opt.textContent = inp.value.trim() || opt.dataset.label || opt.textContent; }
      });
      var opt = dealer.options[parseInt(inp.dataset.seat, 10)];
      if (opt) { opt.dataset.label = opt.textContent; if (inp.value.trim()) { opt.textContent = inp.value.trim(); } }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = $("#deal-form");
    if (form) { dealForm(form); }
    var live = $("#live[data-poll]");
    if (live) { poll(live); }
    var ng = $("#new-game");
    if (ng) { newGame(ng); }
    $all("form[method=post]").forEach(oneShot);
    var summary = $("#error-summary");
    if (summary) { focusWrong(summary); }
    localTimes(document);
    var protocol = $("#live");
    if (protocol) { whyLinks(protocol); }
  });
})();

// ==================================================================== small screen ==========
// Adjustment amount: the reason's agreed amount is filled in when a reason is picked
// (the server does the same for a blank amount without script), and the ± button
// flips the sign, since many phone number keypads have no minus key.
(function () {
  "use strict";
  var MINUS = "\u2212";

  function adjustment(reason, amount, sign) {
    function fill() {
      var opt = reason.options[reason.selectedIndex];
      var fixed = opt ? opt.dataset.amount : undefined;
      // Only overwrite what is blank or was filled in here, never what was typed.
      if (amount.value.trim() !== "" && amount.dataset.auto !== "1") { return; }
      if (fixed === undefined) {
        if (amount.dataset.auto === "1") { amount.value = ""; }
        amount.dataset.auto = "";
        amount.placeholder = "";
        return;
      }
      var n = parseInt(fixed, 10);
      amount.value = (n < 0 ? MINUS : "") + String(Math.abs(n));
      amount.dataset.auto = "1";
    }
    reason.addEventListener("change", fill);
    amount.addEventListener("input", function () { amount.dataset.auto = ""; });
    if (sign) {
      sign.addEventListener("click", function () {
        var v = amount.value.trim();
        if (v.charAt(0) === "-" || v.charAt(0) === MINUS) { amount.value = v.slice(1); }
        else { amount.value = MINUS + v; }
        amount.dataset.auto = "";
      });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var reason = document.getElementById("reason");
    var amount = document.getElementById("amount");
    if (reason && amount) { adjustment(reason, amount, document.getElementById("amount-sign")); }
  });
})();
