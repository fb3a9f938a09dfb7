/* The page behaviour that used to live in inline handlers, so the strict
   Content-Security-Policy (script-src 'self' + nonce) allows it. No build step:
   plain event delegation, so content that htmx swaps in later works too. */
(function () {
  "use strict";

  // The Chasse keypad: digits append to the announce field, ⌫ erases.
  document.addEventListener("click", function (event) {
    var key = event.target.closest ? event.target.closest("[data-announce-key]") : null;
    if (key && key.form) {
      var input = key.form.elements.announce;
      var value = key.getAttribute("data-announce-key");
      if (!input) return;
      if (value === "erase") input.value = input.value.slice(0, -1);
      else if (input.value.length < 4) input.value += value;
      return;
    }
    var print = event.target.closest ? event.target.closest("[data-print]") : null;
    if (print) {
      event.preventDefault();
      window.print();
    }
  });

  // A form sent over the websocket that ends something (a table, the lesson)
  // asks first. htmx's hx-confirm does not apply to ws-send, so this listens
  // on window in the capture phase, before htmx sees the submit.
  window.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute ? form.getAttribute("data-confirm") : null;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // Live tables: a hint while the websocket reconnects (htmx's ws extension
  // reconnects by itself).
  document.addEventListener("htmx:wsClose", function () {
    document.body.classList.add("cg-offline");
  });
  document.addEventListener("htmx:wsOpen", function () {
    document.body.classList.remove("cg-offline");
  });
  // The tablet lost its network (Wi-Fi gone, asleep): say so at once, without
  // waiting for the socket to notice, which can take a minute. When the network
  // is back, the socket may have died silently meanwhile and taps made offline
  // would be replayed late: a live page loads afresh instead, since everything
  // it shows lives on the server (the table, the card chosen, whose turn).
  var wentOffline = false;
  window.addEventListener("offline", function () {
    wentOffline = true;
    document.body.classList.add("cg-offline");
  });
  // "online" only says a network is up (Wi-Fi joining, a captive portal): the
  // page reloads once the server itself answers, whatever it answers, or the
  // tablet would be left on the browser's own error page.
  function reloadWhenServerAnswers(wait) {
    fetch(window.location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function () { window.location.reload(); })
      .catch(function () {
        setTimeout(function () { reloadWhenServerAnswers(Math.min(wait * 2, 15000)); }, wait);
      });
  }
  window.addEventListener("online", function () {
    if (wentOffline && document.querySelector("[ws-connect]")) reloadWhenServerAnswers(1000);
    else document.body.classList.remove("cg-offline");
  });

  // A table that moved on ("Rejouer"): follow it. The fragment carries the new
  // address in data-moved (an inline <script> would be refused by the CSP).
  function followMoved(root) {
    var scope = root && root.querySelector ? root : document;
    var moved = scope.matches && scope.matches("[data-moved]") ? scope : scope.querySelector("[data-moved]");
    if (moved) {
      var url = moved.getAttribute("data-moved");
      if (url && url.charAt(0) === "/" && url.charAt(1) !== "/") window.location.assign(url);
    }
  }
  // A wide report table scrolls sideways inside its box on a phone; the line
  // before the box says so, only while part of the table is out of view
  // (nothing in the table itself shows that more is hidden on the right).
  function scrollHints() {
    var boxes = document.querySelectorAll(".rp-scroll");
    for (var i = 0; i < boxes.length; i++) {
      var hint = boxes[i].previousElementSibling;
      if (!hint || !hint.classList.contains("rp-scroll-hint")) continue;
      hint.hidden = boxes[i].scrollWidth <= boxes[i].clientWidth + 1;
    }
  }
  document.addEventListener("DOMContentLoaded", scrollHints);
  window.addEventListener("resize", scrollHints);
  // A <details> opening its data table (toggle does not bubble: captured).
  document.addEventListener("toggle", scrollHints, true);
  document.addEventListener("htmx:afterSettle", scrollHints);

  document.addEventListener("htmx:load", function (event) { followMoved(event.target); });
  document.addEventListener("htmx:oobAfterSwap", function (event) { followMoved(event.target); });
  document.addEventListener("DOMContentLoaded", function () { followMoved(document); });
})();
