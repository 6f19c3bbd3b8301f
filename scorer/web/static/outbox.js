// The outbox: a write (new deal, edit, delete, restore, adjustment) that cannot reach the
// server because of the network is kept in localStorage with its one-time id and sent
// again, in the order it was made, when the connection returns. Without JavaScript the
// forms post as they always did; a service worker cannot help on a plain-http LAN address.
"use strict";

(function () {
  var KEY = "scorer-outbox";
  var TIMEOUT = 15000;          // a request that hangs this long counts as no connection
  var FIRST_DELAY = 2000, MAX_DELAY = 60000;
  var WRITE = /\/g\/[^\/]+\/deal(\/\d+(\/delete|\/restore)?)?$/;

  var match = location.pathname.match(/^(.*\/g\/[^\/]+)/);
  if (!match) { return; }
  var game = match[1];                // the game's edit link: every page of it starts so
  var words = {};
  var delay = FIRST_DELAY, timer = null, busy = false, sentSome = false, dirty = false;
  var lastSid = "";                   // this page's last queued write: what the next follows

  function $(sel, root) { return (root || document).querySelector(sel); }
  function say(key, n) { return (words[key] || "").replace("{n}", String(n)); }

  // ------------------------------------------------------------ the list in localStorage
  function all() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]") || []; } catch (e) { return []; }
  }
  function keep(list) { localStorage.setItem(KEY, JSON.stringify(list)); }
  function mine() { return all().filter(function (e) { return e.game === game; }); }
  function change(sid, fn) {
    keep(all().map(function (e) { return e.sid === sid ? fn(e) : e; }).filter(Boolean));
  }

  // A second and later write needs its own one-time id; getRandomValues works without a
  // secure context (randomUUID does not).
  function newSid() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // Where a form posts (form.action would be its button named "action").
  function target(form) { return new URL(form.getAttribute("action") || "", location.href).href; }

  function setField(form, name, value) {
    var input = form.querySelector("input[type=hidden][name=" + name + "]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden"; input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  // ------------------------------------------------------------ sending
  // {kind: "ok"} stored (or already stored: a repeat is answered as the first post was),
  // {kind: "refused", text} the server said no, {kind: "network"} it could not be asked.
  function send(entry, late) {
    var body = new URLSearchParams();
    entry.body.forEach(function (p) { body.append(p[0], p[1]); });
    var headers = { "Content-Type": "application/x-www-form-urlencoded" };
    if (late) { headers["X-Outbox"] = "1"; }
    var ctl = window.AbortController ? new AbortController() : null;
    var t = setTimeout(function () { if (ctl) { ctl.abort(); } }, TIMEOUT);
    // The redirect is not followed here: the game page it leads to shows a change summary
    // once, and the browser's own visit must be the one that shows it.
    return fetch(entry.url, { method: "POST", body: body, headers: headers, redirect: "manual",
                              credentials: "same-origin", signal: ctl ? ctl.signal : undefined })
      .then(function (r) {
        clearTimeout(t);
        if (r.type === "opaqueredirect" || r.ok) { return { kind: "ok" }; }
        if (r.status >= 502 && r.status <= 504) { return { kind: "network" }; }  // a proxy's
        return r.text().then(function (html) { return { kind: "refused", text: refusal(html, r.status) }; });
      }, function () { clearTimeout(t); return { kind: "network" }; });
  }

  // The server's own words from its refusal page.
  function refusal(html, status) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var items = Array.prototype.map.call(doc.querySelectorAll("#error-summary li, #refusal, main .error"),
      function (el) { return el.textContent.trim(); }).filter(Boolean);
    var seen = {};
    items = items.filter(function (t) { if (seen[t]) { return false; } seen[t] = true; return true; });
    return items.length ? items.join(" · ") : "HTTP " + status;
  }

  function flush() {
    if (busy) { return; }
    clearTimeout(timer);
    var list = mine();
    if (!list.length) { return finished(); }
    var first = list[0];
    render();
    if (first.status === "refused") { return; }  // the order waits for the user's decision
    busy = true;
    send(first, true).then(function (res) {
      busy = false;
      if (res.kind === "ok") {
        change(first.sid, function () { return null; });
        sentSome = true; delay = FIRST_DELAY;
        flush();
      } else if (res.kind === "refused") {
        change(first.sid, function (e) { e.status = "refused"; e.refusal = res.text; return e; });
        render();
      } else {
        timer = setTimeout(flush, delay);
        delay = Math.min(delay * 2, MAX_DELAY);
      }
    });
  }

  // Everything sent: the game page shows the server's truth (unless a deal is being typed).
  function finished() {
    render();
    if (sentSome && !dirty) { location.assign(game); }
  }

  // ------------------------------------------------------------ what the scorekeeper sees
  function button(text, id, onClick) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text; if (id) { b.id = id; }
    b.addEventListener("click", onClick);
    return b;
  }

  function render() {
    var list = mine();
    var box = document.getElementById("outbox");
    var note = document.getElementById("offline-note");
    if (!list.length) {
      if (box) { box.remove(); }
      if (note) { note.remove(); }
      return;
    }
    if (!box) {
      box = document.createElement("section");
      box.id = "outbox"; box.className = "outbox"; box.setAttribute("role", "status");
      var main = $("main");
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = "";
    var head = document.createElement("p");
    var b = document.createElement("b");
    b.id = "outbox-count";
    b.textContent = say("banner", list.length);
    head.appendChild(b);
    head.appendChild(document.createTextNode(" " + say("later", list.length)));
    box.appendChild(head);
    var ol = document.createElement("ol");
    list.forEach(function (e) { ol.appendChild(item(e)); });
    box.appendChild(ol);
    box.appendChild(button(say("send"), "outbox-send", function () { delay = FIRST_DELAY; flush(); }));
    var form = document.getElementById("deal-form");
    if (form) {
      if (!note) {
        note = document.createElement("p");
        note.id = "offline-note"; note.className = "offline-note"; note.setAttribute("role", "status");
        var actions = $(".actions", form);
        if (actions) { actions.parentNode.insertBefore(note, actions); } else { form.appendChild(note); }
      }
      note.textContent = say("waiting", list.length);
    }
  }

  function item(e) {
    var li = document.createElement("li");
    li.className = "outbox-item " + e.status;
    li.dataset.sid = e.sid;
    var label = document.createElement("span");
    label.textContent = e.label;
    li.appendChild(label);
    if (e.status !== "refused") { return li; }
    var why = document.createElement("p");
    why.className = "error";
    why.textContent = say("refused") + " " + e.refusal;
    li.appendChild(why);
    var open = document.createElement("a");
    open.className = "button outbox-open";
    open.href = e.page + "#outbox-" + e.sid;
    open.textContent = say("open");
    // On the very page it came from only the fragment would change: load it afresh (a
    // fresh base version too).
    open.addEventListener("click", function (ev) {
      if (open.pathname !== location.pathname || open.search !== location.search) { return; }
      ev.preventDefault();
      history.replaceState(null, "", open.href);
      location.reload();
    });
    li.appendChild(open);
    // Dropping what was typed is the user's decision, asked twice.
    var drop = button(say("drop"), null, function () {
      if (drop.dataset.sure !== "1") { drop.dataset.sure = "1"; drop.textContent = say("dropSure"); return; }
      change(e.sid, function () { return null; });
      flush();
    });
    drop.className = "outbox-drop";
    li.appendChild(drop);
    return li;
  }

  // ------------------------------------------------------------ the forms
  function describe(form, submitter) {
    var parts = [];
    var h = $("h1");
    if (h && form.closest("main")) { parts.push(h.textContent.trim()); }
    var decl = $("input[name=declarer]:checked", form);
    if (decl) {
      var name = decl.parentNode.textContent.trim();
      var contract = $("#contract", form);
      parts.push(name + (contract && contract.value ? " " + contract.value : ""));
    }
    var player = $("select[name=player]", form);
    if (player) {
      var amount = $("input[name=amount]", form);
      parts.push(player.options[player.selectedIndex].textContent + " " + (amount ? amount.value : ""));
    }
    var deleted = form.classList.contains("restore") && $("span", form);
    if (deleted) { parts.push(deleted.textContent.replace(/\s+/g, " ").trim()); }
    if (submitter && submitter.value !== "play") { parts.push(submitter.textContent.trim()); }
    return parts.join(" · ");
  }

  // After a write was queued, the deal form is cleared for the next deal, with a fresh id.
  function clearForm(form) {
    form.reset();
    setField(form, "sid", newSid());
    if (form.querySelector("input[name=auto]")) { setField(form, "auto", ""); }
    Array.prototype.forEach.call(form.querySelectorAll("input.pts"), function (inp) {
      inp.dataset.typed = ""; inp.dataset.auto = "";
    });
    Array.prototype.forEach.call(document.querySelectorAll(".pv-delta, .pv-score"), function (c) { c.textContent = ""; });
    var msg = document.getElementById("preview-msg");
    if (msg) { msg.textContent = ""; }
    // Usable again a moment later: the second tap of a double tap must not send the
    // cleared form (offline, the first tap's request fails at once).
    setTimeout(function () {
      form.dataset.sending = "";
      Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (b) { b.disabled = false; });
    }, 800);
    var details = form.closest("details");
    if (details && details.id !== "outbox") { details.open = false; }
    dirty = false;
  }

  function queue(entry, form, front) {
    var list = all();
    if (front) {
      var at = list.findIndex(function (e) { return e.game === game; });
      list.splice(at < 0 ? list.length : at, 0, entry);
    } else {
      list.push(entry);
    }
    keep(list);
    lastSid = entry.sid;
    clearForm(form);
    setField(form, "after", lastSid);
    if (form.id === "deal-form") { form.dataset.front = ""; }
    render();
  }

  function onSubmit(ev) {
    var form = ev.target;
    // A tap while the first one is on its way was already stopped by app.js: one deal.
    if (ev.defaultPrevented || form.dataset.native === "1") { return; }
    if (!form.matches("form[method=post]") || !WRITE.test(new URL(target(form)).pathname)) { return; }
    var submitter = ev.submitter;
    if (submitter && submitter.value === "preview") { return; }
    ev.preventDefault();
    var waiting = mine();
    var front = form.dataset.front === "1" && waiting.length > 0;
    if (!front && waiting.length) { setField(form, "after", waiting[waiting.length - 1].sid); }
    var data = new FormData(form);
    if (submitter && submitter.name) { data.append(submitter.name, submitter.value); }
    var body = [];
    data.forEach(function (v, k) { body.push([k, String(v)]); });
    var entry = { sid: data.get("sid"), game: game, url: target(form), body: body,
                  page: location.href.split("#")[0], label: describe(form, submitter),
                  status: "waiting", made: Date.now() };
    if (waiting.length) { queue(entry, form, front); flush(); return; }
    send(entry, false).then(function (res) {
      if (res.kind === "ok") { location.assign(game); return; }  // where every save lands
      if (res.kind === "refused") {
        // Refused at once: let the browser post it and show the form with its errors.
        form.dataset.native = "1";
        form.dataset.sending = "";
        Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (b) { b.disabled = false; });
        if (form.requestSubmit) { form.requestSubmit(submitter || undefined); } else { form.submit(); }
        return;
      }
      queue(entry, form, false);
      timer = setTimeout(flush, delay);
    });
  }

  // «Open in the form» of a refused write: its fields back in the form, fresh id and base;
  // it leaves the outbox (the user took it) and, saved, goes first in the order again.
  function reopen() {
    var m = location.hash.match(/^#outbox-([A-Za-z0-9_-]+)$/);
    if (!m) { return; }
    var entry = mine().filter(function (e) { return e.sid === m[1]; })[0];
    if (!entry) { return; }
    var skip = { csrf_token: 1, version: 1, sid: 1, after: 1, action: 1 };
    // The form it came from: same address, and a field for everything it said.
    var form = Array.prototype.filter.call(document.querySelectorAll("form[method=post]"), function (f) {
      return target(f) === entry.url && entry.body.every(function (p) { return skip[p[0]] || f.elements[p[0]]; });
    })[0];
    if (!form) { return; }
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || skip[el.name]) { return; }
      var values = entry.body.filter(function (p) { return p[0] === el.name; }).map(function (p) { return p[1]; });
      if (el.type === "checkbox" || el.type === "radio") { el.checked = values.indexOf(el.value) >= 0; }
      else if (el.tagName !== "BUTTON") { el.value = values.length ? values[0] : ""; }
    });
    Array.prototype.forEach.call(form.querySelectorAll("input.pts"), function (inp) {
      inp.dataset.typed = inp.value.trim() === "" ? "" : "1";
    });
    var details = form.closest("details");
    if (details) { details.open = true; }
    change(entry.sid, function () { return null; });
    form.dataset.front = "1";
    form.dispatchEvent(new Event("change", { bubbles: true }));  // the live preview
    history.replaceState(null, "", location.pathname + location.search);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var w = document.getElementById("offline-words");
    if (w) { words = w.dataset; }
    reopen();
    var form = document.getElementById("deal-form");
    if (form) {
      form.addEventListener("input", function () { dirty = true; });
      form.addEventListener("change", function (ev) { if (ev.isTrusted) { dirty = true; } });
    }
    document.addEventListener("submit", onSubmit);
    window.addEventListener("online", function () { delay = FIRST_DELAY; flush(); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { flush(); }
    });
    // Another tab of this game sent or queued something: show the same list.
    window.addEventListener("storage", function (ev) { if (ev.key === KEY) { render(); } });
    flush();
  });
})();
