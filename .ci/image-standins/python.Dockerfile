# CI stand-in for the official python:3.13-slim image (see .ci/image-standins.sh): Debian trixie, whose python3
# is 3.13, with venv and pip (ensurepip), `python` and `python3` in /usr/local/bin as in the official image, and
# without Debian's EXTERNALLY-MANAGED marker (the official image's Python is not Debian's). Not for users: with
# Docker Hub in reach, apps/fastapi's Dockerfile gets the real image.
ARG BASE=api-ref/debian-standin:trixie
FROM ${BASE}
ENV LANG=C.UTF-8
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/* /usr/lib/python3*/EXTERNALLY-MANAGED \
 && ln -s /usr/bin/python3 /usr/local/bin/python3 \
 && ln -s /usr/bin/python3 /usr/local/bin/python \
 && python3 -c 'import sys, venv, ensurepip; assert sys.version_info[:2] == (3, 13), sys.version'
CMD ["python3"]
