-- `database_loads.placements` = how many tenant/orgs each database holds, kept by triggers so that placing a
-- new tenant/org reads one small table (the placement rule: fewest tenant/orgs first).
CREATE TRIGGER `tenant_placements_count_insert` AFTER INSERT ON `tenant_placements`
BEGIN
  INSERT INTO `database_loads` (`database`, `placements`) VALUES (NEW.`database`, 1)
    ON CONFLICT (`database`) DO UPDATE SET `placements` = `placements` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tenant_placements_count_move` AFTER UPDATE OF `database` ON `tenant_placements`
WHEN OLD.`database` <> NEW.`database`
BEGIN
  UPDATE `database_loads` SET `placements` = `placements` - 1 WHERE `database` = OLD.`database`;
  INSERT INTO `database_loads` (`database`, `placements`) VALUES (NEW.`database`, 1)
    ON CONFLICT (`database`) DO UPDATE SET `placements` = `placements` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `tenant_placements_count_delete` AFTER DELETE ON `tenant_placements`
BEGIN
  UPDATE `database_loads` SET `placements` = `placements` - 1 WHERE `database` = OLD.`database`;
END;
