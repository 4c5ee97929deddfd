-- The assertions of an atomic group of `$batch` (src/tenant/atomic-group.ts): the group's one write batch carries
-- `INSERT INTO batch_assertion (holds) SELECT EXISTS (...)` beside its writes, one per record a write was planned on
-- (e.g. the record is still at the version the group read). The view stores nothing; its triggers abort the whole
-- batch (one transaction): with `atomic_group_condition` when a condition does not hold (0), with
-- `atomic_group_trial_end` for the statement (2) that ends the trial batches which find the request a refused group
-- is attributed to.
CREATE VIEW `batch_assertion` AS SELECT NULL AS `holds` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `batch_assertion_failed` INSTEAD OF INSERT ON `batch_assertion`
WHEN NEW.`holds` IS NOT 1 AND NEW.`holds` IS NOT 2
BEGIN
  SELECT RAISE(ABORT, 'atomic_group_condition');
END;
--> statement-breakpoint
CREATE TRIGGER `batch_assertion_trial_end` INSTEAD OF INSERT ON `batch_assertion`
WHEN NEW.`holds` = 2
BEGIN
  SELECT RAISE(ABORT, 'atomic_group_trial_end');
END;
