# syntax=docker/dockerfile:1
# The Ferry service as a container image: `ferry serve` from the ferry-service package, built from this
# repository. Building and running the image is the operator's step (docker build / docker compose
# up). Where it was written no registry is reachable, so it was built only on a locally assembled
# stand-in of the base image (docs/architecture.md, "Packages"); test/packaging/servicePackage.test.ts
# runs every step of the runtime stage outside a container (the tarball, this npm ci, ferry serve with
# this ENV and compose's on PostgreSQL, both healthchecks) and containerFiles.test.ts checks the rest
# statically. See "Run the service" in README.md.
#
#   docker build -t ferry-service .
#   docker run --env-file ferry.env -v "$PWD/ferry.json:/etc/ferry/ferry.json:ro" \
#     -v "$PWD/deployments:/etc/ferry/deployments:ro" -p 127.0.0.1:8080:8080 ferry-service

# --- build: the package tarball, compiled at pack time, from the committed lockfile -----------------
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /src
# Dependencies first (cached while only sources change): exactly the lockfile's (npm ci). The root
# postinstall (scripts/ensure-edr.mjs) makes sure Hardhat's native EDR binding loads.
COPY package.json package-lock.json ./
COPY scripts/ensure-edr.mjs scripts/ensure-edr.mjs
RUN npm ci --no-audit --no-fund
# What the package is built from: the contracts (compiled by its prepack), the TypeScript sources,
# the build script and the package manifests.
COPY hardhat.config.ts tsconfig.json remappings.txt ./
COPY contracts contracts
COPY ts ts
COPY scripts/build-package.ts scripts/build-package.ts
COPY examples/serve examples/serve
COPY packages/ferry-service packages/ferry-service
RUN mkdir /pkg && cd packages/ferry-service && npm pack --pack-destination /pkg \
 && tar -xzf /pkg/ferry-service-*.tgz -C /pkg

# --- runtime: the package and its production dependencies only, as the node user ---------------------
FROM node:22.23.3-bookworm-slim
ENV NODE_ENV=production
WORKDIR /opt/ferry
COPY --from=build /pkg/package /opt/ferry
# The package's own lockfile (npm-shrinkwrap.json, shipped in the tarball): the exact dependency tree
# the packaging test installs. No install scripts run.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && ln -s /opt/ferry/bin/ferry.js /usr/local/bin/ferry \
 && mkdir -p /etc/ferry/deployments /var/lib/ferry \
 && chown node:node /var/lib/ferry
USER node
# Inside the container the service must listen on every interface to be reachable through the
# published port; publish it on the host's loopback (-p 127.0.0.1:8080:8080) unless a proxy in front
# needs more. The config file is mounted at FERRY_CONFIG; contracts come from the deployment records
# mounted at FERRY_DEPLOYMENTS_DIR; the embedded database (without DATABASE_URL) lives in the volume at
# FERRY_DATA_DIR. Keys come from the environment only (--env-file / compose env_file).
ENV FERRY_HOST=0.0.0.0 \
    FERRY_PORT=8080 \
    FERRY_CONFIG=/etc/ferry/ferry.json \
    FERRY_DEPLOYMENTS_DIR=/etc/ferry/deployments \
    FERRY_DATA_DIR=/var/lib/ferry/data
VOLUME ["/var/lib/ferry"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.FERRY_PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["ferry"]
CMD ["serve"]
