// live.js follows the server's live updates (server-sent events at the
// body's data-live URL). On an update it tells the page's scripts (the
// event "evolved:update" on document) and redraws the parts of the page
// marked data-live-part from a fresh copy of the page, so that tables keep
// their server-side formatting.
"use strict";
(function () {
  const url = document.body.dataset.live;
  const mark = document.getElementById("live-state");
  if (!url || typeof EventSource === "undefined") {
    return;
  }
  let refreshing = false;
  let again = false;

  function state(on) {
    if (mark) {
      mark.classList.toggle("on", on);
      mark.classList.toggle("off", !on);
      mark.title = on ? "live updates on" : "live updates lost: reconnecting";
    }
  }

  async function refresh() {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = true;
    try {
      do {
        again = false;
        const parts = document.querySelectorAll("[data-live-part][id]");
        if (parts.length === 0) {
          break;
        }
        const res = await fetch(location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
        if (!res.ok) {
          break;
        }
        const fresh = new DOMParser().parseFromString(await res.text(), "text/html");
        parts.forEach(function (part) {
          const next = fresh.getElementById(part.id);
          if (next) {
            part.replaceWith(document.importNode(next, true));
          }
        });
        document.dispatchEvent(new CustomEvent("evolved:refreshed"));
      } while (again);
    } finally {
      refreshing = false;
    }
  }

  const source = new EventSource(url);
  source.addEventListener("open", function () { state(true); });
  source.addEventListener("error", function () { state(false); });
  source.addEventListener("update", function (e) {
    let detail;
    try {
      detail = JSON.parse(e.data);
    } catch (err) {
      return;
    }
    document.body.dataset.lastUpdate = detail.game + ":" + detail.generations;
    document.dispatchEvent(new CustomEvent("evolved:update", { detail: detail }));
    const game = document.body.dataset.game;
    if (!game || game === detail.game) {
      refresh();
    }
  });
  window.addEventListener("pagehide", function () { source.close(); });
})();
