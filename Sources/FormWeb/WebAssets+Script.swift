/// The pages' script (`WebPage.scriptHref`), served as a file: the
/// `Content-Security-Policy` allows script from the server's own files only.
extension WebAssets {
    public static let script = #"""
// FormStore's page script: no framework, no build step. The pages work
// without it; it adds validation as a field is left, a warning before
// unsaved changes are lost, draft autosave, and a notice when someone else
// saves the record that is open.
(function () {
  "use strict";
  var form = document.querySelector("form.record[data-form]");
  if (!form) { return; }
  var action = form.getAttribute("action");
  // A page drawn again after a row button holds what was typed, unsaved.
  var dirty = form.hasAttribute("data-unsaved");
  var draftTimer = null;

  function body(extra) {
    var data = new URLSearchParams(new FormData(form));
    Object.keys(extra || {}).forEach(function (k) { data.set(k, extra[k]); });
    return data;
  }

  function showErrors(key, messages) {
    var row = form.querySelector('[data-field="' + CSS.escape(key) + '"]');
    if (!row) { return; }
    var error = row.querySelector("p.error");
    var input = row.querySelector("input, select, textarea, fieldset");
    error.textContent = messages.join(" ");
    error.hidden = messages.length === 0;
    row.classList.toggle("invalid", messages.length > 0);
    if (!input) { return; }
    var described = (input.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id && id !== error.id; });
    if (messages.length > 0) { input.setAttribute("aria-invalid", "true"); described.push(error.id); }
    else { input.removeAttribute("aria-invalid"); }
    if (described.length) { input.setAttribute("aria-describedby", described.join(" ")); }
    else { input.removeAttribute("aria-describedby"); }
  }

  // A row's cell (`lines[#2].amount`): its error beside it, as a field's.
  function showCellErrors(cell, messages) {
    var error = cell.querySelector("p.error");
    var input = cell.querySelector("input, select, textarea");
    error.textContent = messages.join(" ");
    error.hidden = messages.length === 0;
    if (!input) { return; }
    if (messages.length > 0) { input.setAttribute("aria-invalid", "true"); input.setAttribute("aria-describedby", error.id); }
    else { input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); }
  }

  // Validation as a field is left: one request, the server's own rules.
  form.addEventListener("focusout", function (event) {
    var cell = event.target.closest("[data-cell]");
    if (cell && event.target.name) {
      var name = cell.getAttribute("data-cell");
      fetch(action + "/validate", { method: "POST", body: body({ _cell: name }), credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (result) { if (result) { showCellErrors(cell, result.errors.map(function (e) { return e.message; })); } });
      return;
    }
    var row = event.target.closest("[data-field]");
    if (!row || !event.target.name) { return; }
    var key = row.getAttribute("data-field");
    fetch(action + "/validate", { method: "POST", body: body({ _field: key }), credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (result) { if (result) { showErrors(key, result.errors.map(function (e) { return e.message; })); } });
  });

  // Unsaved changes: a warning before leaving, and a draft kept while typing.
  form.addEventListener("input", function () {
    dirty = true;
    if (draftTimer) { clearTimeout(draftTimer); }
    draftTimer = setTimeout(function () {
      draftTimer = null;
      fetch(action + "/draft", { method: "POST", body: body(), credentials: "same-origin", keepalive: true });
    }, 800);
  });
  form.addEventListener("submit", function () {
    dirty = false;
    if (draftTimer) { clearTimeout(draftTimer); draftTimer = null; }
  });
  // A tab being closed or hidden sends the draft not yet sent.
  function flushDraft() {
    if (!draftTimer) { return; }
    clearTimeout(draftTimer);
    draftTimer = null;
    navigator.sendBeacon(action + "/draft", body());
  }
  window.addEventListener("pagehide", flushDraft);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { flushDraft(); }
  });
  window.addEventListener("beforeunload", function (event) {
    if (!dirty) { return; }
    flushDraft();
    if (form.hasAttribute("data-leave-silently")) { return; }
    event.preventDefault();
    event.returnValue = "";
  });

