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
  // What a record would change, shown in its box before it is saved (a concession, an
  // adjustment): the server replays it, nothing is stored. The box's table has cells
  // .rv-delta and .rv-score per seat, and a note after it for a refusal.
  function recordPreview(form, action, box, table) {
    var note = document.getElementById(table.id + "-msg");
    function show() {
      if (!box.open) { return; }
      var data = new FormData(form);
      data.delete("csrf_token");
      data.set("action", action);
      var params = new URLSearchParams(data);
      if (form.dataset.edit) { params.set("edit", form.dataset.edit); }
      fetch(form.dataset.preview + "?" + params.toString(), { headers: { "Accept": "application/json" }, cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (res) {
          table.hidden = !res.ok;
          note.textContent = res.ok ? "" : res.errors.map(function (e) { return e.text; }).join(" · ");
          if (!res.ok) { return; }
          res.delta.forEach(function (d, s) {
            $(".rv-delta[data-seat='" + s + "']", table).textContent = signed(d);
            $(".rv-score[data-seat='" + s + "']", table).textContent = "→ " + number(res.score[s]);
          });
        })
        .catch(function () { note.textContent = ""; });
    }
    var timer = null;
    function later() { clearTimeout(timer); timer = setTimeout(show, 200); }
    box.addEventListener("toggle", show);
    form.addEventListener("change", later);
    form.addEventListener("input", later);
    form.addEventListener("click", later);  // the ± button changes the amount by script
  }

  function dealForm(form) {
    var contract = $("#contract", form);
    var step = parseInt(contract.dataset.step, 10);  // the agreements, from the page
    var max = parseInt(contract.dataset.max, 10);
    var timer = null;

    function declarer() {
      var r = $("input[name=declarer]:checked", form);
      return r ? r.value : null;
    }
    // A seat that sits this deal out (four players: the dealer) is disabled.
    function pointInputs() { return $all("input.pts:not(:disabled)", form); }

    // The declarer's points follow the others (120 minus them, where the points of three
    // players make 120) until the scorekeeper types into that field: then they are theirs.
    // A field being edited is never refilled; emptied and left, it follows again.
    var derives = form.dataset.derives === "1";
    var auto = $("#auto", form);
    function autofill() {
      var d = declarer();
      var others = 0, missing = 0, target = null;
      pointInputs().forEach(function (inp) {
        var seat = inp.closest(".seat").dataset.seat;
        if (seat === d && derives) { target = inp; return; }
        if (inp.value.trim() === "") { missing += 1; } else { others += parseInt(inp.value, 10) || 0; }
      });
      pointInputs().forEach(function (inp) {
        if (inp !== target && inp.dataset.auto === "1") { inp.value = ""; inp.dataset.auto = ""; }
      });
      auto.value = "";
      if (target && target.dataset.typed !== "1" && target !== document.activeElement) {
        if (missing === 0 && others <= 120) {
          target.value = String(120 - others); target.dataset.auto = "1";
          auto.value = target.closest(".seat").dataset.seat;
        } else if (target.dataset.auto === "1") { target.value = ""; target.dataset.auto = ""; }
      } else if (target && target.dataset.auto === "1") {
        auto.value = target.closest(".seat").dataset.seat;
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
          markLive(res.ok ? [] : res.errors.filter(shownError));
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

    // «Роспись…» opened: what the concession would change, before its second tap.
    var raspisBox = $("#raspis-confirm", form);
    if (raspisBox) { recordPreview(form, "raspis", raspisBox, $("#raspis-preview")); }

    // The fields the live preview finds wrong are marked, as a refused save marks them.
    function markLive(errors) {
      $all("[data-live-invalid]", form).forEach(function (f) {
        f.removeAttribute("data-live-invalid"); f.removeAttribute("aria-invalid");
      });
      errors.forEach(function (e) {
        var id = e.field === "points" && e.seat !== null ? "points_" + e.seat
          : (e.field === "contract" ? "contract" : null);
        var f = id && document.getElementById(id);
        if (f) { f.setAttribute("aria-invalid", "true"); f.setAttribute("data-live-invalid", "1"); }
      });
    }

    var touched = {};
    form.addEventListener("focusout", function (ev) {
      if (ev.target && ev.target.name && !touched[ev.target.name]) {
        touched[ev.target.name] = true;
        schedule();  // a complaint that waited for this field to be left is due now
      }
    });
    function shownError(e) {
      if (e.field === "points" || e.field === "marriages" || e.field === "no_tricks") {
        if (e.seat === null) { return Object.keys(touched).some(function (k) { return k.indexOf("points_") === 0; }); }
        // A value typed wrong (125) is marked at once; a blank one waits until left.
        var typedHere = $("#points_" + e.seat);
        if (e.field === "points" && typedHere && typedHere.dataset.typed === "1"
            && typedHere.value.trim() !== "") { return true; }
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
        if (isNaN(cur)) { cur = parseInt(contract.dataset.start, 10) || 100; setContract(cur); return; }
        setContract(cur + parseInt(btn.dataset.step, 10));
      });
    });
    pointInputs().forEach(function (inp) {
      inp.addEventListener("input", function () {
        inp.dataset.typed = "1";  // theirs, even while emptied to be typed again
        inp.dataset.auto = "";
        autofill(); schedule();
      });
      inp.addEventListener("blur", function () {
        if (inp.value.trim() === "") { inp.dataset.typed = ""; autofill(); schedule(); }
      });
    });
    $all("input[name=declarer]", form).forEach(function (r) {
      r.addEventListener("change", function () { autofill(); schedule(); });
    });
    // The dark game's contract is 120; unticked, the contract typed before comes back.
    var dark = $("#dark", form);
    if (dark) {
      dark.addEventListener("change", function () {
        if (dark.checked) { dark.dataset.before = contract.value; setContract(120); }
        else if (dark.dataset.before !== undefined) {
          contract.value = dark.dataset.before; setContract(parseInt(contract.value, 10) || 0);
          if (!dark.dataset.before) { contract.value = ""; }
        }
      });
    }
    // A refusal shown beside a field goes as soon as that field is changed.
    function clearServerError(ev) {
      var field = ev.target;
      if (!field || !field.name || field.type === "hidden") { return; }
      var box = field.closest(".seat") || field.closest("fieldset");
      if (!box) { return; }
      var gone = $all("p.error[id^=err-]", box).filter(function (p) {
        return p.closest(".seat") === field.closest(".seat") || field.classList.contains("pts");
      });
      gone.forEach(function (p) {
        $all("#error-summary li").forEach(function (li) {
          if (li.textContent.trim() === p.textContent.trim()) { li.remove(); }
        });
        p.remove();
      });
      if (gone.length) { $all("[aria-invalid]", box).forEach(function (f) { f.removeAttribute("aria-invalid"); }); }
    }
    form.addEventListener("input", clearServerError);
    form.addEventListener("change", clearServerError);
    form.addEventListener("change", schedule);
    contract.addEventListener("input", schedule);
    pointInputs().forEach(function (inp) { if (inp.value.trim() !== "") { inp.dataset.typed = "1"; } });
    // A stored deal's declarer points that are 120 minus the others were (or could have
    // been) filled in: they follow a corrected defender, as on a new deal.
    (function () {
      var d = declarer();
      if (!derives || d === null) { return; }
      var sum = 0, target = null, blank = false;
      pointInputs().forEach(function (inp) {
        if (inp.value.trim() === "") { blank = true; return; }
        sum += parseInt(inp.value, 10) || 0;
        if (inp.closest(".seat").dataset.seat === d) { target = inp; }
      });
      if (target && !blank && sum === 120) { target.dataset.typed = ""; target.dataset.auto = "1"; auto.value = d; }
    })();
    // Few taps a deal: a chip moves on to the first points to type, the keyboard's key goes
    // from field to field («next») and saves from the last one («done»), and a name tapped
    // before any contract opens the contract field (the chips stay in view under it).
    function toType() {  // the points fields the scorekeeper types, in order
      var d = declarer();
      return pointInputs().filter(function (inp) {
        return !(derives && inp.closest(".seat").dataset.seat === d);
      });
    }
    function hints() {
      var order = toType();
      contract.setAttribute("enterkeyhint", order.length ? "next" : "done");
      pointInputs().forEach(function (inp) {
        var at = order.indexOf(inp);
        inp.setAttribute("enterkeyhint", at >= 0 && at < order.length - 1 ? "next" : "done");
      });
    }
    // Above the keyboard: a field being typed sits in the upper half of the screen (the
    // keyboard and the pinned bar take the lower one); the contract's chips under it too.
    function intoView(field) {
      var box = field.getBoundingClientRect();
      var h = window.innerHeight;
      var top = field === contract ? h * 0.06 : h * 0.12;
      if (box.top < 0 || box.bottom > h * 0.5 || (field === contract && box.top > top + 8)) {
        window.scrollBy(0, box.top - top);
      }
    }
    function typeNext(from) {
      var order = toType();
      var next = order[from === contract ? 0 : order.indexOf(from) + 1];
      if (from === contract) {  // the first points not typed yet, else the first
        next = order.filter(function (inp) { return inp.value.trim() === ""; })[0] || next;
      }
      if (!next) { return false; }
      next.focus({ preventScroll: true });
      intoView(next);
      return true;
    }
    form.addEventListener("focusin", function (ev) {
      if (ev.target === contract || ev.target.classList.contains("pts")) { intoView(ev.target); }
    });
    form.addEventListener("keydown", function (ev) {
      var t = ev.target;
      if (ev.key !== "Enter" || (t !== contract && !t.classList.contains("pts"))) { return; }
      var order = toType();
      if (t === contract || order.indexOf(t) < order.length - 1) {  // the last one saves
        if (typeNext(t)) { ev.preventDefault(); }
      }
    });
    $all(".chip", form).forEach(function (chip) {
      chip.addEventListener("click", function () { typeNext(contract); });
    });
    if (dark) {  // «dark» is the contract chosen: on to the points
      dark.addEventListener("change", function () { if (dark.checked) { typeNext(contract); } });
    }
    $all("input[name=declarer]", form).forEach(function (r) {
      r.addEventListener("change", function (ev) {
        hints();
        if (ev.isTrusted && contract.value.trim() === "") {
          contract.focus({ preventScroll: true }); intoView(contract);
        }
      });
    });
    hints();
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
  // The summary's heading stays on the screen when the field fits below it; a field too
  // far down comes into view just above the pinned save bar.
  function focusWrong(summary) {
    var target = summary.dataset.focus && document.getElementById(summary.dataset.focus);
    if (!target) { return; }
    target.focus({ preventScroll: true });
    var bar = document.getElementById("savebar");
    var barTop = bar ? bar.getBoundingClientRect().top : window.innerHeight;
    var room = barTop > 0 && barTop < window.innerHeight ? barTop : window.innerHeight;
    var top = (document.getElementById("refused") || summary).getBoundingClientRect().top + window.scrollY - 8;
    var bottom = target.getBoundingClientRect().bottom + window.scrollY + 8;
    if (bottom - top <= room) { window.scrollTo(0, Math.max(0, top)); }
    else { target.scrollIntoView({ block: "center" }); }
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
      openWhy(link);
    });
  }
  function openWhy(link) {
      var row = link.closest("tr");
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
          var after = row.nextElementSibling;
          if (after && after.classList.contains("why-row")) { after.remove(); }
          row.parentNode.insertBefore(tr, row.nextSibling);
        })
        .catch(function () { location.href = link.href; });
  }

  // ---------------------------------------------------------------- read-only polling
  function poll(live) {
    var seconds = Math.max(5, parseInt(live.dataset.poll, 10) || 5); // never more often than every 5 s
    var etag = live.dataset.etag || null;
    // A page kept by the service worker is as old as the time it was kept.
    var lastOk = live.dataset.keptAt ? new Date(live.dataset.keptAt) : new Date();
    // Old totals must not pass for current ones: a failed poll says so above the page,
    // with the time of the last answer, until a poll gets through again.
    function reachable(ok) {
      var box = document.getElementById("offline");
      if (ok) {
        lastOk = new Date(); if (box) { box.remove(); }
        var kept = document.getElementById("kept"); if (kept) { kept.remove(); }
        return;
      }
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
          // An opened «why» stays open: fetched again under its row, which may have changed.
          var whys = $all("tr.why-row", live).map(function (w) {
            var r = w.previousElementSibling; return r ? r.id : null;
          });
          live.innerHTML = fresh.innerHTML;
          localTimes(live);
          $all("details", live).forEach(function (d, i) { if (open[i]) { d.open = true; } });
          whys.forEach(function (id) {
            var link = id && $("#" + id + " a.why", live);
            if (link) { openWhy(link); }
          });
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

    // The first dealer is one of the players named: a seat left blank is not offered
    // (until a name is typed, the first seat stands for «whoever is first»).
    var dealer = $("#first_dealer", form);
    function dealers() {
      var inputs = $all(".name-input", form);
      var any = inputs.some(function (i) { return i.value.trim() !== ""; });
      inputs.forEach(function (inp) {
        var opt = dealer.options[parseInt(inp.dataset.seat, 10)];
        if (!opt) { return; }
        opt.textContent = inp.value.trim() || opt.dataset.label;
        var off = any ? inp.value.trim() === "" : inp.dataset.seat !== "0";
        opt.hidden = off; opt.disabled = off;
      });
      if (dealer.selectedOptions[0] && dealer.selectedOptions[0].disabled) {
        var first = $all("option", dealer).filter(function (o) { return !o.disabled; })[0];
        if (first) { dealer.value = first.value; }
      }
    }
    $all(".name-input", form).forEach(function (inp) {
      var opt = dealer.options[parseInt(inp.dataset.seat, 10)];
      if (opt) { opt.dataset.label = opt.textContent; }
      inp.addEventListener("input", dealers);
    });
    dealers();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = $("#deal-form");
    if (form) { dealForm(form); }
    var adjusting = document.getElementById("adjustment-form");
    if (adjusting) {
      recordPreview(adjusting, "adjustment", document.getElementById("adjustment"),
                    document.getElementById("adjustment-preview"));
    }
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
    var mark = document.getElementById("amount-auto");
    var player = document.getElementById("player");
    function filled(v) { amount.dataset.auto = v === "" ? "" : "1"; if (mark) { mark.value = v; } }
    function fill() {
      var opt = reason.options[reason.selectedIndex];
      var fixed = opt ? opt.dataset.amount : undefined;
      // The player the reason concerns (the cutter, the dealer), unless one was picked.
      if (player && player.dataset.picked !== "1" && opt && opt.dataset.player !== undefined) {
        var blank = player.querySelector("option[value='']");
        if (opt.dataset.player === "" && !blank) {
          blank = document.createElement("option"); blank.value = "";
          blank.textContent = player.dataset.choose || "—";
          player.insertBefore(blank, player.firstChild);
        }
        player.value = opt.dataset.player;
      }
      // Only overwrite what is blank or was filled in here, never what was typed.
      if (amount.value.trim() !== "" && amount.dataset.auto !== "1") { return; }
      if (fixed === undefined) {
        if (amount.dataset.auto === "1") { amount.value = ""; }
        filled("");
        return;
      }
      var n = parseInt(fixed, 10);
      amount.value = (n < 0 ? MINUS : "") + String(Math.abs(n));
      filled(amount.value);
    }
    reason.addEventListener("change", fill);
    if (player) { player.addEventListener("change", function () { player.dataset.picked = "1"; }); }
    amount.addEventListener("input", function () { filled(""); amount.dataset.auto = ""; });
    if (sign) {
      sign.addEventListener("click", function () {
        var v = amount.value.trim();
        if (v.charAt(0) === "-" || v.charAt(0) === MINUS) { amount.value = v.slice(1); }
        else { amount.value = MINUS + v; }
        filled(""); amount.dataset.auto = "";
      });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var reason = document.getElementById("reason");
    var amount = document.getElementById("amount");
    if (reason && amount) { adjustment(reason, amount, document.getElementById("amount-sign")); }
  });
})();

