-- Every unique key starts with tenant_id (DESIGN.md "Production topology": a tenant-sharded engine
-- such as Citus refuses a unique key without the distribution column; test/topology checks every
-- table). The storage keys of asset files, imports and exports were unique on their own; each
-- starts with its tenant's prefix anyway (server/catalog objectKey, server/transfer jobKey), so the
-- keys with tenant_id refuse exactly what they refused before. The blob collector looks asset files
-- up by storage_key alone, across tenants (asset_file_workers.sql ClaimBlobDeletions): a plain
-- index keeps that lookup a probe. Nothing looks imports or exports up by storage_key.
ALTER TABLE asset_files DROP CONSTRAINT asset_files_storage_key;
ALTER TABLE asset_files ADD CONSTRAINT asset_files_storage_key UNIQUE (tenant_id, storage_key);
CREATE INDEX asset_files_by_storage_key ON asset_files (storage_key);
ALTER TABLE imports DROP CONSTRAINT imports_storage_key;
ALTER TABLE imports ADD CONSTRAINT imports_storage_key UNIQUE (tenant_id, storage_key);
ALTER TABLE exports DROP CONSTRAINT exports_storage_key;
ALTER TABLE exports ADD CONSTRAINT exports_storage_key UNIQUE (tenant_id, storage_key);
