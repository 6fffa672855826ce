-- A database built to attack the terminal of whoever runs `formstore` on it
-- (issue 20, finding 6). This file holds raw control bytes on purpose: ESC,
-- BEL, a C1 CSI (U+009B), bidi overrides and zero-width characters, in a
-- table name, column names, values and a trigger's message. Read by
-- Tests/FormStoreCLITests/Reliability/HostileTerminalTests.swift.
CREATE TABLE "notes" (
  id INTEGER PRIMARY KEY,
  "ti[2Jtle" TEXT,
  "‮body​" TEXT,
  "c131m" TEXT,
  status TEXT CHECK (status IN ('open', 'shut[5m'))
);
INSERT INTO notes VALUES (1, 'plain]52;c;SGVsbG8=[2J', 'gnp.‮exe', 'xy⁦z⁩', 'open');
INSERT INTO notes VALUES (2, 'line one' || char(10) || 'line two' || char(13) || 'over', 'zero​width﻿', char(127) || 'del', 'shut[5m');
CREATE TRIGGER notes_guard BEFORE UPDATE ON notes WHEN NEW."ti[2Jtle" = 'boom'
BEGIN
  SELECT RAISE(ABORT, 'refused]52;c;SGVsbG8=[2J');
END;
CREATE TABLE "t]0;owned" (id INTEGER PRIMARY KEY, v TEXT);
INSERT INTO "t]0;owned" VALUES (1, 'v');
CREATE TABLE tags (name TEXT PRIMARY KEY, note TEXT);
INSERT INTO tags VALUES ('a[2Jb‮c', 'n');
