/* Pinocchio on a tablet (no inline script: the page runs under a strict CSP).
 *
 * - a greyed announcement says why when tapped ([data-why] → the [data-pn-hint] line);
 * - 🔊 buttons ([data-speak] with [data-lang]) say the words with the Web Speech API,
 *   only when tapped: nothing ever plays by itself. When the platform's table.js
 *   already spoke (it handles the same buttons for every game), this stays quiet.
 * The server judges every move again; this only explains.
 */
(function () {
  "use strict";
  if (window.pinocchioReady) return; // loaded again by a live re-render
  window.pinocchioReady = true;

  document.addEventListener("click", (event) => {
    const tile = event.target.closest && event.target.closest("[data-why]");
    if (!tile) return;
    event.preventDefault();
    const box = tile.closest("[data-pn]") || document;
    const hint = box.querySelector("[data-pn-hint]");
    if (hint) {
      hint.textContent = "";
      // A fresh text each tap, so a screen reader says it again.
      window.setTimeout(() => { hint.textContent = tile.dataset.why; }, 30);
    }
    document.querySelectorAll(".pn-tile.is-asked").forEach((other) => other.classList.remove("is-asked"));
    tile.classList.add("is-asked");
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-speak]");
    if (!button || event.defaultPrevented || !("speechSynthesis" in window)) return;
    event.preventDefault();
    const say = new SpeechSynthesisUtterance(button.dataset.speak);
    if (button.dataset.lang) say.lang = button.dataset.lang;
    say.rate = 0.85;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(say);
  });
})();
