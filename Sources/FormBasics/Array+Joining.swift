extension Array where Element == String {
    /// The texts with `separator` between them, as `joined(separator:)` gives.
    ///
    /// The standard library's `joined(separator:)` is generic over the
    /// collection, and its first calls look up the array's associated types at
    /// run time: about 60 k instructions each, a third of the work before a
    /// command's first row (docs/binary.md, "Start-up"). This one is not generic.
    public func joined(with separator: String) -> String {
        var text = ""
        for (index, element) in enumerated() {
            if index > 0 { text += separator }
            text += element
        }
        return text
    }
}
