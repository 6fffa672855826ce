-- PostgreSQL's form of ../0006_history_without_autoincrement.sql (the
-- migration keeps that file's name and checksum; only its SQL differs): the
-- identity key stays (a sequence never gives an id twice), and the
-- `changed_at` index goes, so both backends keep the same indexes and prune
-- by age the same way, walking the saves in id order.
DROP INDEX formstore_changes_changed_at;
