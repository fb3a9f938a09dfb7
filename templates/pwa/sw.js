/* La Chasse aux Souris: the pupils' service worker (config/pwa.py says why).
   Stores the static files and one offline page per language; pages themselves
   always come from the network and are never stored (they may hold a pupil's name). */
"use strict";
const CACHE = "{{ cache_name }}";
const PRECACHE = {{ precache|safe }};
const OFFLINE = {{ offline_pages|safe }};
const DEFAULT_LANGUAGE = {{ default_language|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};
// A teacher's, a parent's and the admin's pages stay ordinary pages.
const ORDINARY = {{ ordinary_prefixes|safe }};
// The language of the last page seen, kept in the cache (the worker's memory
// does not outlive it), so the offline page speaks the tablet's language.
const LANGUAGE_KEY = "/__pupil-language__";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...PRECACHE, ...Object.values(OFFLINE)]))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("chasse-") && name !== CACHE)
          .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function languageOf(response) {
  const header = (response.headers.get("Content-Language") || "").slice(0, 2).toLowerCase();
  return OFFLINE[header] ? header : null;
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  const remembered = await cache.match(LANGUAGE_KEY);
  let language = remembered ? await remembered.text() : "";
  if (!OFFLINE[language]) {
    const tablet = (self.navigator.language || "").slice(0, 2).toLowerCase();
    language = OFFLINE[tablet] ? tablet : DEFAULT_LANGUAGE;
  }
  const page = await cache.match(OFFLINE[language]);
  return page || new Response("", { status: 503 });
}

async function navigate(request) {
  try {
    const response = await fetch(request);
    const language = languageOf(response);
    if (language) {
      const cache = await caches.open(CACHE);
      await cache.put(LANGUAGE_KEY, new Response(language, { headers: { "Content-Type": "text/plain" } }));
    }
    return response;  // never stored
  } catch (error) {
    return offlinePage();
  }
}

async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(request);
  if (stored) {
    return stored;
  }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    if (!ORDINARY.some((prefix) => url.pathname.startsWith(prefix))) {
      event.respondWith(navigate(request));
    }
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(staticFile(request));
  }
  // Anything else (htmx requests, the manifest, websockets) goes to the network untouched.
});
