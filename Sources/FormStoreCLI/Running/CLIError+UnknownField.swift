import FormCore

extension CLIError {
    /// A field name the form does not have, given as an argument: a usage
    /// error (the command line is wrong, not the data), with the closest
    /// field's name when one is a typo or two away.
    ///
    /// ```
    /// Error: form customers has no field 'nmae'. Did you mean 'name'?
    /// ```
    /// - parameter option: the option that named it (`--where`), if any.
    static func unknownField(_ name: String, of form: Form, option: String? = nil) -> CLIError {
        var message = "\(option.map { "\($0): " } ?? "")form \(form.name) has no field '\(name)'"
        let candidates = form.fields.filter(\.holdsValue).map(\.key)
        if let guess = Suggestion.closest(to: name, among: candidates) {
            // Named as it is typed too where that differs: a `\` typed alone escapes the next character.
            let typed = TypedName.typed(guess)
            message += ". Did you mean '\(guess)'" + (typed == guess ? "?" : " (typed \(typed))?")
        }
        return .usage(message)
    }
}
