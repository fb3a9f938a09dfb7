/* Purrfect on a tablet: choosing cards and an offer before sending.
 *
 * The server judges every move again; this only spares a child a refusal:
 * cards of one cat only (a mixed choice is undone with a sentence), four at most,
 * an offer can be tapped again to let go of it, and the big button says what it
 * will do ("Proposer" with no offer chosen, "Échanger" with one).
 */
(function () {
  "use strict";
  // The sentences come translated from the page (data-say-* on the form).
  const say = (form, key) => (form && form.dataset["say" + key]) || "";

  // The offer the child had chosen when a table message came in (its id), and
  // whether it was gone after it: then the big button said "Échanger" and
  // would have said "Proposer", and the child's next tap made an offer they
  // never meant. The button waits, disabled with the reason, for a new tap.
  let chosenBefore = null;
  let lostOffer = false;

  function refresh(form) {
    if (!form) return;
    const chosen = form.querySelectorAll("input[name=cards]:checked").length;
    const offer = form.querySelector("input[name=offer]:checked");
    const send = form.querySelector("[data-send]");
    const lost = lostOffer && !offer;
    if (send) {
      // With an offer of one's own out, the button can only trade: it waits
      // for an offer to be chosen.
      const canOffer = form.dataset.canOffer !== "0";
      const accepting = Boolean(offer) || !canOffer || lost;
      send.textContent = accepting ? send.dataset.acceptLabel : send.dataset.offerLabel;
      send.classList.toggle("is-accept", accepting);
      send.disabled = lost || (!offer && !canOffer);
      // The move the child sees is the move sent: never guessed by the server.
      const move = form.querySelector("[data-move]");
      if (move) move.value = offer ? "accept" : (canOffer ? "offer" : "");
    }
    const why = form.querySelector("[data-lost-why]");
    if (why) why.textContent = lost ? say(form, "Lost") : "";
    form.classList.toggle("is-lost", lost);
    form.classList.toggle("has-offer", Boolean(offer));
    form.classList.toggle("has-cards", chosen > 0);
  }

  function hint(form, text) {
    const line = form && form.querySelector("[data-hint]");
    if (line) line.textContent = text;
  }

  document.addEventListener("change", (event) => {
    const input = event.target;
    const form = input.closest && input.closest("form.pf-trade");
    if (!form) return;
    lostOffer = false; // a tap on purpose: the button may act again
    if (input.name === "cards" && input.checked) {
      const others = Array.from(form.querySelectorAll("input[name=cards]:checked")).filter((i) => i !== input);
      if (others.some((other) => other.dataset.cat !== input.dataset.cat)) {
        input.checked = false;
        hint(form, say(form, "Cat"));
      } else if (others.length >= Number(form.dataset.max || 4)) {
        input.checked = false;
        hint(form, say(form, "Max"));
      } else {
        hint(form, "");
      }
    }
    refresh(form);
  });

  // A chosen offer let go of by tapping it again (radios cannot do that alone).
  let wasChecked = null;
  document.addEventListener("pointerdown", (event) => {
    const label = event.target.closest && event.target.closest("label.pf-offer");
    const radio = label && label.querySelector("input[name=offer]");
    wasChecked = radio && radio.checked ? radio : null;
  });
  document.addEventListener("click", (event) => {
    const label = event.target.closest && event.target.closest("label.pf-offer");
    if (!label || !wasChecked) return;
    const radio = label.querySelector("input[name=offer]");
    if (radio === wasChecked) {
      event.preventDefault();
      radio.checked = false;
      wasChecked = null;
      lostOffer = false;
      refresh(label.closest("form"));
    }
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.classList || !form.classList.contains("pf-trade")) return;
    if (!form.querySelector("input[name=cards]:checked")) {
      // Nothing chosen: say so here rather than ask the server.
      event.preventDefault();
      event.stopPropagation();
      hint(form, say(form, "Pick"));
    }
  }, true);

  // Round summary: "On continue !" hides it for this round.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-close-round]");
    if (!button) return;
    const box = button.closest("[data-round-summary]");
    if (box) box.hidden = true;
    if (window.cgTable) window.cgTable.set("pf-round-closed", button.dataset.closeRound);
  });
  document.body.addEventListener("htmx:wsBeforeMessage", () => {
    const offer = document.querySelector("form.pf-trade input[name=offer]:checked");
    chosenBefore = offer ? offer.value : null;
  });
  // After a message (and table.js putting the child's choices back): was the
  // chosen offer withdrawn or taken meanwhile?
  function checkLost() {
    if (chosenBefore === null) return;
    const form = document.querySelector("form.pf-trade");
    const offer = form && form.querySelector("input[name=offer]:checked");
    if (!offer || offer.value !== chosenBefore) lostOffer = true;
    chosenBefore = null;
  }

  function hideClosedRound() {
    checkLost();
    const closed = window.cgTable ? window.cgTable.get("pf-round-closed") : null;
    document.querySelectorAll("[data-round-summary]").forEach((box) => {
      if (box.dataset.roundSummary === closed) box.hidden = true;
    });
    document.querySelectorAll("form.pf-trade").forEach(refresh);
  }
  document.addEventListener("cg:restored", hideClosedRound);
  document.body.addEventListener("htmx:wsAfterMessage", hideClosedRound);
  document.addEventListener("DOMContentLoaded", hideClosedRound);
})();
