#!/usr/bin/env node
// Offline migrations. The Prisma CLI downloads a native schema engine, which this project's machines
// cannot fetch; the same engine ships on npm compiled to WASM, so we drive it directly.
//
//   node scripts/migrate.mjs            apply prisma/migrations/* to DATABASE_MIGRATION_URL, else DATABASE_URL (like `prisma migrate deploy`)
//   node scripts/migrate.mjs create <n> write a new migration from the schema changes since the last one
//   node scripts/migrate.mjs check      exit 1 when prisma/schema.prisma has changes no migration covers
import { readdirSync, readFileSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

// The engine's package imports its .wasm file as an ES module, which Node 20 allows only behind a flag.
if (!process.execArgv.includes('--experimental-wasm-modules')) {
  const child = spawnSync(process.execPath, ['--experimental-wasm-modules', '--no-warnings', ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}
const { SchemaEngine } = await import('@prisma/schema-engine-wasm');
const { PrismaPg } = await import('@prisma/adapter-pg');
const { bindMigrationAwareSqlAdapterFactory } = await import('@prisma/driver-adapter-utils');

const root = resolve(import.meta.dirname, '..');
const schemaPath = join(root, 'prisma', 'schema.prisma');
const migrationsDir = join(root, 'prisma', 'migrations');
const filters = { externalTables: [], externalEnums: [] };

function fail(message) {
  console.error(`db:migrate: ${message}`);
  process.exit(1);
}

function migrationsList() {
  const lockPath = join(migrationsDir, 'migration_lock.toml');
  const dirs = existsSync(migrationsDir)
    ? readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  };
}

// The pg driver adapter cannot read PostgreSQL's internal "char" catalog columns, so the engine cannot describe
// a live database. New migrations are therefore computed between two datamodels: the schema as of the last
// migration (kept beside the migrations) and the current one. No database is needed for that.
const snapshotPath = join(migrationsDir, 'schema.snapshot.prisma');

async function pendingSql() {
  const schema = readFileSync(schemaPath, 'utf8');
  // The engine requires an adapter even for a pure datamodel diff; it never connects for one.
  const adapter = bindMigrationAwareSqlAdapterFactory(
    new PrismaPg({ connectionString: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' }),
  );
  const engine = await SchemaEngine.new({ datamodels: [['schema.prisma', schema]] }, () => {}, adapter);
  const from = existsSync(snapshotPath)
    ? { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: readFileSync(snapshotPath, 'utf8') }] }
    : { tag: 'empty' };
  const result = await engine.diff({
    from,
    to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: schema }] },
    script: true,
    exitCode: null,
    filters,
  });
  const sql = (result.stdout ?? '').trim();
  return { schema, sql: sql === '-- This is an empty migration.' ? '' : sql };
}

/**
 * The pg adapter runs a migration by splitting it at every ';', which cuts a function body in pieces. PostgreSQL takes
 * a whole script as one simple query, as Prisma's native engine sends it, and runs it as one transaction.
 */
function wholeScripts(factory) {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script) => {
      try {
        await adapter.client.query(script);
      } catch (error) {
        adapter.onError(error);
      }
    };
    return adapter;
  };
  return factory;
}

async function main() {
  // Migrations need a session of their own (one transaction per script, the engine's lock): through a transaction
  // pooler they go straight to PostgreSQL at DATABASE_MIGRATION_URL instead.
  const url = process.env.DATABASE_MIGRATION_URL || process.env.DATABASE_URL;
  const [command = 'deploy', name] = process.argv.slice(2);

  if (command === 'deploy') {
    if (!url) fail('neither DATABASE_MIGRATION_URL nor DATABASE_URL is set');
    const adapter = bindMigrationAwareSqlAdapterFactory(wholeScripts(new PrismaPg({ connectionString: url })));
    const engine = await SchemaEngine.new({ datamodels: [['schema.prisma', readFileSync(schemaPath, 'utf8')]] }, () => {}, adapter);
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList: migrationsList(), filters });
    console.log(
      appliedMigrationNames.length ? `db:migrate: applied ${appliedMigrationNames.join(', ')}` : 'db:migrate: database is up to date',
    );
    return;
  }
  if (command === 'create') {
    if (!name || !/^[a-z0-9_]+$/.test(name)) fail('usage: migrate.mjs create <snake_case_name>');
    const lock = join(migrationsDir, 'migration_lock.toml');
    mkdirSync(migrationsDir, { recursive: true });
    if (!existsSync(lock)) writeFileSync(lock, '# Managed by scripts/migrate.mjs (Prisma format)\nprovider = "postgresql"\n');
    const { schema, sql } = await pendingSql();
    if (!sql) {
      console.log('db:migrate: schema and migrations agree; nothing to create');
      return;
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = join(migrationsDir, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'migration.sql'), `${sql}\n`);
    writeFileSync(snapshotPath, schema);
    console.log(`db:migrate: wrote ${dir}/migration.sql`);
    return;
  }
  if (command === 'check') {
    const { sql } = await pendingSql();
    if (sql) fail(`schema.prisma has changes no migration covers:\n${sql}`);
    console.log('db:migrate: migrations match schema.prisma');
    return;
  }
  fail(`unknown command ${command}`);
}

// The adapter's connection pool would keep the process alive for its idle timeout.
main().then(
  () => process.exit(0),
  (error) => fail(error instanceof Error ? error.message : JSON.stringify(error)),
);