  // Free mode: each change is saved as it is made. The answer is the record's
  // page again; its base replaces this page's, so the next change is judged
  // against what was just saved, and its errors or notice are shown here.
  // The record as this page last saw it (`data-etag`): a `saved` event naming
  // it is this page's own save. One heard while a save is on its way waits for it.
  var ownTag = form.getAttribute("data-etag");
  var saving = 0;
  var heardTag = null;
  if (form.getAttribute("data-mode") === "free") {
    form.addEventListener("change", function () {
      if (draftTimer) { clearTimeout(draftTimer); draftTimer = null; }
      saving += 1;
      fetch(action, { method: "POST", body: body(), credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (text) {
          var page = new DOMParser().parseFromString(text, "text/html");
          if (page.querySelector("form.record fieldset.conflict")) {
            // Someone else changed what this page changed: their value and this page's are to be
            // chosen between, on the page drawn whole (this one's base is kept, so the post is judged
            // as before). Its base taken here, a later Save wrote this page's value over theirs unasked.
            form.setAttribute("data-leave-silently", "");
            HTMLFormElement.prototype.submit.call(form);
            return;
          }
          var drawn = page.querySelector("form.record[data-etag]");
          if (drawn) { ownTag = drawn.getAttribute("data-etag"); }
          var fresh = page.querySelector('form.record input[name="_base"]');
          var baseInput = form.querySelector('input[name="_base"]');
          if (fresh) {
            // A field this page left as drawn takes what the save found stored (another writer's
            // value, merged): left showing the old one, the next change posted it back over theirs.
            var before = {}, after = {};
            try { before = JSON.parse(baseInput.value || "{}"); after = JSON.parse(fresh.value || "{}"); } catch (e) { before = after = {}; }
            Object.keys(after).forEach(function (key) {
              if (before[key] === after[key]) { return; }
              var name = key.charAt(0) === "_" ? "_" + key : key;  // as posted (`PostedName.field`)
              var mine = form.querySelector('[name="' + CSS.escape(name) + '"]');
              var theirs = page.querySelector('form.record [name="' + CSS.escape(name) + '"]');
              if (!mine || !theirs || mine.type === "checkbox" || mine.type === "radio" || mine.type === "hidden") { return; }
              if (mine.value === (before[key] === null ? "" : before[key])) { mine.value = theirs.value; }
            });
            baseInput.value = fresh.value;
          }
          page.querySelectorAll("form.record [data-field]").forEach(function (row) {
            var error = row.querySelector("p.error");
            showErrors(row.getAttribute("data-field"), error && !error.hidden ? [error.textContent] : []);
          });
          var saved = page.querySelector(".notice.saved");
          var status = document.getElementById("free-status");
          if (!status) {
            status = document.createElement("div");
            status.id = "free-status";
            status.setAttribute("role", "status");
            form.parentNode.insertBefore(status, form);
          }
          // Not saved: the page's own words, a refusal no field holds (a UNIQUE, a CHECK) among them.
          var words = [];
          page.querySelectorAll(".notice.conflict[role=alert], .error-summary li").forEach(function (item) {
            words.push(item.textContent.trim());
          });
          status.className = saved ? "notice saved" : "notice conflict";
          var said = words.length ? words.join(" ") : "see the errors below.";
          // A refusal's notice says "Nothing was saved" itself.
          status.textContent = saved ? saved.textContent : (/^Nothing was saved/.test(said) ? said : "Not saved: " + said);
          dirty = !saved;
        })
        .finally(function () {
          saving -= 1;
          if (saving === 0 && heardTag !== null) {
            if (heardTag !== ownTag) { savedElsewhere(); }
            heardTag = null;
          }
        });
    });
  }

  // A foreign key over a large table: its datalist filled from the search
  // route as the key or a label is typed (the value sent is the key).
  form.querySelectorAll("input[data-choices]").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("list"));
    var timer = null;
    input.addEventListener("input", function () {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(function () {
        var href = input.getAttribute("data-choices") + "?search=" + encodeURIComponent(input.value);
        fetch(href, { credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.json() : []; })
          .then(function (choices) {
            list.textContent = "";
            choices.forEach(function (choice) {
              var option = document.createElement("option");
              option.value = String(choice.value);
              option.textContent = choice.label;
              list.appendChild(option);
            });
          });
      }, 200);
    });
  });

  // Someone else saved this record: say so, without touching what is typed.
  var events = form.getAttribute("data-events");
  function savedElsewhere() {
    if (document.getElementById("saved-elsewhere")) { return; }
    var note = document.createElement("div");
    note.id = "saved-elsewhere";
    note.className = "notice conflict";
    note.setAttribute("role", "alert");
    note.textContent = "Someone else saved this record. Saving will show any field you both changed.";
    form.parentNode.insertBefore(note, form);
  }
  // A browser opens six connections to a server, and each stream holds one: a hidden
  // page (a tab in the background) closes its stream, so that open records do not take
  // them all, and opens it again when shown, naming the state it shows (`etag`), so a
  // save made meanwhile is heard at once.
  if (events && window.EventSource) {
    var source = null;
    var heard = function (event) {
      var tag = null;
      try { tag = JSON.parse(event.data).etag; } catch (e) { tag = null; }
      if (saving > 0) { heardTag = tag === null ? "" : tag; return; }
      if (tag !== null && tag === ownTag) { return; }
      savedElsewhere();
    };
    var listen = function () {
      if (source || document.hidden) { return; }
      source = new EventSource(ownTag ? events + "?etag=" + encodeURIComponent(ownTag) : events);
      source.addEventListener("saved", heard);
    };
    var stop = function () {
      if (source) { source.close(); source = null; }
    };
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { stop(); } else { listen(); }
    });
    window.addEventListener("pagehide", stop);
    window.addEventListener("pageshow", listen);
    listen();
  }
})();
"""#
}
