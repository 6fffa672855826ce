extension String {
    /// The text cut or filled with spaces to `width` characters (a column in help and tables).
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
