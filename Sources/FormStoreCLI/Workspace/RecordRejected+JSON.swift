import FormCore
import FoundationEssentials

/// A refused save as JSON for `set` and `new --format json`: the library's
/// `SaveOutcome` shape (docs/service.md), so a script reads what a service
/// built on FormCore returns. Secure fields' values are masked, as everywhere.
extension RecordRejected {
    var outcome: SaveOutcome {
        switch reason {
        case .invalid(let errors): return .invalid(errors)
        case .notFound: return .notFound
        case .conflict(let conflicts), .changedSinceHistory(let conflicts, _):
            return SaveOutcome.conflict(conflicts).maskingSecureValues(of: form, with: .text(ValueText.mask))
        }
    }

    /// Writes the outcome as one line of JSON to stdout (the error still goes to stderr).
    func writeOutcome(to context: CommandContext) { outcome.write(to: context) }
}

extension ShowCommand.Format {
    /// Runs a write; with `--format json`, a refused save also prints its outcome as JSON.
    func reportingRejection<T>(_ context: CommandContext, _ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let rejected as RecordRejected where self == .json {
            rejected.writeOutcome(to: context)
            throw rejected
        } catch where self == .json {
            SaveOutcome(refusal: error)?.write(to: context)
            throw error
        }
    }
}
