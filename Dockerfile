# syntax=docker/dockerfile:1
# One image for the API (default), the worker and the one-shot migration; see docker-compose.yml.

# All dependencies, dev ones included (Nest CLI, TypeScript, the Prisma generator). No install scripts are needed:
# `npm run build` generates the Prisma client offline.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts

FROM deps AS build
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
# scripts/migrate.mjs drives Prisma's schema engine compiled to WASM: a devDependency without dependencies of its
# own. Its other import, @prisma/driver-adapter-utils, is already a production dependency of @prisma/adapter-pg.
COPY --from=build /app/node_modules/@prisma/schema-engine-wasm node_modules/@prisma/schema-engine-wasm
COPY --from=build /app/dist dist
COPY prisma prisma
COPY scripts/migrate.mjs scripts/migrate.mjs
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/api/src/main.js"]
