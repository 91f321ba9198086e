# The Gatehouse server image: the artifact `npm run build` makes in dist/, on Node 20, with its few runtime packages
# installed, run as the unprivileged `node` user. Build it from the repository root after `npm run build`:
#   npm run build && docker build -t gatehouse .
FROM node:20-slim

ENV NODE_ENV=production \
    PORT=8102 \
    GATEHOUSE_DATA_DIR=/data
WORKDIR /app

# The lockfile first: the install layer is rebuilt only when the runtime packages change.
COPY dist/package.json dist/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY dist/server.js dist/server.js.map ./
COPY dist/migrations ./migrations
COPY dist/dashboard ./dashboard
COPY dist/static ./static

# The data directory holds the generated secret and keys (and PGlite's database when DATABASE_URL is unset).
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8102

# Healthy when the server answers and reaches its database.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8102)+'/health?db=1').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

CMD ["node", "server.js"]
