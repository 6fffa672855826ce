-- A database built to attack the browser of whoever serves it with
-- `formstore serve`: markup and script in a table name, column names, values,
-- a CHECK's choices and a primary key. Every page must show them as text.
-- Read by Tests/FormStoreCLITests/Serve/ServeSecurityTests.swift.
CREATE TABLE "<script>alert('table')</script>" (id INTEGER PRIMARY KEY, v TEXT);
INSERT INTO "<script>alert('table')</script>" VALUES (1, 'v');
CREATE TABLE people (
  id INTEGER PRIMARY KEY,
  name TEXT,
  "<img src=x onerror=alert('column')>" TEXT,
  bio TEXT,
  kind TEXT CHECK (kind IN ('a', '"><script>alert(''choice'')</script>'))
);
INSERT INTO people VALUES (1, '<script>alert("name")</script>', '"><img src=x onerror=alert(1)>',
  '</textarea><script>alert(2)</script>', '"><script>alert(''choice'')</script>');
INSERT INTO people VALUES (2, 'javascript:alert(3)', '{{constructor.constructor(''alert(4)'')()}}',
  '<!-- ]]> <![CDATA[ &amp; &#x3C;script&#x3E;', 'a');
CREATE TABLE tags (name TEXT PRIMARY KEY, note TEXT);
INSERT INTO tags VALUES ('<b onmouseover=alert(5)>x</b>', 'n');
