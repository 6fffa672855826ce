-- Drafts per person: whose draft it is (a service's user id, the command's
-- login name). A draft is offered only to its owner; NULL for a draft nobody owns.
ALTER TABLE formstore_drafts ADD COLUMN owner TEXT;

CREATE INDEX formstore_drafts_form_record_key_owner ON formstore_drafts (form, record_key, owner);
