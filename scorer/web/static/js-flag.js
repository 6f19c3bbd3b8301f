// Runs in <head>, before the page is drawn: the CSS can tell from the first paint that
// JavaScript works (html.js) and hide what only the no-script page needs.
document.documentElement.classList.add("js");
