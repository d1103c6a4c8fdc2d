// AccountRecordsBridge.swift: TEMPORARY (issue 23, while features move behind the seam). `Account` and `EmailAddress`
// are no longer GRDB records (AccountStore reads and inserts them); this keeps GRDB's record methods on them only for
// the code and tests of other groups that still call them (EmailAddresses.swift; EmailAddress.fetchOne and
// Account.fetchOne in some tests). Delete this file once nothing uses it, with TransitionBridge.swift.
import GRDB

extension Account: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "account"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension EmailAddress: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "emailAddress"
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
