-- History: one row per save through FormStore (who, when, through what), and
-- one row per field that save changed, with the stored values before and
-- after, exactly as the column held them (the value columns have no type, so
-- SQLite keeps each value's storage class). A secure field is recorded as
-- changed with both values NULL and `secure` set.
CREATE TABLE formstore_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    form TEXT NOT NULL,
    record_key TEXT NOT NULL /* the key as drafts write it: canonical JSON */,
    changed_at TEXT NOT NULL /* ISO-8601, UTC */,
    actor TEXT /* who: given by the caller; the command uses the login name */,
    via TEXT NOT NULL /* through what: command, web, library */
);

CREATE INDEX formstore_changes_form_record_key ON formstore_changes (form, record_key, id);
CREATE INDEX formstore_changes_changed_at ON formstore_changes (changed_at);

CREATE TABLE formstore_change_fields (
    change_id INTEGER NOT NULL REFERENCES formstore_changes (id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    old_value,
    new_value,
    secure INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (change_id, field)
) WITHOUT ROWID;
