// SocialPickerPage.swift: `GET|POST <base>/auth/pick`: the provider's identity could belong to several accounts here
// (addresses it verified held by different accounts, or one held while other accounts are signed in in this
// browser): the person chooses one, then proves it on auth/link (password, or a provider already linked to it), and
// only then is the identity linked, to that account only (AccountCore's SocialSignIn+Picker.swift).
//
// Needs this browser's picker cookie (`frontdoor_social_pick`, 10 minutes). Form: csrf_token, `choice` (the index
// shown). Each account is named by an address the person has proven: one the provider vouched for, or the address of
// an account signed in in this browser; any other address is masked (`a•••@e•••.com`), so the page tells nobody more
// about which accounts exist than the provider already proved to them. "Link none of them" goes back to sign-in.
import AccountCore

struct SocialPickerPage: Sendable {
    // Core operations this page uses, given in Routes.table (written by scripts/dev/context-rename.sh).
    let social: SocialSignIn
    init(_ core: AccountServices) { social = core.social }

    func show(_ context: RequestContext) throws -> Response {
        let choices = try choices(context)
        guard let first = choices.first else { return expired(context) }
        let signedIn = try context.browserAccountIds()
        let catalog = context.catalog
        let name = context.providerName(first.pending.provider)
        let rows: [[String: Any]] = choices.enumerated().map { index, choice in
            ["index": String(index), "address": Self.shownAddress(choice.pending, signedIn: signedIn),
             "signed_in_here": choice.pending.accountId.map(signedIn.contains) ?? false]
        }
        return try context.layout.page("social_pick", ["heading": catalog.text("social_pick_title"), "choices": rows,
                                                       "action": context.site.paths.path("auth/pick"),
                                                       "intro": catalog.text("social_pick_text", ["provider": name])])
    }

    func submit(_ context: RequestContext) throws -> Response {
        let choices = try choices(context)
        guard let index = Int(context.form["choice"] ?? ""), choices.indices.contains(index) else { return expired(context) }
        do {
            try social.choosePending(choices[index].token, among: context.socialPickTokens,
                                     binding: context.socialBinding(create: false) ?? [])
        } catch AccountError.refused {
            return expired(context)
        }
        context.setSocialPick([])
        context.setSocialPending(choices[index].token)
        return context.redirect(to: context.site.paths.path("auth/link"))
    }

    private func choices(_ context: RequestContext) throws -> [(token: String, pending: PendingIdentity)] {
        let tokens = context.socialPickTokens
        guard !tokens.isEmpty, let binding = context.socialBinding(create: false) else { return [] }
        return try social.pickChoices(tokens: tokens, binding: binding)
    }

    private func expired(_ context: RequestContext) -> Response {
        context.setSocialPick([])
        return context.socialPendingExpired()
    }

    /// The address naming a candidate account: in full when the person has proven it (the provider vouched for it, or
    /// the account is signed in in this browser), else masked.
    static func shownAddress(_ pending: PendingIdentity, signedIn: [Int64]) -> String {
        guard let address = pending.accountAddress else { return "" }
        let proven = address == pending.email || pending.accountId.map(signedIn.contains) == true
        return proven ? address : masked(address)
    }

    /// `ann@example.com` → `a•••@e•••.com`: the first letter of the name and of the domain, and the last label.
    static func masked(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "•••" }
        let name = address[..<at], domain = address[address.index(after: at)...]
        let tail = domain.lastIndex(of: ".").map { String(domain[$0...]) } ?? ""
        return "\(name.prefix(1))•••@\(domain.prefix(1))•••\(tail)"
    }
}
