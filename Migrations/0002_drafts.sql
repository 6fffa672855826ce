-- Drafts: a session's unsaved state, one per form and record (or new-record id).
CREATE TABLE formstore_drafts (
    id TEXT PRIMARY KEY NOT NULL,
    form TEXT NOT NULL,
    record_key TEXT /* NULL for a record not yet saved */,
    form_version INTEGER NOT NULL,
    payload TEXT NOT NULL /* JSON */,
    created_at TEXT NOT NULL /* ISO-8601, UTC */,
    updated_at TEXT NOT NULL /* ISO-8601, UTC */
);

CREATE INDEX formstore_drafts_form_record_key ON formstore_drafts (form, record_key);
