-- The Arbiter release that first brought the database to each schema version: an older binary
-- that finds the database newer than itself names the release it needs instead of opening it.
CREATE TABLE schema_versions (
    version BIGINT PRIMARY KEY,
    arbiter_version TEXT NOT NULL
);
