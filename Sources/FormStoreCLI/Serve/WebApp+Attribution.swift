import FormCore

extension WebApp {
    /// Who a save from the web is, as history names it: the logged-in user,
    /// `token` for the server's printed token, `local` on a server without
    /// logins (loopback only, so someone on this machine).
    func attribution(_ user: String) -> ChangeAttribution {
        if case .none = visitors.authentication { return ChangeAttribution(actor: "local", via: .web) }
        return ChangeAttribution(actor: user, via: .web)
    }
}
