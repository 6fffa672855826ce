import FormCore

extension ChangeAttribution {
    /// A save made by this command: the login name (as drafts use it), through `command`.
    static var command: ChangeAttribution { ChangeAttribution(actor: DraftOwner.current, via: .command) }
}
