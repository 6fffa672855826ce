-- FormStore's settings: one JSON value per key.
CREATE TABLE formstore_settings (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL /* JSON */,
    updated_at TEXT NOT NULL /* ISO-8601, UTC */
);