// ---------------------------------------------------------------- club: player chips
// The new-game form's known players. Without JavaScript each chip is a submit
// button the server answers by filling a name field; here a tap fills (or, tapped again,
// empties) the field at once, with no round trip.
(function () {
  "use strict";
  function key(s) { return (s || "").normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase(); }
  function chips(box) {
    var form = box.closest("form");
    var fields = Array.prototype.slice.call(form.querySelectorAll(".name-input"));
    var buttons = Array.prototype.slice.call(box.querySelectorAll(".chip"));
    function mark() {
      var typed = fields.map(function (f) { return key(f.value); });
      buttons.forEach(function (b) {
        b.setAttribute("aria-pressed", typed.indexOf(key(b.value)) >= 0 ? "true" : "false");
      });
    }
    function changed(f) { f.dispatchEvent(new Event("input", { bubbles: true })); mark(); }
    buttons.forEach(function (b) {
      b.addEventListener("click", function (ev) {
        ev.preventDefault();
        var held = fields.filter(function (f) { return key(f.value) === key(b.value); })[0];
        if (held) { held.value = ""; changed(held); return; }
        var empty = fields.filter(function (f) { return f.value.trim() === ""; })[0];
        if (empty) { empty.value = b.value; changed(empty); }
      });
    });
    fields.forEach(function (f) { f.addEventListener("input", mark); });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("player-chips");
    if (box) { chips(box); }
  });
})();

