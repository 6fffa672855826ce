import FormBasics
public import FoundationEssentials

/// A Swift type that converts to and from a `DatabaseValue`, so that it can be
/// bound to a statement and read from a column.
///
/// ```swift
/// try conn.execute("INSERT INTO event(id, at) VALUES (?, ?)", [UUID(), Date()])
/// let count = try conn.fetchValue(Int.self, "SELECT count(*) FROM event")
/// ```
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }
    /// The Swift value read from storage, or `nil` when it does not convert.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }

    /// An integer, or a real with no fractional part that fits.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let i): return i
        case .real(let d): return Int64(exactly: d)
        default: return nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        default: return nil
        }
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let s) = value { return s }
        return nil
    }
}

extension Bool: DatabaseValueConvertible {
    /// Stored as 0 or 1, as SQLite's own `TRUE` and `FALSE` are.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(let i): return i != 0
        case .real(let d): return d != 0
        default: return nil
        }
    }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }

    /// A blob, or the UTF-8 bytes of a text.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        switch value {
        case .blob(let d): return d
        case .text(let s): return Data(s.utf8)
        default: return nil
        }
    }
}

extension Date: DatabaseValueConvertible {
    /// ISO-8601 text in UTC with milliseconds: `2024-05-01T13:04:05.250Z`.
    public var databaseValue: DatabaseValue { .text(ISO8601.dateTime(self)) }

    /// ISO-8601 text (also SQLite's `yyyy-MM-dd HH:mm:ss` and a bare date), or a
    /// number of seconds since 1970.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        switch value {
        case .text(let s): return ISO8601.parseDateTime(s) ?? ISO8601.parseDate(s)
        case .integer(let i): return Date(timeIntervalSince1970: TimeInterval(i))
        case .real(let d): return Date(timeIntervalSince1970: d)
        default: return nil
        }
    }
}

extension UUID: DatabaseValueConvertible {
    /// Stored as its upper-case text, readable in any SQLite shell.
    public var databaseValue: DatabaseValue { .text(uuidString) }

    /// Text, or a 16-byte blob.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
        switch value {
        case .text(let s): return UUID(uuidString: s)
        case .blob(let d) where d.count == 16:
            let b = [UInt8](d)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                               b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        default: return nil
        }
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }

    /// `.some(nil)` for NULL; `nil` when a non-NULL value does not convert.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}
