import FoundationEssentials

/// The state of a session that most sessions never use: typed inputs,
/// errors, warnings, undo steps, offered drafts, observers, group rows...
/// Held in the session, each was made when it opened and destroyed when it
/// was freed (eleven empty dictionaries, some arrays, the undo stacks),
/// some 0.8k instructions of a session that only loads and decodes a model
/// (issue 14). They are made together, on the first change of any of them;
/// until then each reads as its empty value.
final class SessionExtras {
    @exclusivity(unchecked) var inputs: [String: String] = [:]
    @exclusivity(unchecked) var fieldErrors: [String: [FieldError]] = [:]
    @exclusivity(unchecked) var formErrors: [FieldError] = []
    @exclusivity(unchecked) var warningState = SessionWarnings()
    @exclusivity(unchecked) var attribution = ChangeAttribution.library
    @exclusivity(unchecked) var undoSteps = UndoSteps()
    @exclusivity(unchecked) var externalWatch: ExternalWatch?
    @exclusivity(unchecked) var offeredDrafts: [Draft] = []
    /// A restored draft's fields changed on both sides, not settled yet (`FormSession.unsettledDraftFields`).
    @exclusivity(unchecked) var unsettledDraft: [String: UnsettledDraftField] = [:]
    /// Made when first needed: a session without drafts never needs one, and
    /// a random UUID costs a system call.
    lazy var draftID: String = UUID().uuidString.lowercased()
    @exclusivity(unchecked) var observers: [UUID: (SessionEvent) -> Void] = [:]
    @exclusivity(unchecked) var groupState = GroupState()
    /// Stored forms given with values (`set(_:value:storedAs:)`), until the next save.
    @exclusivity(unchecked) var storedForms: [String: FieldValue] = [:]
    /// `storedForms` of a group's rows, by group and row key (an undo's: `WrittenForms.rows`).
    @exclusivity(unchecked) var rowStoredForms: [String: [RecordKey: [String: FieldValue]]] = [:]
    /// Values put back as their column held them (`restore`), until the next save.
    @exclusivity(unchecked) var heldValues: [String: FieldValue] = [:]
    /// The session's `storedDateReader`, when given one (an import's batch).
    var storedDateReader: (any StoredDateReading)?

    /// What the larger parts read as before they are made: lent from here,
    /// not made and destroyed per read, which also gave the reading
    /// coroutine a frame too large for the stack (a malloc per read, some
    /// 350 instructions a keystroke).
    static let noGroups = GroupState()
    static let noUndoSteps = UndoSteps()
}

extension FormSession {
    /// The session's extras, made now if they were not yet.
    var extras: SessionExtras {
        if let extrasIfMade { return extrasIfMade }
        let made = SessionExtras()
        extrasIfMade = made
        return made
    }

    /// Raw inputs that did not parse, by field key.
    public internal(set) var inputs: [String: String] {
        _read { if let extrasIfMade { yield extrasIfMade.inputs } else { yield [:] } }
        _modify {
            yield &extras.inputs
            draftRevision &+= 1
        }
    }

    /// Errors per field key.
    public internal(set) var fieldErrors: [String: [FieldError]] {
        _read { if let extrasIfMade { yield extrasIfMade.fieldErrors } else { yield [:] } }
        _modify { yield &extras.fieldErrors }
    }

    /// Errors of the form's cross-field rules that blame no single field.
    public internal(set) var formErrors: [FieldError] {
        _read { if let extrasIfMade { yield extrasIfMade.formErrors } else { yield [] } }
        _modify { yield &extras.formErrors }
    }

    /// Changed through its methods, and read whole nowhere hot: a keystroke
    /// asks `warningsAreKnownEmpty`.
    var warningState: SessionWarnings {
        get { extrasIfMade?.warningState ?? SessionWarnings() }
        _modify { yield &extras.warningState }
    }

    /// Whether there are no warnings, known without working any out
    /// (`SessionWarnings.isKnownEmpty`).
    var warningsAreKnownEmpty: Bool { extrasIfMade?.warningState.isKnownEmpty ?? true }

    /// Who saves, and through what: what a backend that keeps history records.
    public var attribution: ChangeAttribution {
        get { extrasIfMade?.attribution ?? .library }
        set { extras.attribution = newValue }
    }

    /// Edit steps to undo and redo (`FormSession+Undo.swift`).
    var undoSteps: UndoSteps {
        _read { if let extrasIfMade { yield extrasIfMade.undoSteps } else { yield SessionExtras.noUndoSteps } }
        _modify { yield &extras.undoSteps }
    }

    /// `undoSteps.saves`, read in place: every keystroke asks it twice, and
    /// reading `undoSteps` copied the steps into a frame allocated per read.
    var savesSoFar: Int { extrasIfMade?.undoSteps.saves ?? 0 }

    /// Commits by others heard for this record (`FormSession+External.swift`).
    var externalWatch: ExternalWatch? {
        get { extrasIfMade?.externalWatch }
        set { extras.externalWatch = newValue }
    }

    /// The fields of a restored draft changed on both sides (`DraftRestore.conflicts`)
    /// that the person has not settled yet, by `keepDraftValue(_:of:)` or
    /// `keepStoredValue(_:)`: until then the session's draft keeps the
    /// draft's value and base for each, so quitting at the question loses nothing.
    public var unsettledDraftFields: [String] {
        extrasIfMade.map { $0.unsettledDraft.keys.sorted() } ?? []
    }

    var unsettledDraft: [String: UnsettledDraftField] {
        _read { if let extrasIfMade { yield extrasIfMade.unsettledDraft } else { yield [:] } }
        _modify { yield &extras.unsettledDraft }
    }

    /// Drafts found for this record when it was opened, not yet restored or discarded.
    public internal(set) var offeredDrafts: [Draft] {
        _read { if let extrasIfMade { yield extrasIfMade.offeredDrafts } else { yield [] } }
        _modify { yield &extras.offeredDrafts }
    }

    /// The id of this session's draft (see `SessionExtras.draftID`).
    var draftID: String {
        get { extras.draftID }
        set { extras.draftID = newValue }
    }

    var observers: [UUID: (SessionEvent) -> Void] {
        _read { if let extrasIfMade { yield extrasIfMade.observers } else { yield [:] } }
        _modify { yield &extras.observers }
    }

    /// Whether there are inputs, field errors, observers: asked in place on
    /// every keystroke, where reading the dictionaries through their
    /// accessors retained the extras and copied what they lent.
    var hasInputs: Bool { extrasIfMade?.inputs.isEmpty == false }
    var hasFieldErrors: Bool { extrasIfMade?.fieldErrors.isEmpty == false }
    var hasObservers: Bool { extrasIfMade?.observers.isEmpty == false }

    /// Whether the form has repeating groups (every group of the form has
    /// an entry in `groupState.current`), asked in place: every change and
    /// every `model(as:)` asks, and reading `groupState` copied it.
    var hasGroups: Bool { extrasIfMade?.groupState.current.isEmpty == false }

    /// The rows of the repeating groups (`FormSession+Groups.swift`).
    var groupState: GroupState {
        _read { if let extrasIfMade { yield extrasIfMade.groupState } else { yield SessionExtras.noGroups } }
        _modify {
            yield &extras.groupState
            draftRevision &+= 1
        }
    }
}

/// A restored draft's field, changed since in the database too, kept in the
/// session's draft as the draft held it until the person chooses a side.
struct UnsettledDraftField: Hashable {
    var base: FieldValue
    var value: FieldValue?
    var input: String?
}