// ==================================================================== table polish ==========
// The games list's dates said again in the phone's own time zone (the server wrote its
// own), and a copy button beside each link of the share page.
(function () {
  "use strict";
  function spoken(t) {
    var d = new Date(t.getAttribute("datetime"));
    if (isNaN(d.getTime())) { return; }
    var hm = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    var day = new Date(d.getFullYear(), d.getMonth(), d.getDate());
    var now = new Date();
    var today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
    var days = Math.round((today - day) / 86400000);
    var lang = document.documentElement.lang || undefined;
    if (days === 0) { t.textContent = t.dataset.today.replace("{t}", hm); return; }
    if (days === 1) { t.textContent = t.dataset.yesterday.replace("{t}", hm); return; }
    var shape = { day: "numeric", month: "long" };
    if (d.getFullYear() !== now.getFullYear()) { shape.year = "numeric"; }
    t.textContent = d.toLocaleDateString(lang, shape).replace(/\s*г\.$/, "");
  }
  function copier(btn) {
    btn.hidden = false;
    btn.addEventListener("click", function () {
      var field = document.getElementById(btn.dataset.copy);
      if (!field) { return; }
      field.select();
      var done = function () { btn.textContent = btn.dataset.done; };
      // The clipboard API needs a secure context; a LAN http page falls back to execCommand.
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () {
          if (document.execCommand("copy")) { done(); }
        });
      } else if (document.execCommand("copy")) { done(); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("time.spoken"), spoken);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), copier);
  });
})();

