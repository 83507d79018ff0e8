# The base of the CI stand-ins for node, python and oven/bun (see .ci/image-standins.sh): a Debian trixie
# minbase root file system (`docker import`ed, so without ENV or CMD) with the official slim images' PATH, and
# the certificate authorities this machine trusts. Those include the one its network's egress proxy signs with,
# so that npm and pip reach their registries from inside a build (NODE_EXTRA_CA_CERTS, PIP_CERT: Node and pip
# read their own lists otherwise). Users' builds talk to the registries directly and need none of it.
ARG BASE=api-ref/debian-standin-rootfs:trixie
FROM ${BASE}
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
CMD ["bash"]
