/**
 * The expand-then-contract rule for migrations (docs/decisions.md, docs/upgrades.md): during a rolling upgrade the
 * previous release runs on the schema the new release's migrations made, so a migration may only add what the old code
 * ignores. This reads one migration's SQL and names each statement that could break code written for the schema before
 * it: removing or renaming what old code reads or writes, narrowing a column, or adding a rule old writes can violate.
 */

export interface ContractStatement {
  rule: string;
  statement: string;
}

/** The statements of a script: comments dropped, split at `;` outside dollar-quoted bodies (DO blocks, functions). */
export function statementsOf(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let dollarTag: string | undefined;
  let quoted = false;
  for (let i = 0; i < sql.length; i += 1) {
    const rest = sql.slice(i);
    if (dollarTag !== undefined) {
      if (rest.startsWith(dollarTag)) {
        current += dollarTag;
        i += dollarTag.length - 1;
        dollarTag = undefined;
      } else current += sql[i];
      continue;
    }
    if (quoted) {
      current += sql[i];
      if (sql[i] === "'") quoted = false;
      continue;
    }
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end - 1;
      continue;
    }
    const tag = /^\$[A-Za-z_]*\$/.exec(rest);
    if (tag) {
      dollarTag = tag[0];
      current += dollarTag;
      i += dollarTag.length - 1;
      continue;
    }
    if (sql[i] === "'") quoted = true;
    if (sql[i] === ';') {
      if (current.trim()) statements.push(current.trim().replace(/\s+/g, ' '));
      current = '';
      continue;
    }
    current += sql[i];
  }
  if (current.trim()) statements.push(current.trim().replace(/\s+/g, ' '));
  return statements;
}

/**
 * A statement with its string literals emptied, so data (`VALUES ('DROP COLUMN')`) never reads as a command. Bodies in
 * dollar quotes stay whole: they are code (a DO block's dynamic `EXECUTE 'DROP TABLE …'` is still flagged).
 */
function codeOf(statement: string): string {
  let code = '';
  let dollarTag: string | undefined;
  let quoted = false;
  for (let i = 0; i < statement.length; i += 1) {
    const rest = statement.slice(i);
    if (dollarTag === undefined && !quoted) {
      const tag = /^\$[A-Za-z_]*\$/.exec(rest);
      if (tag) {
        dollarTag = tag[0];
        code += dollarTag;
        i += dollarTag.length - 1;
        continue;
      }
    } else if (dollarTag !== undefined && rest.startsWith(dollarTag)) {
      code += dollarTag;
      i += dollarTag.length - 1;
      dollarTag = undefined;
      continue;
    }
    if (dollarTag === undefined && statement[i] === "'") {
      quoted = !quoted;
      code += "'";
      continue;
    }
    if (!quoted) code += statement[i];
  }
  return code;
}

const NAME = String.raw`(?:"([^"]+)"|([A-Za-z_][\w$]*))`;
const nameOf = (match: RegExpExecArray, at: number) => match[at] ?? match[at + 1];

/** The top-level, comma-separated clauses of an ALTER TABLE (parentheses kept together). */
function clausesOf(statement: string): string[] {
  const clauses: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of statement) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      clauses.push(current.trim());
      current = '';
    } else current += char;
  }
  clauses.push(current.trim());
  return clauses;
}

