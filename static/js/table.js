/* The live table, for every game (no inline script: the page runs under a strict CSP).
 *
 * - "how to play" (<details class="cg-howto">): once a child opens or closes it,
 *   that choice survives the live re-renders of the table;
 * - 🔊 buttons ([data-speak], [data-lang]) say a word with the Web Speech API,
 *   only when tapped: nothing ever plays by itself;
 * - choices a child is making (inputs marked [data-keep] or inside form[data-keep])
 *   survive the live re-renders that other players' moves cause;
 * - cards that just arrived (.is-arrived inside [data-arrived]) animate once.
 */
(function () {
  "use strict";
  const body = document.body;

  const store = window.sessionStorage;
  const get = (key) => { try { return store.getItem(key); } catch (e) { return null; } };
  const set = (key, value) => { try { store.setItem(key, value); } catch (e) { /* private mode */ } };

  // ---------------------------------------------------------------- how to play
  function applyHowTo(root) {
    root.querySelectorAll("details.cg-howto").forEach((details) => {
      const saved = get("cg-howto-" + details.dataset.howto);
      if (saved !== null) details.open = saved === "open";
    });
  }
  // Only a child's own tap is remembered: a <details> rendered open also fires
  // "toggle", and that must not pin it open for good.
  document.addEventListener("click", (event) => {
    const summary = event.target.closest && event.target.closest("details.cg-howto > summary");
    if (!summary) return;
    const details = summary.parentElement;
    set("cg-howto-" + details.dataset.howto, details.open ? "closed" : "open");
  });

  // ---------------------------------------------------------------- speech
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-speak]");
    if (!button || !("speechSynthesis" in window)) return;
    event.preventDefault();
    const say = new SpeechSynthesisUtterance(button.dataset.speak);
    if (button.dataset.lang) say.lang = button.dataset.lang;
    say.rate = 0.9;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(say);
  });

  // ---------------------------------------------------------------- keep choices
  let kept = null;
  function keepChoices() {
    kept = [];
    document.querySelectorAll("form[data-keep] input:checked, input[data-keep]:checked").forEach((input) => {
      kept.push([input.name, input.value]);
    });
  }
  function restoreChoices() {
    if (!kept) return;
    kept.forEach(([name, value]) => {
      document.querySelectorAll("form[data-keep] input, input[data-keep]").forEach((input) => {
        if (input.name === name && input.value === value && !input.disabled) input.checked = true;
      });
    });
    kept = null;
    document.dispatchEvent(new CustomEvent("cg:restored"));
  }

  // ---------------------------------------------------------------- arrivals
  function settleArrivals(root) {
    root.querySelectorAll("[data-arrived]").forEach((box) => {
      const key = "cg-arrived-" + box.dataset.arrived;
      if (get("cg-arrived-last") === key) {
        box.querySelectorAll(".is-arrived").forEach((card) => card.classList.add("is-seen"));
      } else {
        set("cg-arrived-last", key);
      }
    });
  }

  body.addEventListener("htmx:wsBeforeMessage", keepChoices);
  body.addEventListener("htmx:wsAfterMessage", () => {
    restoreChoices();
    applyHowTo(document);
    settleArrivals(document);
  });
  document.addEventListener("DOMContentLoaded", () => {
    applyHowTo(document);
    settleArrivals(document);
  });
  // Exposed for a game's own script (purrfect.js) to hook into.
  window.cgTable = { get, set };
})();
