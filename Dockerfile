# syntax=docker/dockerfile:1
# Inkwell production image: the Nest API and the Astro pages in one Node process on port 3000.
# Use it with docker-compose.yml (PostgreSQL 17 in its own container, DATABASE_URL set).

# ---- build: all dependencies, compile the backend and the frontend, then drop dev dependencies
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV ASTRO_TELEMETRY_DISABLED=1 \
    SCARF_ANALYTICS=false \
    DISABLE_OPENCOLLECTIVE=1 \
    CI=true
COPY package.json package-lock.json ./
# The workspace package (@inkwell/client): the pages take the API's generated types from it.
COPY packages/client/package.json packages/client/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime: compiled code, built pages and production node_modules only
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# nest-cli.json marks the project root the server finds frontend/dist from.
COPY --from=build /app/package.json /app/package-lock.json /app/nest-cli.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/frontend/dist ./frontend/dist
# DATA_DIR holds uploads and generated secrets; mount a volume on it.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://localhost:3000/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same V8 heap cap as `npm start` (package.json): RSS stays near 250 MB under load; very
# large sites can override the command with a higher --max-old-space-size.
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=8", "dist/backend/src/main.js"]
