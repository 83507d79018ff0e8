# CI stand-in for the official oven/bun slim image (see .ci/image-standins.sh): Debian trixie, the bun binary
# from the npm registry's @oven/bun-linux-x64 package in /usr/local/bin, the `bun` user (uid 1000) and the
# official image's working directory. Not for users: with Docker Hub in reach, apps/elysia gets the real image.
ARG BASE=api-ref/debian-standin:trixie
FROM ${BASE}
RUN groupadd --gid 1000 bun && useradd --uid 1000 --gid bun --shell /bin/sh --create-home bun
COPY bun.exe /usr/local/bin/bun
RUN ln -s bun /usr/local/bin/bunx && mkdir -p /home/bun/app && chown bun:bun /home/bun/app && bun --version
WORKDIR /home/bun/app
CMD ["/usr/local/bin/bun"]
