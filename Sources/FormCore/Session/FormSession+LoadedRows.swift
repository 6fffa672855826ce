extension FormSession {
    /// A group's rows as loaded or last saved (what `rows(_:)` is compared
    /// with): a page draws its base from them, so a later post can tell what
    /// the person changed from what someone else saved meanwhile.
    public func loadedRows(_ group: String) -> [GroupRow] { groupState.pristine[group] ?? [] }
}
