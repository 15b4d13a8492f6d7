import CHEIF
import CTesseract
import Foundation
import PipelineCore

/// HEIC/HEIF photos (an iPhone's default) and AVIF, through libheif.
///
/// The container's own transforms (`irot`/`imir`, which cameras write to match the EXIF orientation) are applied
/// while decoding, so the page comes out upright; the EXIF tag is not applied a second time.
/// Blocks while libheif decodes: call it on an engine's thread.
enum HEIFDecoder {
    /// The primary image's displayed size, read from the container's boxes without decoding; nil when libheif cannot
    /// read the container.
    static func dimensions(of bytes: Data) -> (width: Int, height: Int)? {
        withPrimaryImage(bytes) { handle in
            (Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
        }
    }

    /// The primary image, upright, as 32-bit RGB; nil when libheif cannot decode it. Call only after the
    /// `dimensions` passed the pixel budget.
    static func decode(_ bytes: Data) -> PixImage? {
        withPrimaryImage(bytes) { handle -> PixImage? in
            var image: OpaquePointer?
            let error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
            guard error.code == heif_error_Ok, let image else { return nil }
            defer { heif_image_release(image) }
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
                return nil
            }
            let width = heif_image_get_width(image, heif_channel_interleaved)
            let height = heif_image_get_height(image, heif_channel_interleaved)
            guard width > 0, height > 0 else { return nil }
            return PixImage(pipeline_pix_from_interleaved(plane, width, height, stride, 3, 0, 1, 2))
        } ?? nil
    }

    private static func withPrimaryImage<T>(_ bytes: Data, _ body: (OpaquePointer) -> T) -> T? {
        guard let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        return bytes.withUnsafeBytes { buffer -> T? in
            guard
                heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil).code
                    == heif_error_Ok
            else { return nil }
            var handle: OpaquePointer?
            guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
                return nil
            }
            defer { heif_image_handle_release(handle) }
            return body(handle)
        }
    }
}
