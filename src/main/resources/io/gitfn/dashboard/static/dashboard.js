// Shows every <time datetime> as "3 min ago" and keeps it current; without JavaScript the page shows the
// ISO time the server wrote. Nothing else on the page needs a script.
"use strict";
(function () {
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
  function refresh() {
    for (const time of document.querySelectorAll("time[datetime]")) {
      const then = Date.parse(time.getAttribute("datetime"));
      if (!Number.isNaN(then)) {
        time.textContent = ago(then);
        time.title = time.getAttribute("datetime");
      }
    }
  }
  document.addEventListener("DOMContentLoaded", refresh);
  setInterval(refresh, 15000);
})();
