/* Read aloud (issue 50), on pupils' pages only (templates/cardgames/_speak_script.html).
 *
 * Why this way:
 * - One source: a 🔊 button (button.speak[data-speak-for="ID"]) reads the text of
 *   element #ID as the screen shows it, so the translation of the screen is the
 *   translation of what is said, and nothing is said that the seat cannot see
 *   (the server drew that text for this seat only).
 * - The browser's own speech synthesis: no service, no download. Where it has no
 *   voice for the page's language (<html lang>), the buttons stay hidden
 *   (app.css shows them only under html.can-speak): hidden, not broken.
 * - Signs are said as a child says them: "31 + 16 = 47" becomes "31 plus 16
 *   égale 47" with the words the server translated (data-say-* on this script's
 *   tag); the voice, set to the page's language, says the numbers itself
 *   ("trente et un", "sieben"). Text inside an element with its own lang (a
 *   Purrfect meow) is said in that language, as the game wants it.
 * - Live screens are redrawn piece by piece over the websocket: every listener
 *   is delegated to the document, so a button swapped in works at once.
 * - The class's "lire à voix haute automatiquement" (data-read-aloud="1"): the
 *   elements whose button is marked data-speak-auto (the turn line, the last
 *   feedback) are said when their words change: never on the first paint, never
 *   twice for the same words (data-speak-key tells a new move's equal words
 *   apart), and not when a line only got shorter (the same turn, its hint gone).
 */
(function () {
  "use strict";
  if (window.cgSpeakReady) return;
  window.cgSpeakReady = true;

  const tag = document.querySelector("script[data-speech]");
  const words = tag ? tag.dataset : {};
  const auto = words.readAloud === "1";
  const root = document.documentElement;
  const language = (root.getAttribute("lang") || "fr").toLowerCase();
  const synth = "speechSynthesis" in window ? window.speechSynthesis : null;
  let voice = null;

  // ------------------------------------------------------------ voices
  const langOf = (v) => String((v && v.lang) || "").toLowerCase().replace("_", "-");
  const base = (lang) => lang.split("-")[0];
  function findVoice() {
    if (!synth) return;
    let voices = [];
    try { voices = synth.getVoices() || []; } catch (e) { voices = []; }
    const fitting = Array.prototype.filter.call(voices, (v) => base(langOf(v)) === base(language));
    voice = fitting.find((v) => v.default) || fitting.find((v) => langOf(v) === language) || fitting[0] || null;
    root.classList.toggle("can-speak", voice !== null);
  }
  if (synth) {
    findVoice();
    // Chrome lists its voices late (getVoices() is empty at first).
    if (typeof synth.addEventListener === "function") synth.addEventListener("voiceschanged", findVoice);
  }

  // ------------------------------------------------------------ the words shown
  function shown(el) {
    return !(el.hidden || el.getAttribute("aria-hidden") === "true" || el.matches(".speak, script, style, template"));
  }
  // The element's words as pieces [lang, text]: what a screen reader would say
  // (an image's alt included, decorations marked aria-hidden left out).
  function pieces(el, lang, out) {
    el.childNodes.forEach((node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        out.push([lang, node.nodeValue]);
      } else if (node.nodeType === Node.ELEMENT_NODE && shown(node)) {
        if (!node.getClientRects().length && node.tagName !== "BR") return; // display: none
        if (node.tagName === "IMG") { if (node.alt) out.push([lang, " " + node.alt + " "]); return; }
        if (node.tagName === "BR") { out.push([lang, " "]); return; }
        pieces(node, (node.getAttribute("lang") || lang).toLowerCase(), out);
        // Lines and steps are said as sentences, not run together. By the tag,
        // not the computed display: a flex line makes every child a "block".
        if (BLOCKS.test(node.tagName)) out.push([lang, BREAK]);
      }
    });
    return out;
  }
  const BREAK = "\u2029";
  const BLOCKS = /^(P|LI|DIV|H[1-6]|LEGEND|SECTION|UL|OL|DT|DD|TR|FIGCAPTION|LABEL)$/;
  // Where one block of text ends: a pause (a full stop) unless it has one.
  const paused = (text) => text.replace(/[\s\u2029]+$/, "").replace(/([.!?:…])?\s*\u2029[\s\u2029]*/g, (_m, stop) => (stop || ".") + " ")
    .replace(/^[.\s]+/, "");
  function said(text) {
    const plus = words.sayPlus || "+", minus = words.sayMinus || "-";
    return text
      .replace(/\s*\+\s*/g, " " + plus + " ")
      .replace(/\s*\u2212\s*/g, " " + minus + " ")
      .replace(/(^|[\s\d(])[-\u2013]\s*(?=\d)/g, "$1 " + minus + " ")
      .replace(/\s*=\s*/g, " " + (words.sayEquals || "=") + " ")
      .replace(/\s*\u00d7\s*/g, " " + (words.sayTimes || "x") + " ")
      .replace(/\s+/g, " ")
      .trim();
  }
  // The phrases to say for element #id: one per run of the same language.
  function phrases(id) {
    const el = document.getElementById(id);
    if (!el || el.closest("[hidden]")) return [];
    const runs = [];
    pieces(el, language, []).forEach(([lang, text]) => {
      const last = runs[runs.length - 1];
      if (last && last[0] === lang) last[1] += text;
      else runs.push([lang, text]);
    });
    return runs.map(([lang, text]) => [lang, (lang === language ? said(paused(text)) : paused(text)).replace(/\s+/g, " ").trim()])
      .filter(([, text]) => text && /[\p{L}\p{N}]/u.test(text));
  }

  function speak(list, interrupt) {
    if (!synth || !voice || !list.length) return;
    if (interrupt) synth.cancel();
    list.forEach(([lang, text]) => {
      const say = new SpeechSynthesisUtterance(text);
      say.lang = lang;
      if (lang === language && typeof SpeechSynthesisVoice !== "undefined" && voice instanceof SpeechSynthesisVoice) {
        say.voice = voice;
      }
      say.rate = 0.9;
      synth.speak(say);
    });
  }

  // ------------------------------------------------------------ 🔊 tapped
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.speak[data-speak-for]");
    if (!button) return;
    event.preventDefault();
    speak(phrases(button.dataset.speakFor), true);
  });

  // ------------------------------------------------------------ read by itself
  if (!auto) return;
  const heard = new Map(); // id → what was last on screen: data-speak-key + words
  function current() {
    const now = new Map();
    document.querySelectorAll("button.speak[data-speak-auto]").forEach((button) => {
      const id = button.dataset.speakFor;
      const list = phrases(id);
      if (list.length) now.set(id, { key: (button.dataset.speakKey || "") + "\n" + list.map((p) => p[1]).join(" "), list });
    });
    return now;
  }
  function check() {
    const now = current();
    const toSay = [];
    now.forEach((line, id) => {
      // Absent from the first paint (start) and since: it is news now.
      const before = heard.get(id) || "";
      if (before !== line.key && !before.startsWith(line.key)) toSay.push(...line.list);
      heard.set(id, line.key);
    });
    // A line gone (hidden): its words may come back later and be news again.
    heard.forEach((_key, id) => { if (!now.has(id)) heard.set(id, ""); });
    speak(toSay, false);
  }
  let pending = 0;
  function soon() {
    window.clearTimeout(pending);
    pending = window.setTimeout(check, 80);
  }
  function start() {
    // The first paint is remembered, not said.
    current().forEach((line, id) => heard.set(id, line.key));
    new MutationObserver(soon).observe(document.body, {
      subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden"],
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
