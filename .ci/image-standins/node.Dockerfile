# CI stand-in for the official node:24-slim image (see .ci/image-standins.sh): Debian trixie, Node 24 from the
# npm registry's node package and npm from its npm package in /usr/local, the `node` user (uid 1000) and the
# official image's entrypoint. Not for users: with Docker Hub in reach, the apps' Dockerfiles get the real image.
ARG BASE=api-ref/debian-standin:trixie
FROM ${BASE}
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY node-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["node"]
