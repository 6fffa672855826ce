/// The stylesheet the pages link (`WebPage.stylesheetHref`), served as a file.
extension WebAssets {
    public static let stylesheet = #"""
/* FormStore's own stylesheet: readable type, one column, usable at phone width. */
:root { --ink: #1d2430; --muted: #5b6575; --line: #d5dae2; --accent: #2457c5; --bad: #b3261e; --good: #1e6b3a; --paper: #fff; --wash: #f4f6f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--wash); }
header { background: var(--ink); padding: .6rem 1rem; }
header .home { color: #fff; font-weight: 600; text-decoration: none; }
header .logout { color: #fff; float: right; }
/* A value is isolated from the text around it: a key or a value holding a bidi override (U+202E) or an
   embedding would otherwise reorder the page's own words after it ("Delete record … of h?"). */
td, th, li, a, strong, em, code, label, option, dd, dt, bdi, input, textarea, select { unicode-bidi: isolate; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
main:has(table.records) { max-width: 90rem; }
h1 { font-size: 1.6rem; margin: .4rem 0 1rem; }
a { color: var(--accent); }
.crumbs { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .4rem; font-size: .9rem; }
.crumbs li + li::before { content: "›"; margin-right: .4rem; color: var(--muted); }
form.record, .panel { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem; }
fieldset { border: 0; border-top: 1px solid var(--line); margin: 0 0 1rem; padding: .6rem 0 0; }
fieldset:first-of-type { border-top: 0; padding-top: 0; }
legend { font-weight: 700; font-size: 1.05rem; color: var(--accent); padding: 0 0 .5rem; }
.field { margin: 0 0 1rem; }
.field > label { display: block; font-weight: 600; margin-bottom: .25rem; }
.field > input[type=checkbox] + label { display: inline; margin-left: .4rem; }
input[type=text], input[type=email], input[type=tel], input[type=url], input[type=password], input[type=date],
input[type=time], input[type=datetime-local], select, textarea {
  width: 100%; font: inherit; padding: .45rem .6rem; border: 1px solid #aab2bf; border-radius: 6px; background: #fff; color: inherit; }
input[readonly], textarea[readonly], select:disabled { background: var(--wash); color: var(--muted); border-style: dashed; }
input:focus, select:focus, textarea:focus, button:focus, a:focus { outline: 3px solid #9db7ef; outline-offset: 1px; }
.field.invalid input, .field.invalid select, .field.invalid textarea { border-color: var(--bad); border-width: 2px; }
.reference-label { display: inline-block; margin-top: .25rem; color: var(--muted); font-size: .9rem; }
td .reference-label { margin: 0 0 0 .3rem; }
td.empty-text { color: var(--muted); }
.choices { border: 0; padding: 0; margin: 0; }
.choices legend { color: var(--ink); font-size: 1rem; padding-bottom: .25rem; }
.choices label { display: inline-flex; align-items: center; gap: .3rem; margin-right: 1rem; font-weight: normal; }
.required { color: var(--bad); }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
.error { color: var(--bad); font-size: .95rem; margin: .25rem 0 0; font-weight: 600; }
.error-summary { border: 2px solid var(--bad); border-radius: 6px; padding: .6rem 1rem; margin-bottom: 1rem; background: #fdf0ef; }
.error-summary p { margin: 0; font-weight: 600; color: var(--bad); }
.notice { border-radius: 6px; padding: .6rem 1rem; margin-bottom: 1rem; background: #eef3fd; border: 1px solid #c5d4f5; }
.notice.saved { background: #eaf6ee; border-color: #b5dcc2; color: var(--good); }
.notice.conflict { background: #fff6e5; border-color: #f0cf8c; }
.actions { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin-top: 1rem; }
button, .button { font: inherit; font-weight: 600; padding: .5rem 1.1rem; border-radius: 6px; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
.button.secondary, button.secondary { background: #fff; color: var(--accent); }
button.danger, .button.danger { background: var(--bad); border-color: var(--bad); }
.table-scroll { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 8px; }
table.records { border-collapse: collapse; width: 100%; font-size: .95rem; }
table.records th, table.records td { text-align: left; padding: .45rem .7rem; border-bottom: 1px solid var(--line); white-space: nowrap; max-width: 18rem; overflow: hidden; text-overflow: ellipsis; }
table.records thead th { background: var(--wash); }
table.history td, table.history th { white-space: normal; max-width: none; }
table.history td:nth-last-child(-n+2) { overflow-wrap: anywhere; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: 1rem; }
.filters input[type=search] { flex: 1 1 12rem; font: inherit; padding: .45rem .6rem; border: 1px solid #aab2bf; border-radius: 6px; }
.pager { display: flex; gap: 1rem; margin-top: 1rem; }
ul.forms { list-style: none; padding: 0; }
ul.forms li { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: .7rem 1rem; margin-bottom: .5rem; }
ul.forms .meta { color: var(--muted); font-size: .9rem; }
.conflict q { font-weight: 600; }
fieldset.conflict label { display: block; margin: .3rem 0; }
code { font-size: .9em; background: var(--wash); padding: 0 .2em; border-radius: 3px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
fieldset.group { border-top: 1px solid var(--line); padding-top: .6rem; min-inline-size: 0; min-width: 0; }
fieldset.group > .hint { margin: -.3rem 0 .6rem; }
.rows-scroll { overflow-x: auto; position: relative; }
table.rows { border-collapse: collapse; width: 100%; }
table.rows th, table.rows td { padding: .3rem .35rem; vertical-align: top; text-align: left; }
table.rows thead th { font-size: .9rem; color: var(--muted); border-bottom: 1px solid var(--line); white-space: nowrap; }
table.rows tbody th { color: var(--muted); padding-top: .75rem; width: 2rem; }
table.rows td input:not([type=checkbox]), table.rows td select, table.rows td textarea { min-width: 6rem; }
table.rows tbody tr + tr > * { border-top: 1px solid var(--wash); }
table.rows tr.invalid { background: #fdf0ef; }
.cell-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
td.row-actions { white-space: nowrap; width: 1%; }
td.row-actions button { padding: .4rem .6rem; margin: 0 0 0 .25rem; }
button.remove { color: var(--bad); border-color: var(--bad); }
.no-rows { color: var(--muted); margin: 0 0 .5rem; }
fieldset.group .actions { margin-top: .5rem; }
.step { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin-bottom: 1rem; }
.step .notice { flex: 1 1 12rem; margin: 0; }
.step-form { margin: 0; }
@media (max-width: 40rem) {
  table.rows thead { display: none; }
  table.rows, table.rows tbody, table.rows tr, table.rows td, table.rows tbody th { display: block; width: auto; }
  table.rows tbody tr { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .6rem; margin-bottom: .6rem; }
  table.rows tbody tr + tr > * { border-top: 0; }
  table.rows tbody th { padding: 0; }
  table.rows tbody th::before { content: "Row "; }
  .cell-label { position: static; width: auto; height: auto; clip: auto; overflow: visible; display: block; font-weight: 600; font-size: .9rem; }
  table.rows td.row-actions { width: auto; text-align: right; }
}
@media (max-width: 30rem) { main { padding: .6rem; } form.record { padding: .8rem; } h1 { font-size: 1.3rem; } }
"""#
}
