CREATE TABLE notes (id INTEGER PRIMARY KEY);
-- café (Latin-1)