/** Every statement of `sql` that the previous release may not survive, with the rule it breaks. */
export function contractStatements(sql: string): ContractStatement[] {
  const statements = statementsOf(sql).map(codeOf);
  // Objects this migration creates itself: changing them is still expanding (old code never knew them).
  const createdTables = new Set<string>();
  const created = new Set<string>();
  for (const statement of statements) {
    const table = new RegExp(String.raw`^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?${NAME}`, 'i').exec(statement);
    if (table) createdTables.add(nameOf(table, 1));
    const object = new RegExp(
      String.raw`^CREATE (?:OR REPLACE )?(?:UNIQUE )?(?:INDEX|TRIGGER|FUNCTION|VIEW)(?: CONCURRENTLY)?(?: IF NOT EXISTS)? ${NAME}`,
      'i',
    ).exec(statement);
    if (object) created.add(nameOf(object, 1));
    for (const constraint of statement.matchAll(new RegExp(String.raw`ADD CONSTRAINT ${NAME}`, 'gi'))) {
      created.add(constraint[1] ?? constraint[2]);
    }
  }

  const found: ContractStatement[] = [];
  const flag = (rule: string, statement: string) => found.push({ rule, statement });
  for (const statement of statements) {
    const upper = statement.toUpperCase();
    const altered = new RegExp(String.raw`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?${NAME}`, 'i').exec(statement);
    const existingTable = altered !== null && !createdTables.has(nameOf(altered, 1));
    const indexed = new RegExp(
      String.raw`^CREATE UNIQUE INDEX(?: CONCURRENTLY)?(?: IF NOT EXISTS)? ${NAME} ON (?:ONLY )?${NAME}`,
      'i',
    ).exec(statement);

    if (/\bDROP (?:TABLE|COLUMN|TYPE|VIEW|MATERIALIZED VIEW|SEQUENCE|SCHEMA|DOMAIN)\b/.test(upper)) {
      flag('drops a table, column or type the previous release may still use', statement);
    }
    if (/\bRENAME\b/.test(upper)) flag('renames what the previous release names by its old name', statement);
    if (/\bALTER COLUMN \S+ (?:SET DATA )?TYPE\b/.test(upper)) flag("changes a column's type under the previous release", statement);
    if (/\bSET NOT NULL\b/.test(upper)) flag('makes a column required that the previous release may leave empty', statement);
    if (/^TRUNCATE\b/.test(upper)) flag('empties a table the previous release reads', statement);
    const dropped = new RegExp(String.raw`\bDROP (CONSTRAINT|INDEX|TRIGGER|FUNCTION)(?: CONCURRENTLY)?(?: IF EXISTS)? ${NAME}`, 'i').exec(
      statement,
    );
    if (dropped && !created.has(nameOf(dropped, 2))) {
      flag(
        `drops ${dropped[1].toLowerCase()} ${nameOf(dropped, 2)} without re-creating it (the previous release may rely on it)`,
        statement,
      );
    }
    if (altered && existingTable) {
      for (const clause of clausesOf(statement.slice(altered[0].length))) {
        const upperClause = clause.toUpperCase();
        if (/^ADD (?:COLUMN )?/.test(upperClause) && /\bNOT NULL\b/.test(upperClause) && !/\bDEFAULT\b/.test(upperClause)) {
          flag("adds a required column without a default: the previous release's inserts leave it out", statement);
        }
        if (/^ADD CONSTRAINT\b/.test(upperClause)) {
          flag("adds a constraint to an existing table: the previous release's writes may violate it", statement);
        }
      }
    }
    if (indexed && !createdTables.has(nameOf(indexed, 3))) {
      flag("adds a unique index to an existing table: the previous release's writes may violate it", statement);
    }
  }
  return found;
}

/** A contract step allowed by prisma/contract-migrations.json. */
export interface ContractEntry {
  migration: string;
  /** The rule the step breaks, as `contractStatements` names it. */
  rule: string;
  reason: string;
  /** The release after which every process runs code that no longer needs what the step removes. */
  safeAfter: string;
}

/** The contract steps of `migrations` (name → SQL) that no entry of the allow-list covers. */
export function unlistedContractSteps(
  migrations: { name: string; sql: string }[],
  allowList: ContractEntry[],
): (ContractStatement & { migration: string })[] {
  return migrations
    .flatMap(({ name, sql }) => contractStatements(sql).map((found) => ({ migration: name, ...found })))
    .filter((found) => !allowList.some((entry) => entry.migration === found.migration && entry.rule === found.rule));
}
