/* The browsable API (templates/rest_framework/api.html): names what DRF's markup and script
   leave unnamed, for a screen reader, once DRF's own script (default.js) has run.
   - DRF's form fields: each <label> stands beside its box, tied to it by nothing; now by
     for/id (a box without an id gets one from its form and its name).
   - Buttons showing only an icon (the GET format caret): their title was their name, until
     Bootstrap's tooltips moved it away; it becomes their aria-label.
   - Two main landmarks, one in the other (#content and .content-main): the inner one becomes
     a region, named as it was.
   - The dialogs (the filters, "Are you sure you want to delete"): marked aria-hidden, which
     Bootstrap 3 leaves on when it opens them, so a screen reader found nothing there; and
     labelled by an id nobody has: now by their heading, a level-two one under the page's h1
     (Bootstrap's h4 skipped two levels). Shut, they are display: none. */
(function () {
  'use strict';
  document.querySelectorAll('form').forEach(function (form, f) {
    form.querySelectorAll('.form-group').forEach(function (group) {
      var label = group.querySelector('label:not([for])');
      var box = group.querySelector('input:not([type=hidden]), select, textarea');
      if (!label || !box || label.contains(box)) return;
      if (!box.id) box.id = 'form' + f + '-' + (box.name || 'field');
      label.htmlFor = box.id;
    });
  });
  document.querySelectorAll('button').forEach(function (button) {
    var title = button.getAttribute('data-original-title') || button.title;
    if (!button.textContent.trim() && !button.getAttribute('aria-label') && title) {
      button.setAttribute('aria-label', title);
    }
  });
  document.querySelectorAll('#content [role=main]').forEach(function (inner) {
    inner.setAttribute('role', 'region');
  });
  document.querySelectorAll('.modal').forEach(function (dialog, d) {
    var heading = dialog.querySelector('h1, h2, h3, h4, h5, h6');
    dialog.removeAttribute('aria-hidden');
    if (heading) heading.setAttribute('aria-level', '2');
    if (heading && !document.getElementById(dialog.getAttribute('aria-labelledby'))) {
      if (!heading.id) heading.id = 'dialog' + d + '-title';
      dialog.setAttribute('aria-labelledby', heading.id);
    }
  });
}());
