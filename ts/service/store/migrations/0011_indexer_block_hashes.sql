-- Reorg-aware indexing (issue 12): a checkpoint is a block *and its hash*, so the indexer can tell that
-- the block it last treated as final is still on the chain before reading on from it. `recent` keeps
-- the last range ends it recorded (newest last, at most 32 `{block, hash}`), from which a reorg deeper
-- than the confirmation depth is measured and an operator picks the block to resume from. `halted` is
-- set when such a reorg is seen: the chain's indexing, fills from its deposits and payouts on it stop
-- until an operator clears it (README "Deep reorgs").
ALTER TABLE indexer_checkpoints ADD COLUMN block_hash text;
ALTER TABLE indexer_checkpoints ADD COLUMN recent jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE indexer_checkpoints ADD COLUMN halted jsonb;
