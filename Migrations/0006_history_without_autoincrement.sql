-- History's saves cost a save fewer pages (issue 14): `formstore_changes`
-- loses AUTOINCREMENT (which wrote `sqlite_sequence` on every save) and the
-- `changed_at` index (pruning by age walks the saves in id order instead, ids
-- growing with time). Columns, rows, ids, the (form, record_key, id) index and
-- the fields' ON DELETE CASCADE stay as they were.
--
-- Ids are still never given twice through FormStore. Without AUTOINCREMENT a
-- new save gets max(id) + 1, so an id could come back only if the newest save
-- in the table were deleted, and FormStore's pruning never deletes it (the
-- save just made: see `HistoryRetention`). That matters to whoever holds an
-- id: `RecordChange.id`, the ids `formstore history` lists and `formstore
-- revert --change ID` takes, the web history page's rows (`change-ID-N`).
-- Deleting the newest saves by hand lets their ids be given again; so does,
-- once, a database whose newest saves a retention of 0 pruned before this.
--
-- Rebuilt through copies, dropped and created again under the same names
-- rather than renamed: a migration runs with foreign keys on, so the fields
-- go before their saves (dropping a parent deletes its rows, which would
-- cascade), and a rename fails on any view of the user's that names these
-- tables while they are gone. The copies are in `main`, not `temp`: a
-- connection keeps its temporary database open once it has used it, where a
-- trigger reading `pragma_database_list` would see it. Dropping the table
-- drops its `sqlite_sequence` row too; triggers on these tables go with them.
CREATE TABLE formstore_changes_kept AS SELECT * FROM formstore_changes;
CREATE TABLE formstore_change_fields_kept AS SELECT * FROM formstore_change_fields;
DROP TABLE formstore_change_fields;
DROP TABLE formstore_changes;

CREATE TABLE formstore_changes (
    id INTEGER PRIMARY KEY,
    form TEXT NOT NULL,
    record_key TEXT NOT NULL /* the key as drafts write it: canonical JSON */,
    changed_at TEXT NOT NULL /* ISO-8601, UTC */,
    actor TEXT /* who: given by the caller; the command uses the login name */,
    via TEXT NOT NULL /* through what: command, web, library */
);
INSERT INTO formstore_changes SELECT * FROM formstore_changes_kept;

CREATE INDEX formstore_changes_form_record_key ON formstore_changes (form, record_key, id);

CREATE TABLE formstore_change_fields (
    change_id INTEGER NOT NULL REFERENCES formstore_changes (id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    old_value,
    new_value,
    secure INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (change_id, field)
) WITHOUT ROWID;
INSERT INTO formstore_change_fields SELECT * FROM formstore_change_fields_kept;

DROP TABLE formstore_changes_kept;
DROP TABLE formstore_change_fields_kept;
