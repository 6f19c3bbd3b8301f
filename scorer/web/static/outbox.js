// The outbox: a write (new deal, edit, delete, restore, adjustment) that cannot reach the
// server because of the network is kept in localStorage with its one-time id and sent
// again, in the order it was made, when the connection returns. Without JavaScript the
// forms post as they always did; a service worker cannot help on a plain-http LAN address.
// A write the server finds late (the game changed meanwhile) is not stored: it answers
// 409 with what was stored meanwhile, shown beside the waiting write until its holder
// chooses. The next deal is numbered and seated by the engine's seatings the server put
// in the form (data-ahead): the page never scores.
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
  var offline = false;                // the last request found no connection
  var ahead = null;                   // {count, states}: the seatings from a known version
  var sentMoves = [];                 // moves of this game's new records stored since then

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

  function field(entry, name) {
    var found = entry.body.filter(function (p) { return p[0] === name; })[0];
    return found ? found[1] : null;
  }
  function setBody(entry, name, value) {
    entry.body = entry.body.filter(function (p) { return p[0] !== name; });
    if (value !== null) { entry.body.push([name, String(value)]); }
  }

  // A write that adds a record (a deal, a redeal, an adjustment), as opposed to an edit.
  function isNew(entry) { return /\/deal$/.test(new URL(entry.url, location.href).pathname); }
  // What a new record does to the seating of the next deal (the seatings' moves): a
  // played deal is made or failed, which only the server can tell.
  function moveOf(entry) {
    var action = field(entry, "action");
    if (action === "play") { return ["made", "failed"]; }
    if (action === "raspis") { return ["raspis"]; }
    if (action === "adjustment" && field(entry, "reason") === "misdeal") { return ["misdeal"]; }
    return [];
  }
  function label(e) {
    return isNew(e) && e.number ? say("deal", e.number) + (e.label ? " · " + e.label : "") : e.label;
  }
  // Numbers follow the order: from ``start`` on, each new record of ``list`` takes the next.
  function renumber(list, start) {
    list.forEach(function (e) { if (e.game === game && isNew(e)) { e.number = start; start += 1; } });
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
        if (r.status >= 502 && r.status <= 504) { return lost(); }  // a proxy's
        reached();
        if (r.type === "opaqueredirect" || r.ok) { return { kind: "ok" }; }
        if (r.status === 409 && /json/.test(r.headers.get("Content-Type") || "")) {
          return r.json().then(function (j) { return { kind: "conflict", conflict: j.conflict }; });
        }
        return r.text().then(function (html) { return { kind: "refused", text: refusal(html, r.status) }; });
      }, function () { clearTimeout(t); return lost(); });
  }

  // No connection: over plain http a page closed or reloaded now cannot open again, so
  // the page says so at once, before anybody tries.
  function lost() { offline = true; warn(); render(); return { kind: "network" }; }
  // In a secure context the service worker (sw.js) answers a reload or a link from the
  // pages it keeps: then nothing needs holding back.
  function workerKeeps() { return !!(navigator.serviceWorker && navigator.serviceWorker.controller); }
  function reached() { offline = false; warn(); render(); }
  function warn() {
    var box = document.getElementById("keep-open");
    if (!offline || workerKeeps()) { if (box) { box.remove(); } return; }
    if (!box) {
      box = document.createElement("p");
      box.id = "keep-open"; box.className = "offline-note keep-open"; box.setAttribute("role", "alert");
      var main = $("main");
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = say("keepOpen");
  }

  // While there is no connection a link would lead to the browser's error page, and this
  // page (with what waits in it) could not come back: a link is followed only once the
  // server answers, and a reload or a closed tab asks first (the browser's own question).
  function guardLinks(ev) {
    if (!offline || workerKeeps() || ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
    var a = ev.target.closest && ev.target.closest("a[href]");
    if (!a || a.target || a.hasAttribute("download")) { return; }
    var url = new URL(a.href, location.href);
    if (url.origin !== location.origin) { return; }
    if (url.pathname === location.pathname && url.search === location.search && url.hash) { return; }
    ev.preventDefault();
    var ctl = window.AbortController ? new AbortController() : null;
    var t = setTimeout(function () { if (ctl) { ctl.abort(); } }, 4000);
    fetch(url.href, { method: "HEAD", cache: "no-store", credentials: "same-origin",
                      signal: ctl ? ctl.signal : undefined })
      .then(function (r) {
        clearTimeout(t);
        if (r.status >= 502 && r.status <= 504) { throw new Error("proxy"); }
        reached(); location.assign(url.href);
      })
      .catch(function () {
        clearTimeout(t); lost();
        var box = document.getElementById("keep-open");
        if (box) { box.scrollIntoView({ block: "start" }); }
      });
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
    if (first.status === "refused" || first.status === "conflict") { return; }  // the user decides
    busy = true;
    send(first, true).then(function (res) {
      busy = false;
      if (res.kind === "ok") {
        change(first.sid, function () { return null; });
        if (isNew(first)) { sentMoves.push(moveOf(first)); }
        sentSome = true; delay = FIRST_DELAY;
        seat();
        flush();
      } else if (res.kind === "conflict") {
        // Nothing was stored: what was, and the seatings from it, come with the answer.
        if (res.conflict.ahead) { ahead = res.conflict.ahead; sentMoves = []; }
        change(first.sid, function (e) { e.status = "conflict"; e.conflict = res.conflict; return e; });
        render(); seat();
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
    var decide = list.some(function (e) { return e.status === "refused" || e.status === "conflict"; });
    // Said as it is: a decision waits (online), or the connection is gone.
    var why = decide ? say("decide") : (offline ? say("later", list.length) : "");
    if (why) { head.appendChild(document.createTextNode(" " + why)); }
    box.appendChild(head);
    var ol = document.createElement("ol");
    list.forEach(function (e) { ol.appendChild(item(e)); });
    box.appendChild(ol);
    box.appendChild(button(say("send"), "outbox-send", function () { delay = FIRST_DELAY; flush(); }));
    var form = document.getElementById("deal-form");
    if (form && !offline) { if (note) { note.remove(); } }  // never «no connection» online
    else if (form) {
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
    var text = document.createElement("span");
    text.className = "outbox-label";
    text.textContent = label(e);
    li.appendChild(text);
    if (e.status === "conflict") { return conflicted(li, e); }
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
      var list = all();
      var at = list.findIndex(function (x) { return x.sid === e.sid; });
      if (at >= 0) {
        list.splice(at, 1);
        if (isNew(e) && e.number) { renumber(list.slice(at), e.number); }
        keep(list);
      }
      seat();
      flush();
    });
    drop.className = "outbox-drop";
    li.appendChild(drop);
    return li;
  }

  // The other phone's writes beside this one, and the holder's two choices. Nothing is
  // stored until one is made; it survives a reload (it is kept in localStorage).
  function conflicted(li, e) {
    var c = e.conflict;
    li.textContent = "";
    var pair = document.createElement("div");
    pair.className = "conflict-pair";
    var theirs = document.createElement("div");
    theirs.className = "theirs";
    var title = document.createElement("p");
    title.textContent = c.title;
    theirs.appendChild(title);
    var ul = document.createElement("ul");
    c.meanwhile.concat(c.more ? ["…"] : []).forEach(function (t) {
      var item = document.createElement("li"); item.textContent = t; ul.appendChild(item);
    });
    theirs.appendChild(ul);
    var mine = document.createElement("p");
    mine.className = "mine";
    mine.textContent = c.mine || label(e);
    pair.appendChild(theirs);
    pair.appendChild(mine);
    li.appendChild(pair);
    if (c.can_keep) {
      li.appendChild(button(c.keep, null, function () { choose(e.sid, true); }));
      li.lastChild.className = "outbox-keep primary";
    }
    var drop = button(c.drop, null, function () {
      if (drop.dataset.sure !== "1") { drop.dataset.sure = "1"; drop.textContent = say("dropSure"); return; }
      choose(e.sid, false);
    });
    drop.className = "outbox-drop";
    li.appendChild(drop);
    return li;
  }

  // Keep: the same write, sent again as a normal write on the version the server named.
  // Drop: it is gone; a write typed after it now follows the game as it is (which holds
  // the other phone's record of the same deal).
  function choose(sid, keepIt) {
    var list = all();
    var at = list.findIndex(function (e) { return e.sid === sid; });
    if (at < 0) { return; }
    var e = list[at], c = e.conflict;
    var rest = list.slice(at + 1).filter(function (x) { return x.game === game; });
    if (keepIt) {
      setBody(e, "version", c.version); setBody(e, "seen", c.seen); setBody(e, "after", null);
      e.status = "waiting"; delete e.conflict;
      if (isNew(e) && c.number) { renumber([e].concat(rest), c.number); }
    } else {
      list.splice(at, 1);
      var next = rest[0];
      if (next && field(next, "after") === sid) {
        setBody(next, "version", c.version); setBody(next, "seen", c.seen); setBody(next, "after", null);
      }
      if (isNew(e) && e.number) { renumber(rest, e.number); }
    }
    keep(list);
    delay = FIRST_DELAY;
    seat();
    flush();
  }

  // ------------------------------------------------------------ the next deal's seating
  // The number and seating of the deal being typed: the server's count and seatings,
  // followed by every new record stored since and every one waiting (made or failed is
  // the server's to tell: both are followed, and a golden deal that depends on it says so).
  function seat() {
    var form = document.getElementById("deal-form");
    if (!form || !ahead || form.dataset.edit) { return; }
    var moves = sentMoves.concat(mine().filter(isNew).map(moveOf));
    // Untouched until something waits: a refused form keeps what the server showed again.
    if (!moves.length && form.dataset.seated !== "1") { return; }
    form.dataset.seated = "1";
    var number = ahead.count + moves.length + 1;
    form.dataset.number = String(number);
    var h = document.getElementById("deal-title");  // the game page's form has its own
    if (h) { h.textContent = say("deal", number); }
    if (!ahead.states.length) { return; }
    var at = [0];
    moves.forEach(function (ms) {
      if (!ms.length) { return; }
      var next = [];
      at.forEach(function (i) {
        ms.forEach(function (m) { var j = ahead.states[i].then[m]; if (next.indexOf(j) < 0) { next.push(j); } });
      });
      at = next;
    });
    var states = at.map(function (i) { return ahead.states[i]; });
    var st = states[0];
    var players = JSON.parse(form.dataset.players || "[]");
    function name(el, seatNo) {
      if (!el) { return; }
      el.textContent = players[seatNo]; el.className = "p" + seatNo + " pc";
    }
    name(document.getElementById("state-dealer"), st.dealer);
    name($("#state-forced b"), st.forced);
    var talon = document.getElementById("state-talon");
    if (talon) { talon.textContent = talon.dataset.words.replace("{name}", players[st.dealer]); }
    // Four players: the dealer sits out, so the seats that play change with the deal.
    Array.prototype.forEach.call(form.querySelectorAll(".seat[data-seat], label.pick"), function (box) {
      var input = box.matches("label") ? $("input", box) : $("input.pts", box);
      var seatNo = parseInt(input.id.split("_")[1], 10);
      var off = st.active.indexOf(seatNo) < 0;
      box.hidden = off;
      Array.prototype.forEach.call(box.matches("label") ? [input] : box.querySelectorAll("input"),
        function (i) { i.disabled = off; });
    });
    var golden = states.filter(function (x) { return x.golden; }).length;
    var sure = document.getElementById("state-golden"), maybe = document.getElementById("state-golden-maybe");
    if (sure) { sure.hidden = golden !== states.length; }
    if (maybe) { maybe.hidden = golden === 0 || golden === states.length; }
    if (dirty) { return; }  // what is being typed stays as it is
    var pick = $("input[name=declarer][value='" + st.forced + "']", form);
    if (pick) { pick.checked = true; }
    var contract = $("#contract", form);
    if (contract) {
      contract.dataset.start = golden === states.length ? "120" : "100";
      contract.value = golden === states.length ? "120" : "";
    }
  }

  // ------------------------------------------------------------ the forms
  function describe(form, submitter, numbered) {
    var parts = [];
    var h = $("h1");
    if (h && form.closest("main") && !numbered) { parts.push(h.textContent.trim()); }
    var decl = $("input[name=declarer]:checked", form);
    if (decl && !(submitter && submitter.value === "redeal")) {  // a redeal has no declarer
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
    seat();
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
                  page: location.href.split("#")[0], status: "waiting", made: Date.now() };
    // A new record is numbered as it will be stored: after every one waiting before it.
    var numbered = isNew(entry) && !!ahead;
    if (numbered) { entry.number = ahead.count + sentMoves.length + waiting.filter(isNew).length + 1; }
    entry.label = describe(form, submitter, numbered);
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
    if (form && form.dataset.ahead) { ahead = JSON.parse(form.dataset.ahead); }
    if (form) {
      form.addEventListener("input", function () { dirty = true; });
      form.addEventListener("change", function (ev) { if (ev.isTrusted) { dirty = true; } });
    }
    document.addEventListener("submit", onSubmit);
    window.addEventListener("online", function () { reached(); delay = FIRST_DELAY; flush(); });
    window.addEventListener("offline", function () { lost(); render(); });
    document.addEventListener("click", guardLinks);
    window.addEventListener("beforeunload", function (ev) {
      if (offline && !workerKeeps()) { ev.preventDefault(); ev.returnValue = ""; }
    });
    if (navigator.onLine === false) { lost(); }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { flush(); }
    });
    // Another tab of this game sent or queued something: show the same list.
    window.addEventListener("storage", function (ev) { if (ev.key === KEY) { render(); seat(); } });
    seat();
    flush();
  });
})();
