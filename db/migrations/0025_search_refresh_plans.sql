-- search_refresh runs its UPDATE ... FROM search_arrays(ids) with custom plans: after five calls
-- PL/pgSQL may switch to a generic plan that does not know how few products ids holds, and every
-- category or term link written then costs more the more products the tenant has (an import of
-- 2 000 products, each in the same two categories: 44.6 ms per line without this, 15.6 with it;
-- BenchmarkImportProducts in test/transfer).
ALTER FUNCTION search_refresh(text, uuid[], boolean) SET plan_cache_mode = force_custom_plan;
