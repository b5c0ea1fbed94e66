// Package db holds the schema (migrations/, read by sqlc too) and applies it.
package db

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrateLock serialises the migrations of replicas that start together.
const migrateLock = `SELECT pg_advisory_xact_lock(hashtextextended('catalogd:migrate', 0))`

// Migrate applies every migration not applied yet, each in its own transaction, so that several
// replicas starting together apply each migration once: every transaction takes a
// transaction-scoped advisory lock first and looks again whether its migration is applied. Nothing
// outlives a transaction, so it works the same through a transaction pooler (a session lock there
// would be taken on one server connection and released on another).
func Migrate(ctx context.Context, pool *pgxpool.Pool) (applied []string, err error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var done map[string]bool
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, migrateLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return err
		}
		versions, err := pgx.CollectRows(rows, pgx.RowTo[string])
		done = make(map[string]bool, len(versions))
		for _, v := range versions {
			done[v] = true
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
		if done[version] {
			continue
		}
		sql, err := migrations.ReadFile(name)
		if err != nil {
			return applied, err
		}
		ran := false
		err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, migrateLock); err != nil {
				return err
			}
			var already bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, version).Scan(&already); err != nil || already {
				return err // applied meanwhile by another replica
			}
			if _, err := tx.Exec(ctx, string(sql)); err != nil {
				return fmt.Errorf("migration %s: %w", version, err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, version)
			ran = err == nil
			return err
		})
		if err != nil {
			return applied, err
		}
		if ran {
			applied = append(applied, version)
		}
	}
	return applied, nil
}
