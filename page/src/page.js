// The players' page: follows the ledger (server-sent events from the hub) and records a
// roll with the face typed, or one rolled by the hub. No library, no build step.
"use strict";
(function () {
  const base = document.body.dataset.base;
  if (!base) return;
  const main = document.getElementById("page");
  const said = document.getElementById("said");
  const state = document.getElementById("link");
  const foot = document.getElementById("foot");
  let pending = null;
  // The fixed block at the bottom never covers the list: the page keeps its height free.
  function room() {
    const h = foot ? foot.getBoundingClientRect().height : 0;
    main.style.paddingBottom = (h + 16) + "px";
    document.documentElement.style.scrollPaddingBottom = (h + 16) + "px";
  }
  if (foot && window.ResizeObserver) new ResizeObserver(room).observe(foot);
  room();
  let recording = false;
  // A face being typed is not wiped by an update: the update waits until the field is left.
  function typing() {
    const a = document.activeElement;
    return a && a.tagName === "INPUT" && a.value !== "" && main.contains(a);
  }
  function put(html) {
    if (typing()) { pending = html; return; }
    main.innerHTML = html;
    pending = null;
  }
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (pending !== null && !typing()) put(pending); }, 0);
  });
  const live = new EventSource(base + "live");
  live.addEventListener("page", function (e) {
    put(e.data);
    state.textContent = "live";
    state.className = "quiet";
  });
  live.addEventListener("revoked", function (e) {
    live.close();
    main.innerHTML = "";
    said.textContent = e.data;
    said.className = "refused";
    state.textContent = "revoked";
  });
  live.onerror = function () {
    // Refused (a revoked link, too many open pages): the browser gives up; say so.
    if (live.readyState === EventSource.CLOSED) {
      state.textContent = "this link no longer opens: reload the page";
    } else {
      state.textContent = "reconnecting to the hub…";
    }
    state.className = "warn";
  };
  main.addEventListener("submit", async function (e) {
    const form = e.target;
    e.preventDefault();
    // A double tap records once: the form's buttons wait for the answer.
    if (recording) return;
    recording = true;
    // The form is read before its buttons wait: a disabled button is not sent.
    const body = new URLSearchParams(new FormData(form, e.submitter));
    const buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    said.textContent = "recording…";
    said.className = "";
    try {
      const r = await fetch(base + "roll", { method: "POST", body: body });
      const j = await r.json();
      said.textContent = j.line;
      // Coloured by what the roll did, not by its being recorded: a CF is not green.
      said.className = j.ok ? (j.tone || "") : "refused";
    } catch (err) {
      said.textContent = "the hub did not answer: the roll may or may not be recorded (the page shows what is owed once it is back)";
      said.className = "refused";
    } finally {
      recording = false;
      buttons.forEach(function (b) { b.disabled = false; });
      room();
    }
  });
})();
