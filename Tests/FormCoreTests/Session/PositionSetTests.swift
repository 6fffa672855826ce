import Testing
@testable import FormCore

/// A set of positions holds what was inserted, once each, in insertion
/// order, whether or not its flags were made yet (they are made on first insert).
@Suite struct PositionSetTests {
    @Test func anEmptySetContainsNothing() {
        let set = PositionSet(count: 3)
        #expect(set.isEmpty)
        #expect(!(0..<3).contains { set.contains($0) })
        #expect(set.positions == [])
    }

    @Test func insertedPositionsAreKeptOnceInOrder() {
        var set = PositionSet(count: 4)
        set.insert(2)
        set.insert(0)
        set.insert(2)
        #expect(set.positions == [2, 0])
        #expect(set.contains(0) && set.contains(2))
        #expect(!set.contains(1) && !set.contains(3))
    }

    @Test func aFilteredSetKeepsItsCount() {
        let set = PositionSet(count: 5, [4, 1, 3]).filter { $0 != 1 }
        #expect(set.count == 5)
        #expect(set.positions == [4, 3])
        #expect(!set.contains(1) && set.contains(4))
        #expect(PositionSet(count: 5).filter { _ in true }.isEmpty)
    }
}
