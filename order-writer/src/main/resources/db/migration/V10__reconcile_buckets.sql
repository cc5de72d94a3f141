-- A goods' stock may be split into buckets, each decided in its own commands partition with its own Redis keys
-- ({G} for bucket 0, {G.b} for bucket b): the reconciler keeps how many its current sale has, as the ledger says
-- (every v2 entry carries it), to sum the buckets' keys and to wait for every bucket's partition to settle.
ALTER TABLE reconcile_fold ADD COLUMN buckets INT NOT NULL DEFAULT 1;
-- A live buyer's bucket: a bucket's OPENED starts that bucket without buyers, not the others (their entries are in
-- other partitions, folded in any order relative to it).
ALTER TABLE reconcile_holding ADD COLUMN bucket INT NOT NULL DEFAULT 0;
