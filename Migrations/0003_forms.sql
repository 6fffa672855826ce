-- Form specs kept in the database itself (the demo keeps its forms here), so a
-- database carries its forms; a spec in the --forms folder wins over one here.
CREATE TABLE formstore_forms (
    name TEXT PRIMARY KEY NOT NULL,
    spec TEXT NOT NULL /* the JSON form spec */,
    updated_at TEXT NOT NULL /* ISO-8601, UTC */
);
