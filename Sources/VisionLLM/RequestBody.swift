import Foundation
import JSONRepair
import PipelineCore

/// Builds a JSON request body holding a base64 image without passing the image through the JSON printer.
///
/// The body is printed with ``imageMarker`` where the image goes; the marker is then replaced by the base64
/// bytes (which never need escaping). Keeps the stage's overhead low for 300 KB images.
enum RequestBody {
    /// Stands for the image in the printed body.
    static let imageMarker = "@@receipt-image@@"

    /// `body` as UTF-8 JSON with ``imageMarker`` replaced by `prefix` + base64 of `image`.
    static func encode(_ body: JSONValue, image: Data, prefix: String = "") -> Data {
        let text = body.jsonText()
        // Quoted, the marker cannot match inside another string (the OCR text), where quotes are escaped.
        guard let marker = text.range(of: "\"" + imageMarker + "\"") else { return Data(text.utf8) }
        var data = Data(text[..<marker.lowerBound].utf8)
        data.append(contentsOf: ("\"" + prefix).utf8)
        data.append(image.base64EncodedData())
        data.append(contentsOf: ("\"" + text[marker.upperBound...]).utf8)
        return data
    }
}
