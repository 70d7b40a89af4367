import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractStatements, statementsOf, unlistedContractSteps, type ContractEntry } from './support/expand-only';
import { PREVIOUS_RELEASE } from './support/previous-release';

const ROOT = join(__dirname, '..');
const MIGRATIONS = join(ROOT, 'prisma', 'migrations');

const allowList = (JSON.parse(readFileSync(join(ROOT, 'prisma', 'contract-migrations.json'), 'utf8')) as { contract: ContractEntry[] })
  .contract;

/** The migrations the previous release shipped, from git (CI runs on a full clone). */
function previousMigrations(): Set<string> {
  let listing: string;
  try {
    listing = execFileSync('git', ['ls-tree', '--name-only', `${PREVIOUS_RELEASE}:prisma/migrations`], { cwd: ROOT, encoding: 'utf8' });
  } catch {
    throw new Error(
      `the previous release ${PREVIOUS_RELEASE} is not in this clone's history (a shallow clone?): run \`git fetch --unshallow\``,
    );
  }
  return new Set(listing.split('\n').filter(Boolean));
}

const current = readdirSync(MIGRATIONS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const sqlOf = (name: string) => readFileSync(join(MIGRATIONS, name, 'migration.sql'), 'utf8');

describe('migrations are expand-then-contract (docs/upgrades.md)', () => {
  it(`keeps every migration ${PREVIOUS_RELEASE} shipped, unedited and in order, and adds new ones after them`, () => {
    const previous = [...previousMigrations()].filter((name) => !name.includes('.')).sort();
    expect(current.slice(0, previous.length)).toEqual(previous);
    // A shipped migration has run on every fleet already: an edit would never run there, only on new databases.
    const edited = execFileSync(
      'git',
      ['diff', '--name-only', PREVIOUS_RELEASE, '--', ...previous.map((name) => `prisma/migrations/${name}/migration.sql`)],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(edited).toBe('');
  });

  it(`lets no migration newer than ${PREVIOUS_RELEASE} contract the schema unless the allow-list names it`, () => {
    const previous = previousMigrations();
    const newer = current.filter((name) => !previous.has(name));
    const unlisted = unlistedContractSteps(
      newer.map((name) => ({ name, sql: sqlOf(name) })),
      allowList,
    );
    expect(unlisted).toEqual([]);
  });

  it('lists only contract steps a migration takes, each with its reason and the release after which it is safe', () => {
    for (const entry of allowList) {
      expect(entry).toEqual({
        migration: expect.any(String),
        rule: expect.any(String),
        reason: expect.any(String),
        safeAfter: expect.any(String),
      });
      expect(current).toContain(entry.migration);
      expect(contractStatements(sqlOf(entry.migration)).map((found) => found.rule)).toContain(entry.rule);
    }
  });
});

describe('the expand-only check', () => {
  const rules = (sql: string) => contractStatements(sql).map((found) => found.rule);

  it('passes what only adds: new tables, nullable or defaulted columns, indexes, and objects re-created under their name', () => {
    expect(
      rules(`
        -- A comment; with a semicolon DROP COLUMN in it
        ALTER TABLE "customers" ADD COLUMN "a" TEXT, ADD COLUMN "b" INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE "t" ("id" TEXT NOT NULL, CONSTRAINT "t_pkey" PRIMARY KEY ("id"));
        ALTER TABLE "t" ADD COLUMN "c" TEXT NOT NULL, ADD CONSTRAINT "t_fkey" FOREIGN KEY ("c") REFERENCES "customers"("id");
        CREATE UNIQUE INDEX "t_c_key" ON "t"("c");
        CREATE INDEX "customers_a_idx" ON "customers"("a");
        DROP TRIGGER "tr" ON "instances";
        CREATE TRIGGER "tr" AFTER UPDATE ON "instances" FOR EACH ROW EXECUTE FUNCTION "f"();
        DO $$ BEGIN EXECUTE format('CREATE TABLE %I PARTITION OF %I', 'a', 'b'); END $$;
        INSERT INTO "t" ("id", "c") VALUES ('a;b', 'DROP COLUMN');
      `),
    ).toEqual([]);
  });

  it.each([
    ['ALTER TABLE "instances" DROP COLUMN "webhook_url";', 'drops a table, column or type the previous release may still use'],
    ['DROP TABLE "media_blobs";', 'drops a table, column or type the previous release may still use'],
    ["DO $$ BEGIN EXECUTE 'DROP TABLE ' || 'x'; END $$;", 'drops a table, column or type the previous release may still use'],
    ['DROP TYPE "DeliveryState";', 'drops a table, column or type the previous release may still use'],
    ['ALTER TABLE "instances" RENAME COLUMN "name" TO "label";', 'renames what the previous release names by its old name'],
    ['ALTER TABLE "instances" RENAME TO "sessions";', 'renames what the previous release names by its old name'],
    ["ALTER TYPE \"DeliveryState\" RENAME VALUE 'pending' TO 'queued';", 'renames what the previous release names by its old name'],
    ['ALTER TABLE "messages" ALTER COLUMN "status" TYPE TEXT;', "changes a column's type under the previous release"],
    ['ALTER TABLE "messages" ALTER COLUMN "status" SET DATA TYPE TEXT;', "changes a column's type under the previous release"],
    ['ALTER TABLE "instances" ALTER COLUMN "name" SET NOT NULL;', 'makes a column required that the previous release may leave empty'],
    ['TRUNCATE "event_log";', 'empties a table the previous release reads'],
    [
      'ALTER TABLE "instances" ADD COLUMN "region" TEXT NOT NULL;',
      "adds a required column without a default: the previous release's inserts leave it out",
    ],
    [
      'ALTER TABLE "instances" ADD COLUMN "a" TEXT, ADD COLUMN "region" TEXT NOT NULL;',
      "adds a required column without a default: the previous release's inserts leave it out",
    ],
    [
      'ALTER TABLE "instances" ADD CONSTRAINT "name_len" CHECK (length("name") < 10);',
      "adds a constraint to an existing table: the previous release's writes may violate it",
    ],
    [
      'CREATE UNIQUE INDEX "instances_name_key" ON "instances"("name");',
      "adds a unique index to an existing table: the previous release's writes may violate it",
    ],
    [
      'DROP INDEX "messages_instance_id_idx";',
      'drops index messages_instance_id_idx without re-creating it (the previous release may rely on it)',
    ],
    [
      'ALTER TABLE "messages" DROP CONSTRAINT "messages_pkey";',
      'drops constraint messages_pkey without re-creating it (the previous release may rely on it)',
    ],
  ])('flags %s', (sql, rule) => {
    expect(rules(sql)).toEqual([rule]);
  });

  it('lets a contract step through only when the allow-list names its migration and rule', () => {
    const migration = { name: '20300101000000_drop_webhook_url', sql: 'ALTER TABLE "instances" DROP COLUMN "webhook_url";' };
    const entry: ContractEntry = {
      migration: migration.name,
      rule: 'drops a table, column or type the previous release may still use',
      reason: 'webhook_url moved to instance_sinks in 2.1.0; 2.1.0 and later never read it',
      safeAfter: '2.1.0',
    };
    expect(unlistedContractSteps([migration], [entry])).toEqual([]);
    expect(unlistedContractSteps([migration], [{ ...entry, migration: '20300101000001_other' }])).toEqual([
      { migration: migration.name, rule: entry.rule, statement: 'ALTER TABLE "instances" DROP COLUMN "webhook_url"' },
    ]);
    expect(
      unlistedContractSteps([migration], [{ ...entry, rule: 'renames what the previous release names by its old name' }]),
    ).toHaveLength(1);
  });

  it('splits a script into statements, keeping dollar-quoted bodies and strings whole', () => {
    expect(statementsOf("SELECT 1; -- no;\nDO $$ BEGIN PERFORM 2; END $$;\nSELECT 'a;b'")).toEqual([
      'SELECT 1',
      'DO $$ BEGIN PERFORM 2; END $$',
      "SELECT 'a;b'",
    ]);
  });
});
