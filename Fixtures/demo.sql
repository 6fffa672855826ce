-- The demo database: one table per seed example form (Fixtures/forms/*.json),
-- with a few rows each. `formstore demo` builds a database from this file.

CREATE TABLE registrations (
    id          INTEGER PRIMARY KEY,
    username    TEXT NOT NULL,
    password    TEXT NOT NULL,
    country     TEXT NOT NULL DEFAULT 'usa' CHECK (country IN ('usa', 'de', 'es')),
    street      TEXT,
    postalCode  TEXT NOT NULL,
    city        TEXT NOT NULL,
    acceptTerms INTEGER NOT NULL DEFAULT 0
);
INSERT INTO registrations (username, password, country, street, postalCode, city, acceptTerms) VALUES
    ('jdoe',   'correct horse', 'usa', '1 Infinite Loop', '95014', 'Cupertino', 1),
    ('mmuster', 'battery staple', 'de', 'Hauptstraße 5',  '10115', 'Berlin',    1);

CREATE TABLE logins (
    id       INTEGER PRIMARY KEY,
    email    TEXT NOT NULL,
    password TEXT NOT NULL
);
INSERT INTO logins (email, password) VALUES ('ann@example.com', 'hunter22');

CREATE TABLE signups (
    id        INTEGER PRIMARY KEY,
    firstName TEXT NOT NULL,
    lastName  TEXT NOT NULL,
    email     TEXT NOT NULL,
    password  TEXT NOT NULL,
    age       INTEGER CHECK (age BETWEEN 0 AND 119)
);
INSERT INTO signups (firstName, lastName, email, password, age) VALUES
    ('Ann', 'Lee', 'ann@example.com', 'hunter22', 34),
    ('Bo',  'Kim', 'bo@example.com',  'letmein!', 27);

CREATE TABLE registers (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    username  TEXT NOT NULL,
    password  TEXT NOT NULL,
    phone     TEXT,
    email     TEXT,
    state     TEXT,
    zip       TEXT,
    birthdate TEXT
);
INSERT INTO registers (name, username, password, phone, email, state, zip, birthdate) VALUES
    ('Ann Lee', 'annlee', 'hunter22', '5551234567', 'ann@example.com', 'CA', '94103', '1990-04-01'),
    ('Bo Kim',  'bokim',  'letmein!', '5559876543', 'bo@example.com',  'NY', '10001', '1985-12-31');

CREATE TABLE profiles (
    id        INTEGER PRIMARY KEY,
    firstName TEXT NOT NULL,
    lastName  TEXT,
    gender    TEXT CHECK (gender IN ('Male', 'Female')),
    birthdate TEXT,
    version   INTEGER NOT NULL DEFAULT 1
);
INSERT INTO profiles (firstName, lastName, gender, birthdate) VALUES
    ('Ann', 'Lee', 'Female', '1990-04-01'),
    ('Bo',  'Kim', 'Male',   '1985-12-31');

CREATE TABLE basic_info (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    gender        TEXT,
    birth         TEXT,
    mood          TEXT,
    favoriteFoods TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO basic_info (name, gender, birth, mood, favoriteFoods) VALUES
    ('John Snow',  'Male', '1990-01-01', 'Happy', '["Pizza","Sushi"]'),
    ('John Green', 'Male', '1977-08-24', 'Calm',  '["Tacos"]');

-- A table with no spec: `formstore` infers its form from the columns.
CREATE TABLE "order items" (
    "order"    INTEGER NOT NULL,
    "line no"  INTEGER NOT NULL,
    product    TEXT NOT NULL,
    quantity   INTEGER NOT NULL DEFAULT 1,
    price      REAL,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'shipped', 'cancelled')),
    PRIMARY KEY ("order", "line no")
) WITHOUT ROWID;
INSERT INTO "order items" VALUES (1, 1, 'Tea', 2, 3.5, 'open'), (1, 2, 'Cake', 1, 4.25, 'shipped');

-- Tables without specs, for the command's tour in the README: an invoice with
-- its lines (ON DELETE CASCADE), albums whose artist is named beside its key,
-- and a playlist's tracks, in order.
CREATE TABLE invoice (
    id       INTEGER PRIMARY KEY,
    customer TEXT NOT NULL,
    total    NUMERIC NOT NULL DEFAULT 0
);
CREATE TABLE invoice_line (
    id         INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoice(id) ON DELETE CASCADE,
    item       TEXT NOT NULL,
    amount     NUMERIC NOT NULL
);
INSERT INTO invoice VALUES (1, 'Ann', 5.5), (2, 'Bo', 3), (3, 'Cy', 7);
INSERT INTO invoice_line VALUES (10, 1, 'Tea', 2.5), (11, 1, 'Cake', 3), (12, 2, 'Pie', 3),
    (13, 3, 'Jam', 4), (14, 3, 'Bread', 3);

CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist_id INTEGER REFERENCES artist(id));
INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept');
INSERT INTO album VALUES (1, 'For Those About To Rock', 1), (2, 'Balls to the Wall', 2);

CREATE TABLE track (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE);
CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE playlist_track (
    playlist_id INTEGER NOT NULL REFERENCES playlist(id),
    track_id    INTEGER NOT NULL REFERENCES track(id),
    position    INTEGER NOT NULL,
    PRIMARY KEY (playlist_id, track_id)
) WITHOUT ROWID;
INSERT INTO track VALUES (1, 'Blue'), (2, 'Blue Monday'), (3, 'Green');
INSERT INTO playlist VALUES (1, 'Mix');
INSERT INTO playlist_track VALUES (1, 1, 1), (1, 3, 2);
