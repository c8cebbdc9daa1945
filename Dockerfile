# The server as a container image: built in one stage with the development dependencies (TypeScript),
# run in another with the production dependencies only, as the unprivileged `node` user.
# NODE_IMAGE names a Node.js 24 image with npm and a `node` user (the official one by default).
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin bin
COPY src src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/bin bin
COPY --from=build /app/dist dist
COPY --from=build /app/src/dashboard/browser src/dashboard/browser
COPY --from=build /app/src/client/package.json src/client/package.json
COPY --from=build /app/src/client/dist src/client/dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is process 1: it handles SIGTERM as on any machine (readyz 503, drain, exit 0).
CMD ["node", "dist/main.js"]
