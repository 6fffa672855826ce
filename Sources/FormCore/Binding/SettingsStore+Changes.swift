import FoundationEssentials

extension SettingsStore {
    /// The store's changes as an `AsyncSequence`: each element is the set of
    /// keys one change touched, whoever made it (for `SQLiteSettingsStore`,
    /// also another connection or process). The observation lasts as long as
    /// the stream is consumed: ending or cancelling the consuming task ends it.
    ///
    /// ```swift
    /// for await keys in settings.changes {
    ///     if keys.contains("theme") { apply(settings.value(forKey: "theme")) }
    /// }
    /// ```
    ///
    /// Changes are buffered (none is dropped) while the consumer is busy.
    public var changes: AsyncStream<Set<String>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
        let observation = addObserver { keys in continuation.yield(keys) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
