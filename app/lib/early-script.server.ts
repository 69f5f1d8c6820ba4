/**
 * The one script a page runs before anything else, inline in its head (with the page's CSP
 * nonce): it marks `<html class="js">` before the first paint, so what only JavaScript makes
 * useful is hidden from the start (the pickers' Set buttons: no shift when the page
 * hydrates), and, until React has the page (`<html data-hydrated>`, app/root.tsx), it sends
 * the form of a `select[data-autosubmit]` that changes, as a plain form: a reader on a slow
 * phone who picks a currency or a language before the page's scripts arrive is answered
 * at once. From then on, React's handlers do it.
 *
 * Its text stays on the server (app/entry.server.tsx hands it to <EarlyScript>): the
 * browser already has it in the page, and the pages' scripts need not carry it.
 */
export const EARLY_SCRIPT = [
  "document.documentElement.classList.add('js');",
  "document.addEventListener('change',function(e){",
  "var s=e.target,h=document.documentElement;",
  "if(h.hasAttribute('data-hydrated')||!s.matches||!s.matches('select[data-autosubmit]')||!s.form)return;",
  "s.form.requestSubmit?s.form.requestSubmit():s.form.submit()});",
].join("");
