// Profile.swift: the display name and the operator's declared profile fields (config `profile.fields`).
//
// Options:
//   fields   the declared fields (ProfileField: rules, display name, input type, `unique`, `onSignUp`), in form order
// Values are trimmed, validated with `AccountForms.profile(fields)` (display name: at most 100 characters, one line)
// and stored as one `profileValue` row per filled field; an emptied field loses its row. A field declared unique also
// stores its lower-cased value in `uniqueValue`, where a unique index refuses a second account with the same value even
// when two requests race; that, and the check before writing, reads as the field error `taken`.
// Sign-up stores the `onSignUp` fields through `store(_:accountId:signUp:in:)`, in the account's own transaction.
//   languages   the languages an account may prefer (`language` in the form: one of them, or empty to follow the browser)
import AccountRules
import Foundation
import Logging

/// What an account's profile holds.
public struct ProfileValues: Sendable, Equatable {
    /// `account.displayName` (empty when never set).
    public var displayName: String
    /// The declared fields' values by field name; a field without a value is absent.
    public var fields: [String: String]
    /// `account.language`: the preferred language; nil follows the browser.
    public var language: String?

    public init(displayName: String = "", fields: [String: String] = [:], language: String? = nil) {
        self.displayName = displayName
        self.fields = fields
        self.language = language
    }

    /// The values as a form fills them in: `display_name`, `language` (empty: the browser's) and each field by name.
    public var form: [String: String] {
        fields.merging(["display_name": displayName, "language": language ?? ""]) { _, new in new }
    }
}

/// Reading and changing an account's profile.
public struct Profile: Sendable {
    let database: AppDatabase
    /// The declared fields, in the order the forms show them.
    public let fields: [ProfileField]
    /// The languages an account may prefer; empty: any well-formed code.
    let languages: [String]
    let audit: AuditLog
    let clock: any Clock
    let logger: Logger
    /// Where a username sent with the profile goes (settings and the JSON API change both in one transaction).
    var usernames: Usernames?

    /// The declared fields the sign-up form asks for.
    public var signUpFields: [ProfileField] { fields.filter(\.onSignUp) }

    /// The account's display name and declared values (values of fields no longer declared are left out).
    ///
    /// - Throws: `AccountError.notFound` when the account does not exist.
    public func values(of accountId: Int64) throws -> ProfileValues {
        try database.read { tx in
            guard let account = try tx.profileHeader(of: accountId) else { throw AccountError.notFound }
            let declared = Set(fields.map(\.name))
            let values = try tx.profileValues(of: accountId).filter { declared.contains($0.key) }
            return ProfileValues(displayName: account.displayName, fields: values, language: account.language)
        }
    }

    /// Sets the display name (`display_name`) and every declared field from `form`; an empty value clears the field.
    /// With `username`, changes the username too (Usernames), in the same transaction.
    ///
    /// - Throws: `AccountError.invalid` with every problem at once (the rules, and `taken` for a unique value or a
    ///   username another account holds), nothing written; `AccountError.refused("username_fixed")` for a username
    ///   while `identity.username` is off; `AccountError.notFound` when the account does not exist.
    public func update(accountId: Int64, form: [String: String], username: String? = nil, client: ClientInfo) throws {
        let values = normalized(form, signUp: false)
        var errors = AccountForms.profile(fields).validate(values)
        var chosen: String?
        if let username, let usernames {
            do { chosen = try usernames.checked(username) } catch AccountError.invalid(let problems) { errors.append(problems) }
        }
        let language = values["language"].flatMap { $0.isEmpty ? nil : $0 }
        if let language, !isOffered(language) { errors.add(FieldError(key: "inclusion"), to: "language", displayName: "Language") }
        errors.append(try takenErrors(values, signUp: false, accountId: accountId, skipping: errors))
        guard errors.isEmpty else { throw AccountError.invalid(errors) }

        let renamed = try database.write { tx -> Bool in
            guard let before = try tx.profileHeader(of: accountId) else { throw AccountError.notFound }
            let renamed = try chosen.map { try usernames?.set($0, of: accountId, client: client, in: tx) ?? false } ?? false
            let displayName = values["display_name"] ?? ""
            // A form without the language choice (the JSON API's) leaves the preference as it is.
            let newLanguage: String? = values["language"] == nil ? before.language : language
            var changed = try changedFields(values, accountId: accountId, in: tx)
            if before.language != newLanguage { changed.insert("language", at: 0) }
            if before.displayName != displayName { changed.insert("display_name", at: 0) }
            try tx.updateProfileHeader(of: accountId, displayName: displayName, language: newLanguage,
                                       updatedAt: clock.now().timeIntervalSince1970)
            try store(values, accountId: accountId, signUp: false, in: tx)
            try audit.record(.profileUpdated, accountId: accountId, email: try primaryAddress(accountId, in: tx), client: client,
                             detail: changed.joined(separator: ", "), in: tx)
            return renamed
        }
        if renamed { logger.info("username changed", metadata: ["account": "\(accountId)"]) }
        logger.info("profile updated", metadata: ["account": "\(accountId)"])
    }

