-- Rules that span rows, enforced by the database inside the batch of every write (src/db/rules.ts maps the
-- 'rule:<name>' aborts to the API's 400 answers). Each trigger applies only while the tenant/org is 'active' here:
-- a move copies and deletes rows of tenant/orgs that are 'incoming', 'moving' or 'moved', in table order, and the
-- residency guard (0003) refuses every other write to them. See docs/storage.md, "Rules enforced by the database".
CREATE TRIGGER `routes_references_insert` BEFORE INSERT ON `routes`
WHEN ((coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`))
  OR (coalesce(NEW.`location_function`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_location_functions` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`location_function`))
  OR (coalesce(NEW.`family`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_families` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`family`))
  OR (coalesce(NEW.`brand`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_brands` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`brand`))
  OR (coalesce(NEW.`brand_model`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_brand_models` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`brand_model`))
  OR (coalesce(NEW.`responsible`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_employees` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`responsible`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `routes_references_update` BEFORE UPDATE OF `company`, `location_function`, `family`, `brand`, `brand_model`, `responsible` ON `routes`
WHEN ((NEW.`company` IS NOT OLD.`company` AND (coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`)))
  OR (NEW.`location_function` IS NOT OLD.`location_function` AND (coalesce(NEW.`location_function`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_location_functions` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`location_function`)))
  OR (NEW.`family` IS NOT OLD.`family` AND (coalesce(NEW.`family`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_families` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`family`)))
  OR (NEW.`brand` IS NOT OLD.`brand` AND (coalesce(NEW.`brand`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_brands` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`brand`)))
  OR (NEW.`brand_model` IS NOT OLD.`brand_model` AND (coalesce(NEW.`brand_model`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_brand_models` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`brand_model`)))
  OR (NEW.`responsible` IS NOT OLD.`responsible` AND (coalesce(NEW.`responsible`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_employees` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`responsible`))))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `route_locations_references_insert` BEFORE INSERT ON `route_locations`
WHEN ((coalesce(NEW.`location`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_locations` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`location`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `route_equipment_items_references_insert` BEFORE INSERT ON `route_equipment_items`
WHEN ((coalesce(NEW.`equipment_item`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_equipment_items` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`equipment_item`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `route_tools_references_insert` BEFORE INSERT ON `route_tools`
WHEN ((coalesce(NEW.`tool`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_tools` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`tool`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_employees_references_insert` BEFORE INSERT ON `ref_employees`
WHEN ((coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_employees_references_update` BEFORE UPDATE OF `company` ON `ref_employees`
WHEN ((NEW.`company` IS NOT OLD.`company` AND (coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`))))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_locations_references_insert` BEFORE INSERT ON `ref_locations`
WHEN ((coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_locations_references_update` BEFORE UPDATE OF `company` ON `ref_locations`
WHEN ((NEW.`company` IS NOT OLD.`company` AND (coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`))))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_equipment_items_references_insert` BEFORE INSERT ON `ref_equipment_items`
WHEN ((coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_equipment_items_references_update` BEFORE UPDATE OF `company` ON `ref_equipment_items`
WHEN ((NEW.`company` IS NOT OLD.`company` AND (coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`))))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_brand_models_references_insert` BEFORE INSERT ON `ref_brand_models`
WHEN ((coalesce(NEW.`brand`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_brands` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`brand`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_brand_models_references_update` BEFORE UPDATE OF `brand` ON `ref_brand_models`
WHEN ((NEW.`brand` IS NOT OLD.`brand` AND (coalesce(NEW.`brand`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_brands` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`brand`))))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_worker_configurations_references_insert` BEFORE INSERT ON `ref_worker_configurations`
WHEN (EXISTS (SELECT 1 FROM json_each(NEW.`companies`) AS `j` WHERE NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = `j`.`value`))
  OR EXISTS (SELECT 1 FROM json_each(NEW.`codes`) AS `j` WHERE NOT EXISTS (SELECT 1 FROM `ref_kpi_definitions` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = `j`.`value`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_worker_configurations_references_update` BEFORE UPDATE OF `companies`, `codes` ON `ref_worker_configurations`
WHEN ((NEW.`companies` IS NOT OLD.`companies` AND EXISTS (SELECT 1 FROM json_each(NEW.`companies`) AS `j` WHERE NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = `j`.`value`)))
  OR (NEW.`codes` IS NOT OLD.`codes` AND EXISTS (SELECT 1 FROM json_each(NEW.`codes`) AS `j` WHERE NOT EXISTS (SELECT 1 FROM `ref_kpi_definitions` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = `j`.`value`))))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `kpi_series_references_insert` BEFORE INSERT ON `kpi_series`
WHEN ((coalesce(NEW.`company`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_companies` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`company`))
  OR (coalesce(NEW.`code`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `ref_kpi_definitions` AS `k` WHERE `k`.`tenant_key` = NEW.`tenant_key` AND `k`.`org_key` = NEW.`org_key` AND `k`.`key` = NEW.`code`)))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:unknown_reference');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_companies_in_use_delete` BEFORE DELETE ON `ref_companies`
WHEN (EXISTS (SELECT 1 FROM `routes` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`company` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `ref_employees` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`company` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `ref_locations` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`company` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `ref_equipment_items` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`company` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `ref_worker_configurations` AS `u`, json_each(`u`.`companies`) AS `j` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `j`.`value` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `kpi_series` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`company` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_location_functions_in_use_delete` BEFORE DELETE ON `ref_location_functions`
WHEN (EXISTS (SELECT 1 FROM `routes` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`location_function` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_families_in_use_delete` BEFORE DELETE ON `ref_families`
WHEN (EXISTS (SELECT 1 FROM `routes` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`family` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_brands_in_use_delete` BEFORE DELETE ON `ref_brands`
WHEN (EXISTS (SELECT 1 FROM `routes` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`brand` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `ref_brand_models` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`brand` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_brand_models_in_use_delete` BEFORE DELETE ON `ref_brand_models`
WHEN (EXISTS (SELECT 1 FROM `routes` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`brand_model` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_employees_in_use_delete` BEFORE DELETE ON `ref_employees`
WHEN (EXISTS (SELECT 1 FROM `routes` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`responsible` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_locations_in_use_delete` BEFORE DELETE ON `ref_locations`
WHEN (EXISTS (SELECT 1 FROM `route_locations` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`location` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_equipment_items_in_use_delete` BEFORE DELETE ON `ref_equipment_items`
WHEN (EXISTS (SELECT 1 FROM `route_equipment_items` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`equipment_item` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_tools_in_use_delete` BEFORE DELETE ON `ref_tools`
WHEN (EXISTS (SELECT 1 FROM `route_tools` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`tool` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_kpi_definitions_in_use_delete` BEFORE DELETE ON `ref_kpi_definitions`
WHEN (EXISTS (SELECT 1 FROM `ref_worker_configurations` AS `u`, json_each(`u`.`codes`) AS `j` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `j`.`value` = OLD.`key`)
  OR EXISTS (SELECT 1 FROM `kpi_series` AS `u` WHERE `u`.`tenant_key` = OLD.`tenant_key` AND `u`.`org_key` = OLD.`org_key` AND `u`.`code` = OLD.`key`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = OLD.`tenant_key` AND `r`.`org_key` = OLD.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `route_locations_company_insert` BEFORE INSERT ON `route_locations`
WHEN EXISTS (SELECT 1 FROM `routes` AS `r`, `ref_locations` AS `m` WHERE `r`.`id` = NEW.`route_id` AND `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`key` = NEW.`location` AND `m`.`company` IS NOT `r`.`company`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:route_member_company');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_locations_company_update` BEFORE UPDATE OF `company` ON `ref_locations`
WHEN NEW.`company` IS NOT OLD.`company`
  AND EXISTS (SELECT 1 FROM `route_locations` AS `m`, `routes` AS `r` WHERE `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`location` = NEW.`key` AND `r`.`id` = `m`.`route_id` AND `r`.`company` IS NOT NEW.`company`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `route_equipment_items_company_insert` BEFORE INSERT ON `route_equipment_items`
WHEN EXISTS (SELECT 1 FROM `routes` AS `r`, `ref_equipment_items` AS `m` WHERE `r`.`id` = NEW.`route_id` AND `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`key` = NEW.`equipment_item` AND `m`.`company` IS NOT `r`.`company`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:route_member_company');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_equipment_items_company_update` BEFORE UPDATE OF `company` ON `ref_equipment_items`
WHEN NEW.`company` IS NOT OLD.`company`
  AND EXISTS (SELECT 1 FROM `route_equipment_items` AS `m`, `routes` AS `r` WHERE `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`equipment_item` = NEW.`key` AND `r`.`id` = `m`.`route_id` AND `r`.`company` IS NOT NEW.`company`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
--> statement-breakpoint
CREATE TRIGGER `routes_company_members_update` BEFORE UPDATE OF `company` ON `routes`
WHEN NEW.`company` IS NOT OLD.`company`
  AND (EXISTS (SELECT 1 FROM `route_locations` AS `m` WHERE `m`.`route_id` = NEW.`id`)
    OR EXISTS (SELECT 1 FROM `route_equipment_items` AS `m` WHERE `m`.`route_id` = NEW.`id`))
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:route_company_members');
END;
--> statement-breakpoint
CREATE TRIGGER `routes_brand_model_insert` BEFORE INSERT ON `routes`
WHEN coalesce(NEW.`brand_model`, '') <> ''
  AND NOT EXISTS (SELECT 1 FROM `ref_brand_models` AS `m` WHERE `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`key` = NEW.`brand_model` AND `m`.`brand` IS NEW.`brand`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:route_brand_model');
END;
--> statement-breakpoint
CREATE TRIGGER `routes_brand_model_update` BEFORE UPDATE OF `brand`, `brand_model` ON `routes`
WHEN (NEW.`brand` IS NOT OLD.`brand` OR NEW.`brand_model` IS NOT OLD.`brand_model`)
  AND coalesce(NEW.`brand_model`, '') <> ''
  AND NOT EXISTS (SELECT 1 FROM `ref_brand_models` AS `m` WHERE `m`.`tenant_key` = NEW.`tenant_key` AND `m`.`org_key` = NEW.`org_key` AND `m`.`key` = NEW.`brand_model` AND `m`.`brand` IS NEW.`brand`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:route_brand_model');
END;
--> statement-breakpoint
CREATE TRIGGER `ref_brand_models_brand_update` BEFORE UPDATE OF `brand` ON `ref_brand_models`
WHEN NEW.`brand` IS NOT OLD.`brand`
  AND EXISTS (SELECT 1 FROM `routes` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`brand_model` = NEW.`key` AND `r`.`brand` IS NOT NEW.`brand`)
  AND EXISTS (SELECT 1 FROM `tenant_residency` AS `r` WHERE `r`.`tenant_key` = NEW.`tenant_key` AND `r`.`org_key` = NEW.`org_key` AND `r`.`state` = 'active')
BEGIN
  SELECT RAISE(ABORT, 'rule:reference_in_use');
END;
