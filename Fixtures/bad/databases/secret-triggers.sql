-- A database whose schema tries to make `formstore` print a secret it was
-- given (issue 20, finding 5): a trigger that builds a JSON path from the new
-- password, so that SQLite's error names it, and a named CHECK on the password.
-- Read by Tests/FormStoreCLITests/Reliability/SecretTests.swift.
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  password TEXT CONSTRAINT strong_password CHECK (password IS NULL OR length(password) >= 8),
  pin TEXT CHECK (pin IN ('1111', '2222'))
);
INSERT INTO accounts VALUES (1, 'ann', 'old-password', '1111');
CREATE TRIGGER accounts_leak_update BEFORE UPDATE OF password ON accounts
WHEN NEW.password LIKE 'TOPSECRET%'
BEGIN
  SELECT json_extract('{}', 'x' || NEW.password);
END;
CREATE TRIGGER accounts_leak_insert BEFORE INSERT ON accounts
WHEN NEW.password LIKE 'TOPSECRET%'
BEGIN
  SELECT json_extract('{}', 'x' || NEW.password);
END;
-- Without a trigger: a write reaches the named CHECK.
CREATE TABLE logins (
  id INTEGER PRIMARY KEY,
  password TEXT CONSTRAINT strong_password CHECK (password IS NULL OR length(password) >= 8)
);
INSERT INTO logins VALUES (1, 'old-password');
