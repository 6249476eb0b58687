// The page follows the controller's cache: every few seconds it asks for itself again with the version it shows
// (If-None-Match); the server answers 304 while nothing changed, or the new page, whose <main> replaces this one.
// A hidden tab does not ask. Every <time datetime> shows as "3 min ago" and stays current. Without JavaScript the
// page shows the time the server wrote and a reload brings the news, and the action buttons do nothing.
"use strict";
(function () {
  const POLL_MS = 3000;
  const units = [["day", 86400], ["h", 3600], ["min", 60], ["s", 1]];

  function ago(then) {
    const seconds = Math.max(0, Math.round((Date.now() - then) / 1000));
    for (const [unit, size] of units) {
      if (seconds >= size || unit === "s") {
        const n = Math.floor(seconds / size);
        return n + " " + (unit === "day" && n !== 1 ? "days" : unit) + " ago";
      }
    }
  }

  function ages() {
    for (const time of document.querySelectorAll("time[datetime]")) {
      const then = Date.parse(time.getAttribute("datetime"));
      if (!Number.isNaN(then)) {
        time.textContent = ago(then);
        time.title = time.getAttribute("datetime");
      }
    }
  }

  async function follow() {
    const main = document.querySelector("main[data-version]");
    if (!main || document.hidden) {
      return;
    }
    try {
      const answer = await fetch(location.href, {
        cache: "no-store",
        headers: {"If-None-Match": '"' + main.dataset.version + '"'},
      });
      if (answer.status !== 200) {
        return; // 304: nothing changed; anything else: try again at the next tick
      }
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const fresh = page.querySelector("main[data-version]");
      if (fresh) {
        main.replaceWith(document.adoptNode(fresh));
        document.title = page.title;
        ages();
      }
    } catch (e) {
      // the controller restarts or the port-forward dropped: keep what is shown, ask again later
    }
  }

  // Actions, when the controller offers them: a button of a form.actions posts to its data-actions path with the
  // token from the header's field as a bearer token. The token stays in that field, in this page only: it is sent
  // with each action and kept nowhere else. The answer shows in the header, which the updates leave alone.
  async function act(event) {
    if (event.target.closest("form.token")) {
      event.preventDefault(); // Enter in the token field: the field is read when a button is pressed
      return;
    }
    const form = event.target.closest("form.actions");
    const button = event.submitter;
    if (!form || !button) {
      return;
    }
    event.preventDefault();
    const result = document.getElementById("action-result");
    const field = document.getElementById("token");
    const token = field ? field.value.trim() : "";
    let url = form.dataset.actions + button.value;
    if (button.value === "pin") {
      url += "?revision=" + encodeURIComponent(form.querySelector("select[name=revision]").value);
    }
    button.disabled = true;
    try {
      const answer = await fetch(url, {
        method: "POST",
        cache: "no-store",
        headers: token ? {"Authorization": "Bearer " + token} : {},
      });
      result.textContent = (answer.ok ? "✔ " : "✗ ") + (await answer.text()).trim();
      result.className = answer.ok ? "done" : "refused";
      if (answer.ok) {
        follow();
      }
    } catch (e) {
      result.textContent = "✗ the dashboard did not answer";
      result.className = "refused";
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener("submit", act);
  document.addEventListener("DOMContentLoaded", ages);
  setInterval(ages, 15000);
  setInterval(follow, POLL_MS);
})();
