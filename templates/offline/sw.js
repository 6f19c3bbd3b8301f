// The service worker, registered by app.js only in a secure context (HTTPS,
// localhost). It keeps the app shell, and the last state of each game page this phone
// opened itself, so that a reload without a connection shows that game, marked with the
// time it was kept («нет связи, состояние на 21:40»), never as live. Written by the
// server (scorer/web/offline.py): the version and the shell's URLs are filled in, so a new
// version of the app is a new worker, which replaces the old shell at once.
"use strict";
var VERSION = {{ version|tojson }};
var SHELL = {{ shell|tojson }};
var SHELL_CACHE = "thousand-shell-" + VERSION;
var PAGES_CACHE = "thousand-pages";
// The game pages kept: a game's edit page and its deal form, its read-only page and board,
// opened by this phone. No host page (the list, the club), no other link, no query.
var KEPT = {{ kept|tojson }};

function keptPage(url) {
  if (url.origin !== self.location.origin || url.search) { return false; }
  return KEPT.some(function (p) { return new RegExp(p).test(url.pathname); });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE)
    .then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

// The new worker takes over every open page at once and drops older shells: a page is
// never left with a worker whose files are gone.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf("thousand-shell-") === 0 && n !== SHELL_CACHE;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// A kept page as it is shown offline: the banner with the time it was kept on top, and
// the kept time on #live for the read-only page's poller.
function marked(response) {
  var kept = response.headers.get("X-Kept-At");
  return response.text().then(function (html) {
    var at = new Date(kept);
    var hm = ("0" + at.getHours()).slice(-2) + ":" + ("0" + at.getMinutes()).slice(-2);
    var found = html.match(/data-kept="([^"]*)"/);
    var words = (found ? found[1] : "{time}").replace("{time}", hm);
    html = html.replace("<main>", '<main><p class="offline error kept" id="kept" role="status"' +
      ' data-kept-at="' + kept + '">' + words + "</p>");
    html = html.replace('<div id="live"', '<div data-kept-at="' + kept + '" id="live"');
    return new Response(html, {status: 200, headers: {
      "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}});
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (SHELL.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.match(request, {cacheName: SHELL_CACHE}).then(function (hit) {
      return hit || fetch(request);
    }));
    return;
  }
  if (request.mode !== "navigate" || !keptPage(url)) { return; }
  // Network first: a page is live whenever the server answers; the copy is for no answer.
  event.respondWith(fetch(request).then(function (response) {
    if (response.status === 200 && !response.redirected) {
      var copy = response.clone();
      copy.blob().then(function (body) {
        var headers = new Headers(copy.headers);
        headers.set("X-Kept-At", new Date().toISOString());
        return caches.open(PAGES_CACHE).then(function (cache) {
          return cache.put(url.pathname, new Response(body, {status: 200, headers: headers}));
        });
      });
    }
    return response;
  }, function () {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match(url.pathname);
    }).then(function (hit) {
      return hit ? marked(hit) : Response.error();
    });
  }));
});
