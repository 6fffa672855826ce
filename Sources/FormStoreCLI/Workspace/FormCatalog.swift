import FormBasics
import FoundationEssentials
import FormCore
import FormStorage
import FormStoragePostgres

/// The form specs of a folder: every `*.json` file in it, each read with
/// `FormSpec.decode`, in file-name order.
///
/// A file that cannot be used breaks only its own form: it is kept as
/// `broken`, its error given when that form is asked for and a one-line
/// warning otherwise. An empty file is skipped: `formstore form T --format
/// json > forms/T.json` runs after the shell has created it.
struct FormCatalog {
    struct Entry {
        var form: Form
        /// The file as the person named it (`forms/login.json`), for messages.
        var file: String
        /// Where `forms` says the spec came from: the file, or "kept in the database".
        var origin: String

        init(form: Form, file: String, origin: String? = nil) {
            self.form = form
            self.file = file
            self.origin = origin ?? file
        }
    }

    /// A spec file that cannot be used, and the forms it would define.
    struct Broken {
        var file: String
        /// The file's name without `.json`, and the spec's `name` when the JSON says it.
        var formNames: Set<String>
        var error: CLIError

        /// One line for stderr, when another form is used.
        var warning: String { "formstore: warning: \(error.message) (the file is skipped)" }
    }

    let entries: [Entry]
    let broken: [Broken]

    static let empty = FormCatalog(entries: [])

    init(entries: [Entry], broken: [Broken] = []) {
        self.entries = entries
        self.broken = broken
    }

    /// Reads every spec in `directory`.
    ///
    /// - throws: `CLIError.notFound` when the folder does not exist,
    ///   `CLIError.storage` when it cannot be listed. Problems with a file
    ///   (unreadable, malformed, a form defined twice) are kept in `broken`.
    init(directory: String) throws {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
            throw CLIError.notFound("no forms folder at \(directory)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw CLIError.storage("cannot read the forms folder \(directory): \(ErrorText.describe(error))")
        }
        var entries: [Entry] = []
        var broken: [Broken] = []
        var files: [String: String] = [:]
        for name in names {
            let file = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var formNames: Set<String> = [String(name.dropLast(".json".count))]
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                broken.append(Broken(file: file, formNames: formNames,
                                     error: .storage("cannot read \(file): \(ErrorText.describe(error))")))
                continue
            }
            if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { continue }
            let form: Form
            do {
                form = try FormSpec.decode(data)
            } catch {
                if let declared = Self.declaredName(data) { formNames.insert(declared) }
                broken.append(Broken(file: file, formNames: formNames,
                                     error: .validation("\(file): \(error.path): \(error.message)")))
                continue
            }
            if let other = files[form.name] {
                broken.append(Broken(file: file, formNames: [form.name],
                                     error: .validation("\(file): $.name: form '\(form.name)' is already defined by \(other)")))
                continue
            }
            files[form.name] = file
            entries.append(Entry(form: form, file: file))
        }
        self.entries = entries
        self.broken = broken
    }

    /// The `name` of a spec that does not decode, when its JSON says it.
    private static func declaredName(_ data: Data) -> String? {
        struct Named: Decodable { var name: String? }
        return (try? JSONDecoder().decode(Named.self, from: data))?.name
    }

    /// The specs kept in the database (`formstore_forms`), as the demo stores
    /// them; a malformed one is kept in `broken`, naming the stored spec and the JSON path.
    init(storedIn store: FormStore) throws {
        try self.init(stored: try store.storedSpecs(),
                      origin: store.sidecar == nil ? "kept in the database" : "kept in the sidecar \(store.sidecar!.path)")
    }

    /// The specs PostgreSQL keeps in `formstore_forms`.
    init(storedIn store: PostgresFormStore) throws {
        try self.init(stored: try store.storedSpecs(), origin: "kept in the database")
    }

    private init(stored specs: [(name: String, spec: Data)], origin: String) throws {
        var entries: [Entry] = []
        var broken: [Broken] = []
        for stored in specs {
            let label = "formstore_forms '\(stored.name)'"
            do {
                entries.append(Entry(form: try FormSpec.decode(stored.spec), file: label, origin: origin))
            } catch {
                broken.append(Broken(file: label, formNames: [stored.name],
                                     error: .validation("\(label): \(error.path): \(error.message)")))
            }
        }
        self.entries = entries
        self.broken = broken
    }

    /// Entries of `self` and those of `other` whose names `self` lacks: a folder's spec wins.
    func adding(_ other: FormCatalog) -> FormCatalog {
        let names = Set(self.names)
        return FormCatalog(entries: entries + other.entries.filter { !names.contains($0.form.name) },
                           broken: broken + other.broken)
    }

    /// The spec named `name`, `nil` when there is none.
    ///
    /// - throws: the file's error when a broken file would define `name`.
    func form(named name: String) throws -> Form? {
        if let problem = broken.first(where: { $0.formNames.contains(name) }) { throw problem.error }
        return entries.first { $0.form.name == name }?.form
    }

    var names: [String] { entries.map(\.form.name) }
}
