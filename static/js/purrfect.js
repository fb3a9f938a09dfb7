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

  function refresh(form) {
    if (!form) return;
    const chosen = form.querySelectorAll("input[name=cards]:checked").length;
    const offer = form.querySelector("input[name=offer]:checked");
    const send = form.querySelector("[data-send]");
    if (send) {
      // With an offer of one's own out, the button can only trade: it waits
      // for an offer to be chosen.
      const canOffer = form.dataset.canOffer !== "0";
      const accepting = Boolean(offer) || !canOffer;
      send.textContent = accepting ? send.dataset.acceptLabel : send.dataset.offerLabel;
      send.classList.toggle("is-accept", accepting);
      send.disabled = !offer && !canOffer;
    }
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
  function hideClosedRound() {
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