    /// The account's preferred language, nil when it follows the browser or the account is gone.
    public func language(of accountId: Int64) throws -> String? {
        try database.read { tx in try tx.profileLanguage(of: accountId) }
    }

    /// Makes `language` the account's preference (the language switcher of a signed-in person); a language not offered
    /// is ignored. Not audited: it changes only wording.
    public func setLanguage(_ language: String, of accountId: Int64) throws {
        guard isOffered(language) else { return }
        try database.write { tx in try tx.setProfileLanguage(language, of: accountId) }
    }

    /// Whether an account may prefer `language`: one of `languages`, or (none configured) a well-formed code.
    func isOffered(_ language: String) -> Bool {
        languages.isEmpty ? MessageCatalog.isLanguageCode(language) : languages.contains(language)
    }

    /// `form` with the display name and the declared fields (only the sign-up ones when `signUp`) trimmed of white space.
    func normalized(_ form: [String: String], signUp: Bool) -> [String: String] {
        var values = form
        let names = (signUp ? signUpFields : fields).map(\.name) + (signUp ? [] : ["display_name"])
        for name in names { values[name] = (form[name] ?? "").trimmingWhitespace() }
        return values
    }

    /// `taken` for each unique field whose (non-empty) value another account holds, compared without case; fields that
    /// already have an error in `skipping` are not looked at.
    func takenErrors(_ values: [String: String], signUp: Bool, accountId: Int64?, skipping: ValidationErrors) throws -> ValidationErrors {
        let failed = Set(skipping.fieldNames)
        let candidates = (signUp ? signUpFields : fields).filter { $0.unique && !failed.contains($0.name) && !(values[$0.name] ?? "").isEmpty }
        guard !candidates.isEmpty else { return ValidationErrors() }
        var errors = ValidationErrors()
        try database.read { tx in
            for field in candidates {
                let taken = try tx.isProfileValueTaken(field: field.name, uniqueValue: Self.uniqueValue(values[field.name] ?? ""),
                                                       byOtherThan: accountId)
                if taken { errors.add(FieldError(key: "taken"), to: field.name, displayName: field.field.displayName) }
            }
        }
        return errors
    }

    /// Writes the declared fields' values (only the sign-up ones when `signUp`) for `accountId` in the caller's
    /// transaction: a filled field is inserted or replaced, an empty one deleted. The values must be validated.
    ///
    /// - Throws: `AccountError.invalid` with `taken` on every unique field whose value another account got in the
    ///   meantime (the unique index refused it); the caller's transaction then rolls back, so nothing is written.
    ///   Each insert runs in a savepoint, so the transaction goes on to check the other fields (PostgreSQL would abort
    ///   it at the first error otherwise).
    func store(_ values: [String: String], accountId: Int64, signUp: Bool, in tx: Transaction) throws {
        var errors = ValidationErrors()
        for field in signUp ? signUpFields : fields {
            let value = values[field.name] ?? ""
            if value.isEmpty {
                try tx.deleteProfileValue(accountId: accountId, field: field.name)
                continue
            }
            do {
                try tx.savepoint {
                    try tx.storeProfileValue(accountId: accountId, field: field.name, value: value,
                                             uniqueValue: field.unique ? Self.uniqueValue(value) : nil)
                }
            } catch StorageError.uniqueViolation {
                errors.add(FieldError(key: "taken"), to: field.name, displayName: field.field.displayName)
            }
        }
        guard errors.isEmpty else { throw AccountError.invalid(errors) }
    }

    /// The declared fields whose stored value differs from `values`.
    private func changedFields(_ values: [String: String], accountId: Int64, in tx: Transaction) throws -> [String] {
        let stored = try tx.profileValues(of: accountId)
        return fields.map(\.name).filter { (stored[$0] ?? "") != (values[$0] ?? "") }
    }

    private func primaryAddress(_ accountId: Int64, in tx: Transaction) throws -> String? {
        try EmailAddress.primaryAddress(of: accountId, in: tx)
    }

    /// What the unique index compares: the value without case.
    static func uniqueValue(_ value: String) -> String { value.lowercased() }
}

extension ValidationErrors {
    /// Adds `other`'s entries after these.
    mutating func append(_ other: ValidationErrors) {
        for entry in other.entries { add(entry.error, to: entry.field, displayName: entry.displayName) }
    }
}