// ==================================================================== awake while scoring ==
// The scorekeeper's game page holds a screen wake lock while it is visible, with a switch
// to turn it off (remembered on this phone). The API exists only in a secure context
// (HTTPS, localhost); elsewhere the switch is shown disabled and says so, once, beside it.
// No fallback: the one that works without a secure context plays a hidden video.
(function () {
  "use strict";
  var KEY = "thousand.wake";

  function wakeSwitch(box) {
    var input = box.querySelector("input");
    var note = box.querySelector(".wake-note");
    var sentinel = null;
    box.hidden = false;
    if (!("wakeLock" in navigator)) {
      input.checked = false; input.disabled = true;
      note.textContent = box.dataset.unavailable;
      return;
    }
    input.checked = localStorage.getItem(KEY) !== "off";
    function hold() {
      if (!input.checked || sentinel || document.visibilityState !== "visible") { return; }
      navigator.wakeLock.request("screen").then(function (s) {
        sentinel = s;
        box.dataset.held = "1";
        s.addEventListener("release", function () {
          if (sentinel === s) { sentinel = null; }
          delete box.dataset.held;
        });
        if (!input.checked) { letGo(); }  // turned off while the request was pending
      }, function (err) {
        note.textContent = box.dataset.refused + " (" + err.name + ")";
      });
    }
    function letGo() {
      if (sentinel) { var s = sentinel; sentinel = null; s.release(); }
    }
    input.addEventListener("change", function () {
      localStorage.setItem(KEY, input.checked ? "on" : "off");
      note.textContent = "";
      if (input.checked) { hold(); } else { letGo(); }
    });
    // The browser releases the lock when the page is hidden; it is taken again on return.
    document.addEventListener("visibilitychange", hold);
    hold();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("wake");
    if (box) { wakeSwitch(box); }
  });
})();

// ==================================================================== offline after a reload
// The service worker (/sw.js) keeps the app shell and the game pages this phone opened, for
// a reload without a connection. Browsers allow one only in a secure context (HTTPS,
// localhost); over plain http on the Wi-Fi nothing is registered (the wake lock's switch
// says so on the scorekeeper's page).
(function () {
  "use strict";
  function offlineShell() {
    var words = document.getElementById("offline-words");
    if (!words || !words.dataset.sw || !window.isSecureContext || !("serviceWorker" in navigator)) {
      return;
    }
    // Its scope: the app's root (the script root, where /sw.js is served).
    var scope = words.dataset.sw.replace(/sw\.js$/, "");
    navigator.serviceWorker.register(words.dataset.sw, { scope: scope }).catch(function () {});
  }
  window.addEventListener("load", offlineShell);
})();
