import FormCore
import FoundationEssentials

extension WebApp {
    /// `{"error":"…"}`, the API's body for a failure.
    static func errorJSON(_ message: String) -> Data {
        Data(("{\"error\":" + JSONText.quoted(message) + "}").utf8)
    }
}
