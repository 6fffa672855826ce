extension String {
    /// `count`, the Characters a length rule counts, without breaking text
    /// into Characters where each byte is one: ASCII with no carriage return
    /// (CR LF is a single Character). Counting Characters was a sixteenth of
    /// a keystroke's cost, twice over with a minimum and a maximum (issue 14).
    var characterCount: Int {
        let eachByteOneCharacter = utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 >= 0x80 || $0 == 0x0D }
        }
        return eachByteOneCharacter == true ? utf8.count : count
    }
}
