import Foundation
import FormCore
import FormStorage

/// The form specs of a folder: every `*.json` file in it, each read with
/// `FormSpec.decode`, in file-name order.
struct FormCatalog {
    struct Entry {
        var form: Form
        /// The file as the person named it (`forms/login.json`), for messages.
        var file: String
    }

    let entries: [Entry]

    static let empty = FormCatalog(entries: [])

    init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads every spec in `directory`.
    ///
    /// - throws: `CLIError.notFound` when the folder does not exist;
    ///   `CLIError.validation` naming the file and the JSON path of a malformed
    ///   spec, or two files defining the same form; `CLIError.storage` for a
    ///   file that cannot be read.
    init(directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.notFound("no forms folder at \(directory)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw CLIError.storage("cannot read the forms folder \(directory): \(error.localizedDescription)")
        }
        var entries: [Entry] = []
        var files: [String: String] = [:]
        for name in names {
            let file = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIError.storage("cannot read \(file): \(error.localizedDescription)")
            }
            let form: Form
            do {
                form = try FormSpec.decode(data)
            } catch {
                throw CLIError.validation("\(file): \(error.path): \(error.message)")
            }
            if let other = files[form.name] {
                throw CLIError.validation("\(file): $.name: form '\(form.name)' is already defined by \(other)")
            }
            files[form.name] = file
            entries.append(Entry(form: form, file: file))
        }
        self.entries = entries
    }

    /// The specs kept in the database (`formstore_forms`), as the demo stores them.
    ///
    /// - throws: `CLIError.validation` naming the stored spec and the JSON path when one is malformed.
    init(storedIn store: FormStore) throws {
        entries = try store.storedSpecs().map { stored in
            let label = "formstore_forms '\(stored.name)'"
            do {
                return Entry(form: try FormSpec.decode(stored.spec), file: label)
            } catch let error as SpecError {
                throw CLIError.validation("\(label): \(error.path): \(error.message)")
            }
        }
    }

    /// Entries of `self` and those of `other` whose names `self` lacks: a folder's spec wins.
    func adding(_ other: FormCatalog) -> FormCatalog {
        let names = Set(self.names)
        return FormCatalog(entries: entries + other.entries.filter { !names.contains($0.form.name) })
    }

    func form(named name: String) -> Form? {
        entries.first { $0.form.name == name }?.form
    }

    var names: [String] { entries.map(\.form.name) }
}
