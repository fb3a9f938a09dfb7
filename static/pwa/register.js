/* Registers the pupils' service worker (only pupils' pages load this file). */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) {
    return;
  }
  var url = script.getAttribute("data-worker");
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      /* No worker (a private window, an old browser): the app works as before. */
    });
  });
})();
