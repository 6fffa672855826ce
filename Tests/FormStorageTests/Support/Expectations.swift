import FormStorage
import Testing

/// Runs `body` and returns the `DatabaseError` it throws; records an issue when it throws nothing or something else.
func databaseError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> DatabaseError? {
    do {
        try body()
        Issue.record("expected a DatabaseError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as DatabaseError {
        return error
    } catch {
        Issue.record("expected a DatabaseError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
