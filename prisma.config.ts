// Used by the Prisma CLI (generate). Migrations run through scripts/migrate.mjs, which works offline.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
