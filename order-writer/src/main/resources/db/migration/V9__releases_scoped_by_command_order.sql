-- A RELEASED entry names the offset of its release command (commandOffset); one kept in early_release because its
-- order was not written ends only a purchase decided before the release (a DEDUCTED with a smaller commandOffset),
-- never a later re-buy by the same buyer. Rows kept before this have no offset and end only entries that have none.
ALTER TABLE early_release ADD COLUMN command_offset BIGINT NULL;
