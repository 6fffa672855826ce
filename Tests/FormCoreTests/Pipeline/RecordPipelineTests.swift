import Testing
import FormCore

/// `RecordPipeline.plan`: what a record's save comes to, by the rules every write path shares.
@Suite struct RecordPipelineTests {
    func ticketForm(mode: EditMode = .save) -> Form {
        var form = Form(name: "ticket", sections: [Section(fields: [
            Field(key: "id", kind: .integer).readOnly(),
            Field(key: "title", kind: .text).required(),
            Field(key: "kind", kind: .choice).choices(["bug", "idea"]),
            Field(key: "severity", kind: .integer).hidden(when: .notEquals("kind", "bug")),
            Field(key: "estimate", kind: .integer).disabled(when: .equals("kind", "idea")),
            Field(key: "email", kind: .email),
            Field(key: "note", kind: .text).enabledWhenNotEditing(),
        ])])
        form.primaryKey = ["id"]
        form.mode = mode
        return form
    }

    let stored: [String: FieldValue] = ["id": 1, "title": "Jam", "kind": "idea", "severity": nil, "estimate": nil,
                                        "email": "not-an-email", "note": nil]

    @Test func aNewRecordIsValidatedWholeAndWritesItsVisibleStoredFields() {
        let pipeline = RecordPipeline(ticketForm())
        var values = pipeline.defaults
        values["id"] = 7
        values["kind"] = "idea"
        let refused = pipeline.plan(isNew: true, pristine: pipeline.defaults, values: values, given: ["id", "kind"],
                                    editing: true)
        #expect(refused == .invalid([FieldError(field: "title", code: "required", message: "title is required")],
                                    warnings: []))
        values["title"] = "Jam"
        guard case .insert(let row, _) = pipeline.plan(isNew: true, pristine: pipeline.defaults, values: values,
                                                       given: ["id", "kind", "title"], editing: true) else {
            Issue.record("not an insert")
            return
        }
        // The key of a new record may be given; severity is hidden by kind "idea", so it is not written.
        #expect(row["id"] == 7)
        #expect(row.keys.sorted() == ["email", "estimate", "id", "kind", "note", "title"])
    }

    @Test func aStoredRecordWritesOnlyWhatChangedAndWarnsOfWhatItLeftAlone() {
        let pipeline = RecordPipeline(ticketForm())
        var values = stored
        values["title"] = "Paper jam"
        let plan = pipeline.plan(isNew: false, pristine: stored, values: values, given: ["title"], editing: true)
        #expect(plan == .update(changes: ["title": "Paper jam"], base: ["title": "Jam"],
                                warnings: [FieldError(field: "email", code: "email",
                                                      message: "email is not a valid e-mail address")]))
        #expect(pipeline.plan(isNew: false, pristine: stored, values: stored, given: [], editing: true)
            == .unchanged(warnings: plan.warnings))
    }

    @Test func readOnlyDisabledHiddenAndFrozenChangesAreRefusedInTheSameWords() {
        let pipeline = RecordPipeline(ticketForm())
        var values = stored
        values["id"] = 2
        values["estimate"] = 3
        values["severity"] = 5
        let plan = pipeline.plan(isNew: false, pristine: stored, values: values, given: ["id", "estimate", "severity"],
                                 editing: true)
        guard case .invalid(let errors, _) = plan else { Issue.record("not refused"); return }
        #expect(errors.map(\.code) == ["readOnly", "hidden", "disabled"])
        #expect(errors.map(\.message) == ["id (id) is read-only",
                                          "severity (severity) is hidden, so its change cannot be saved: show it or undo the change",
                                          "estimate (estimate) is disabled"])
        let frozen = RecordPipeline(ticketForm(mode: .frozen))
        var edited = stored
        edited["title"] = "Paper jam"
        edited["note"] = "seen"
        guard case .invalid(let frozenErrors, _) = frozen.plan(isNew: false, pristine: stored, values: edited,
                                                               given: ["title", "note"], editing: false) else {
            Issue.record("not refused")
            return
        }
        #expect(frozenErrors.map(\.message) == ["title (title) cannot be changed: the form is frozen"])
        edited["title"] = "Jam"
        #expect(frozen.plan(isNew: false, pristine: stored, values: edited, given: ["note"], editing: false)
            == .update(changes: ["note": "seen"], base: ["note": nil], warnings: frozen.plan(
                isNew: false, pristine: stored, values: stored, given: [], editing: false).warnings))
    }
}
