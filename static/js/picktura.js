/* Picktura on a tablet (no inline script: the page runs under a strict CSP).
 *
 * The server judges every move again; this only helps a child make one:
 * - choosing 2-4 cards of one work before "Exposer" (a mixed choice is undone
 *   with a sentence), and one card before "Défausser";
 * - the draw choices, pile by pile: after a lay that draws N cards, each tap on
 *   a pile is one card; the visible pile then shows the card beneath (everyone
 *   saw it), the hidden pile stays a back. The whole lay goes to the server at
 *   once, as the engine wants it;
 * - cartels: a tap on a work's number, an exhibit or the ⓘ opens its <dialog>;
 *   it stays open through the live re-renders;
 * - the keypad of "Combien de points as-tu ?".
 */
(function () {
  "use strict";
  const say = (root, key) => (root && root.dataset["say" + key]) || "";
  const seatOf = (el) => el && el.closest && el.closest(".pk-seat");

  // ------------------------------------------------------------ cartels
  let openCartel = null;
  function showCartel(number) {
    const dialog = document.querySelector('dialog[data-cartel-dialog="' + number + '"]');
    if (!dialog) return;
    if (typeof dialog.showModal === "function") {
      if (!dialog.open) dialog.showModal();
    } else {
      dialog.setAttribute("open", "");
    }
    openCartel = String(number);
  }
  document.addEventListener("click", (event) => {
    const opener = event.target.closest && event.target.closest("[data-cartel]");
    if (opener) {
      event.preventDefault();
      event.stopPropagation();
      showCartel(opener.dataset.cartel);
      return;
    }
    // A tap on the backdrop (outside the dialog's box) closes it.
    const dialog = event.target.closest && event.target.closest("dialog.pk-cartel");
    if (dialog && event.target === dialog) dialog.close();
  }, true);
  document.addEventListener("close", (event) => {
    if (event.target.matches && event.target.matches("dialog.pk-cartel")) openCartel = null;
  }, true);

  // ------------------------------------------------------------ choosing cards
  function hint(form, text) {
    const line = form && form.querySelector("[data-hint]");
    if (line) line.textContent = text;
  }
  function chosen(form) {
    return Array.from(form.querySelectorAll("input[name=cards]:checked"));
  }
  function refresh(form) {
    if (!form) return;
    const button = form.querySelector("[data-needs-set]");
    if (button) {
      const cards = chosen(form);
      const same = cards.every((c) => c.dataset.work === (cards[0] && cards[0].dataset.work));
      button.classList.toggle("is-ready", cards.length >= 2 && cards.length <= 4 && same);
    }
    const one = form.querySelector("[data-needs-one]");
    if (one) one.classList.toggle("is-ready", Boolean(form.querySelector("input[name=card]:checked")));
  }
  document.addEventListener("change", (event) => {
    const input = event.target;
    const form = input.closest && input.closest("form.pk-hand-form");
    if (!form) return;
    if (input.name === "cards" && input.checked) {
      const others = chosen(form).filter((i) => i !== input);
      if (others.some((o) => o.dataset.work !== input.dataset.work)) {
        others.forEach((o) => { o.checked = false; });
        hint(form, say(seatOf(form), "Same"));
      } else if (others.length >= 4) {
        input.checked = false;
      } else {
        hint(form, "");
      }
    }
    refresh(form);
  });

  // ------------------------------------------------------------ draws, pile by pile
  let drawing = null; // {form, need, picks, visible: [ids, top first], hidden}
  function drawsFor(form) {
    if (form.dataset.mode === "exhibit") {
      const n = chosen(form).length;
      const pairs = (form.dataset.drawsBy || "").split(",").filter(Boolean).map((p) => p.split(":"));
      const hit = pairs.find(([k]) => Number(k) === n);
      return hit ? Number(hit[1]) : 0;
    }
    return Number(form.dataset.draws || 0);
  }
  function pilesBox() { return document.querySelector(".pk-seat .pk-piles"); }
  // The visible pile as tokens, top first: "s<i>" a card of the server's stack
  // (everyone saw it), "blank" the canvas a replacement puts back, "?" unknown.
  function startDrawing(form) {
    const box = pilesBox();
    const stack = document.querySelectorAll(".pk-seat [data-stack]").length;
    const count = Number(box ? box.dataset.visibleCount : 0);
    const v = [];
    for (let i = 0; i < count; i += 1) v.push(i < stack ? "s" + i : "?");
    if (form.querySelector("input[name=move]").value === "replace_blank") v.unshift("blank");
    drawing = { form: form, need: drawsFor(form), picks: [], v: v, h: Number(box ? box.dataset.hiddenCount : 0) };
    document.body.classList.add("pk-drawing");
    document.querySelectorAll("[data-pile-button]").forEach((b) => { b.disabled = false; });
    showDraw();
  }
  function showTop(token) {
    document.querySelectorAll(".pk-seat [data-stack]").forEach((card) => {
      card.hidden = token !== "s" + card.dataset.stack;
    });
    const blank = document.querySelector(".pk-seat [data-stack-blank]");
    if (blank) blank.hidden = token !== "blank";
    const unknown = document.querySelector(".pk-seat [data-stack-unknown]");
    if (unknown) unknown.hidden = token !== "?";
  }
  function stopDrawing() {
    drawing = null;
    document.body.classList.remove("pk-drawing");
    const bar = document.querySelector("[data-drawbar]");
    if (bar) bar.hidden = true;
  }
  function settle(d) {
    // The pile rules, as the engine applies them before each card.
    if (d.v.length === 0 && d.h > 0) { d.h -= 1; d.v = ["?"]; }
    if (d.h === 0 && d.v.length >= 2) { d.h = d.v.length - 1; d.v = [d.v[d.v.length - 1]]; }
  }
  function showDraw() {
    const seat = document.querySelector(".pk-seat");
    const bar = document.querySelector("[data-drawbar]");
    if (!drawing || !bar || !seat) return;
    bar.hidden = false;
    const ask = bar.querySelector("[data-draw-ask]");
    ask.textContent = say(seat, "Ask").replace("{i}", String(drawing.picks.length + 1)).replace("{n}", String(drawing.need));
    const chips = bar.querySelector("[data-draw-chips]");
    chips.textContent = "";
    drawing.picks.forEach((pile, i) => {
      const li = document.createElement("li");
      li.className = "pk-draw-chip is-" + pile;
      li.textContent = (i + 1) + " · " + say(seat, pile === "visible" ? "Visible" : "Hidden");
      chips.appendChild(li);
    });
    const view = { v: drawing.v.slice(), h: drawing.h };
    settle(view);
    showTop(view.v[0]);
    const vCount = document.querySelector("[data-count-visible]");
    const hCount = document.querySelector("[data-count-hidden]");
    if (vCount) vCount.textContent = String(view.v.length);
    if (hCount) hCount.textContent = String(view.h);
  }
  function pick(pile) {
    const d = drawing;
    settle(d);
    let source = pile;
    if (source === "hidden" && d.h === 0) source = "visible";
    if (source === "visible" && d.v.length === 0) source = "hidden";
    if (source === "visible") d.v.shift(); else d.h -= 1;
    d.picks.push(pile);
    if (d.picks.length >= d.need) {
      const form = d.form;
      form.querySelector("input[name=draw_from]").value = d.picks.join(",");
      form.dataset.ready = "1";
      stopDrawing();
      form.requestSubmit();
      return;
    }
    showDraw();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.classList) return;
    if (form.classList.contains("pk-pile-form") && drawing) {
      // During the draw choices a pile is a source, not a collect.
      event.preventDefault();
      event.stopPropagation();
      pick(form.dataset.pile);
      return;
    }
    if (form.classList.contains("pk-hand-form") && form.dataset.mode === "discard") {
      if (!form.querySelector("input[name=card]:checked")) {
        event.preventDefault();
        event.stopPropagation();
        hint(form, say(seatOf(form), "One"));
      }
      return;
    }
    if (!form.classList.contains("pk-lay-form")) return;
    if (form.dataset.mode === "exhibit") {
      const cards = chosen(form);
      const same = cards.every((c) => c.dataset.work === (cards[0] && cards[0].dataset.work));
      if (cards.length < 2 || cards.length > 4 || !same) {
        event.preventDefault();
        event.stopPropagation();
        hint(form, say(seatOf(form), "Pick"));
        return;
      }
    }
    if (form.dataset.ready === "1") {
      delete form.dataset.ready;
      return; // the draws are chosen: let htmx send it
    }
    if (drawsFor(form) > 0) {
      event.preventDefault();
      event.stopPropagation();
      startDrawing(form);
    }
  }, true);

  document.addEventListener("click", (event) => {
    const cancel = event.target.closest && event.target.closest("[data-draw-cancel]");
    if (!cancel) return;
    stopDrawing();
    showTop(document.querySelector(".pk-seat [data-stack]") ? "s0" : "");
    const box = pilesBox();
    if (box && box.dataset.canCollect !== "1") {
      document.querySelectorAll("[data-pile-button]").forEach((b) => { b.disabled = true; });
    }
    const vCount = document.querySelector("[data-count-visible]");
    const hCount = document.querySelector("[data-count-hidden]");
    if (box && vCount) vCount.textContent = box.dataset.visibleCount;
    if (box && hCount) hCount.textContent = box.dataset.hiddenCount;
  });

  // ------------------------------------------------------------ keypad
  document.addEventListener("click", (event) => {
    const key = event.target.closest && event.target.closest("[data-sum-key]");
    if (!key) return;
    const input = key.form && key.form.elements.answer;
    if (!input) return;
    if (key.dataset.sumKey === "erase") input.value = input.value.slice(0, -1);
    else if (input.value.length < 3) input.value += key.dataset.sumKey;
  });

  // ------------------------------------------------------------ live re-renders
  // A number being typed survives a re-render of the table.
  let typed = "";
  document.body.addEventListener("htmx:wsBeforeMessage", () => {
    const input = document.querySelector(".pk-sum-form input[name=answer]");
    typed = input ? input.value : "";
  });
  document.body.addEventListener("htmx:wsAfterMessage", () => {
    const input = document.querySelector(".pk-sum-form input[name=answer]");
    if (input && typed && !input.value) input.value = typed;
    if (drawing && !document.body.contains(drawing.form)) stopDrawing();
    if (openCartel) showCartel(openCartel);
    document.querySelectorAll("form.pk-hand-form").forEach(refresh);
  });
})();
