public import FormBasics

/// FormStore's ISO-8601 text, named as FormCore's: it lives in FormBasics so
/// the SQLite layer can write dates without importing FormCore, and this name
/// shadows it for every file that imports FormCore.
public typealias ISO8601 = FormBasics.ISO8601
