# One image for the four apps and the operator CLI (docker-compose.yml picks the entry point).
#   build    all dependencies, one tsc program (tsconfig.build.json) → dist/, and Vite's build of the
#            web console (apps/console) → dist/console, which the gateway serves at /console
#   prod     production dependencies only, installed on the full image (native add-ons such as
#            msgpackr-extract compile here; the slim runtime has no toolchain)
#   runtime  Node 24 LTS slim + production node_modules + dist + the path-alias hook
# The Node release is the one `npm start` and `npm test` run on (scripts/lib/node-runtime.mjs
# PINNED_NODE_VERSION; a test checks both say the same), so what CI tests is what the image runs.
# Both install stages use the same Debian release (bookworm) as the runtime, so native add-ons
# built in `prod` load in `runtime`.

ARG NODE_VERSION=24.22.3

FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
RUN npx tsc -p tsconfig.build.json && rm -f dist/.tsbuildinfo
RUN npx vite build --config apps/console/vite.config.mjs

FROM node:${NODE_VERSION}-bookworm AS prod
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --chown=node:node package.json ./
COPY --from=prod --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node scripts/register-paths.cjs ./scripts/register-paths.cjs
USER node
EXPOSE 3000
# The gateway by default; docker-compose.yml sets the command of every other service.
# V8 young-generation sizes: scripts/lib/services.mjs says why.
CMD ["node", "--max-semi-space-size=64", "--min-semi-space-size=16", "-r", "./scripts/register-paths.cjs", "dist/apps/gateway/src/main.js"]
