import FormCore
import Foundation
import Testing
@testable import FormStorage

/// Foreign keys as pickers, on the schema of `ChildTableTests`.
@Suite struct ReferencePickerTests {
    let tables: ChildTableTests

    init() throws { tables = try ChildTableTests() }

    @Test func aForeignKeyOffersTheReferencedRowsByTheirLabel() throws {
        let picker = try tables.store.picker(ChildTableTests.playlistForm, field: "tracks.track_id")
        #expect(picker == ReferencePicker(table: "track", column: "id", labelColumn: "title"))
        let all = try tables.store.choices(ChildTableTests.playlistForm, field: "tracks.track_id")
        #expect(all.map(\.label) == ["Blue", "Green", "Red"])
        #expect(all.map(\.value) == [1, 2, 3])
        let found = try tables.store.choices(ChildTableTests.playlistForm, field: "tracks.track_id", search: "RE", limit: 1)
        #expect(found.map(\.label) == ["Green"])
        #expect(try tables.store.referenceLabel(ChildTableTests.playlistForm, field: "tracks.track_id", value: 3) == "Red")
    }

    @Test func aFieldThatIsNoForeignKeyHasNoPicker() throws {
        #expect(try tables.store.picker(ChildTableTests.playlistForm, field: "name") == nil)
        #expect(try tables.store.choices(ChildTableTests.playlistForm, field: "name").isEmpty)
    }

    @Test func theLabelIsTheFirstTextColumnThatIsUniqueOrNotNull() throws {
        let employee = try tables.store.picker(ChildTableTests.employeeForm, field: "reports.manager_id")
        #expect(employee?.labelColumn == "name")
        let choices = try tables.store.choices(ChildTableTests.employeeForm, field: "reports.manager_id", search: "%")
        #expect(choices.isEmpty)
    }

    @Test func aValueReferringToNoRowIsRefusedByName() throws {
        let session = try FormSession.open(ChildTableTests.playlistForm, key: RecordKey("id", 1), backend: tables.store)
        _ = try session.addRow("tracks", values: ["track_id": 99])
        do {
            _ = try session.save()
            Issue.record("expected the save to be refused")
        } catch let error as FormStoreError {
            #expect(error.description == "track_id: no row of 'track' has id = 99")
        }
        #expect(try tables.texts("SELECT count(*) || '' FROM playlist_track") == ["2"])
    }
}
