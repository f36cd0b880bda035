// Progressive enhancement of Fomento's pages; every page works without it.
// - The send form: drag and drop onto the file field, an upload progress bar, the answer followed where it leads.
// - A report's page: its status followed live (polled every second) until it settles.
(function () {
  "use strict";

  function enhanceSend(form) {
    var input = form.querySelector("#file");
    var drop = form.querySelector("#drop");
    var box = form.querySelector("#progress-box");
    var bar = form.querySelector("#progress");
    var text = form.querySelector("#progress-text");
    if (!input || !drop) return;
    ["dragenter", "dragover"].forEach(function (type) {
      drop.addEventListener(type, function (e) {
        e.preventDefault();
        drop.classList.add("over");
      });
    });
    ["dragleave", "drop"].forEach(function (type) {
      drop.addEventListener(type, function () {
        drop.classList.remove("over");
      });
    });
    drop.addEventListener("drop", function (e) {
      e.preventDefault();
      if (e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files.length) {
        input.files = e.dataTransfer.files;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
    form.addEventListener("submit", function (e) {
      if (!window.FormData || !window.XMLHttpRequest) return;
      e.preventDefault();
      var xhr = new XMLHttpRequest();
      xhr.open("POST", form.action);
      xhr.setRequestHeader("Accept", "text/html");
      if (box) box.hidden = false;
      xhr.upload.addEventListener("progress", function (p) {
        if (!p.lengthComputable || !bar) return;
        var pct = Math.round((p.loaded / p.total) * 100);
        bar.value = pct;
        if (text) text.textContent = pct + " %";
      });
      xhr.addEventListener("load", function () {
        if (xhr.status < 400 && xhr.responseURL && xhr.responseURL.indexOf("/bank/send") < 0) {
          window.location.assign(xhr.responseURL);
          return;
        }
        document.open();
        document.write(xhr.responseText);
        document.close();
      });
      xhr.addEventListener("error", function () {
        form.submit();
      });
      xhr.send(new FormData(form));
    });
  }

  function followReport(report) {
    if (report.getAttribute("data-settled") === "true") return;
    var timer = window.setInterval(function () {
      fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("report");
          if (!fresh) return;
          var current = document.getElementById("report");
          if (current && current.getAttribute("data-status") !== fresh.getAttribute("data-status")) {
            current.replaceWith(fresh);
          }
          if (fresh.getAttribute("data-settled") === "true") window.clearInterval(timer);
        })
        .catch(function () { /* try again at the next tick */ });
    }, 1000);
  }

  function start() {
    var form = document.getElementById("send-form");
    if (form) enhanceSend(form);
    var report = document.getElementById("report");
    if (report) followReport(report);
    var summary = document.getElementById("error-summary");
    if (summary) summary.focus();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
