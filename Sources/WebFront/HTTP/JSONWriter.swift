// JSONWriter.swift: the bytes of Response.json's answers, written by hand.
//
// Why: JSONSerialization (swift-corelibs-foundation) pays for its generality on every value: it casts each one from
// Any to a dozen number types, to Array<Any?> and to Dictionary<AnyHashable, Any?> (copying the containers to do so),
// and sorts the keys through CoreFoundation and an ICU collator. Callgrind (release build) counted about 470 000
// instructions for the verifier's five-member answer, a fifth of a whole POST /account/verify, and about 780 000 for
// the JSON API's user answer of a PUT v1/users.
//
// The one rule: the bytes are exactly those JSONSerialization writes with [.sortedKeys, .withoutEscapingSlashes]. For
// anything this writer does not know (a value type no caller puts in, such as a Double, an NSNumber, an Optional or a
// Date; a key whose place in Foundation's order it cannot work out) it gives up, and `bytes` asks JSONSerialization for
// the whole object, so an answer never changes. JSONWriterTests compares the two byte for byte.
//
// What it writes, as corelibs' JSONWriter (Sources/Foundation/JSONSerialization.swift) does:
//   String   quoted; `"` and `\` escaped, U+0008 U+0009 U+000A U+000C U+000D as \b \t \n \f \r, the other controls below
//            U+0020 as \u00xx in lowercase hex; `/` as it is (.withoutEscapingSlashes); everything else, DEL and
//            U+2028 included, as its UTF-8 bytes
//   Int, Int64   decimal; Bool   true / false; NSNull   null
//   dictionaries ([String: Any], [String: String], [String: [String]]) and arrays ([Any], [String], [[String: Any]],
//   [[String: String]]), the containers the callers build
// Values are told apart by their exact type, not by `as?` casts: on Linux an NSNumber casts to Int and to Bool alike
// (NSNumber(1) as? Bool is true) and an Int answers `is NSNumber`, so a cast could write what Foundation would not.
import Foundation

/// Writes a JSON object as JSONSerialization would, for the types the answers use; nil for anything else.
struct JSONWriter {
    private var out: [UInt8] = []

    /// `object` as JSONSerialization writes it with keys sorted and slashes unescaped: by hand when every value and key
    /// is one this writer knows, else by JSONSerialization itself (and `{}` should that fail, as before).
    static func bytes(_ object: [String: Any]) -> [UInt8] {
        if let written = handWritten(object) { return written }
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { [UInt8]($0) } ?? Array("{}".utf8)
    }

    /// `object` written by hand; nil when it holds a value or a key this writer does not know.
    static func handWritten(_ object: [String: Any]) -> [UInt8]? {
        var writer = JSONWriter()
        writer.out.reserveCapacity(256)
        guard writer.object(object, { $0.value($1) }) else { return nil }
        return writer.out
    }

    // MARK: Values

    /// Any value the answers hold, by its exact type; false for a type not listed.
    private mutating func value(_ value: Any) -> Bool {
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(String.self): string(value as! String)
        case ObjectIdentifier(Int.self): integer(Int64(value as! Int))
        case ObjectIdentifier(Int64.self): integer(value as! Int64)
        case ObjectIdentifier(Bool.self): out.append(contentsOf: (value as! Bool) ? "true".utf8 : "false".utf8)
        case ObjectIdentifier(NSNull.self): out.append(contentsOf: "null".utf8)
        case ObjectIdentifier([String: Any].self): return object(value as! [String: Any]) { $0.value($1) }
        case ObjectIdentifier([String: String].self): return object(value as! [String: String]) { $0.string($1); return true }
        case ObjectIdentifier([String: [String]].self): return object(value as! [String: [String]]) { $0.strings($1) }
        case ObjectIdentifier([Any].self): return array(value as! [Any]) { $0.value($1) }
        case ObjectIdentifier([String].self): return strings(value as! [String])
        case ObjectIdentifier([[String: Any]].self):
            return array(value as! [[String: Any]]) { writer, item in writer.object(item) { $0.value($1) } }
        case ObjectIdentifier([[String: String]].self):
            return array(value as! [[String: String]]) { writer, item in writer.object(item) { $0.string($1); return true } }
        default: return false
        }
        return true
    }

    /// `{"key":value,…}`, keys in Foundation's order; false when a key or a value is unknown.
    private mutating func object<Value>(_ dictionary: [String: Value], _ member: (inout JSONWriter, Value) -> Bool) -> Bool {
        var members: [(key: [UInt8], value: Value)] = []
        members.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            let bytes = Array(key.utf8)
            guard JSONKeyOrder.knows(bytes) else { return false }
            members.append((bytes, value))
        }
        members.sort { JSONKeyOrder.precedes($0.key, $1.key) }
        out.append(UInt8(ascii: "{"))
        for (index, item) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // Known keys are letters, digits and underscores: nothing to escape.
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: item.key)
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
            guard member(&self, item.value) else { return false }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// `[item,…]`; false when an item is unknown.
    private mutating func array<Element>(_ items: [Element], _ element: (inout JSONWriter, Element) -> Bool) -> Bool {
        out.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard element(&self, item) else { return false }
        }
        out.append(UInt8(ascii: "]"))
        return true
    }

    private mutating func strings(_ items: [String]) -> Bool {
        array(items) { $0.string($1); return true }
    }

    /// Decimal digits, a minus sign first when negative (Int64.min's magnitude fits in UInt64).
    private mutating func integer(_ number: Int64) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var rest = number.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        out[start...].reverse()
    }

    // MARK: Strings

    /// `text` quoted and escaped as corelibs escapes it, byte by byte: a byte below 0x80 is a whole scalar in UTF-8,
    /// and corelibs' per-scalar rules only ever escape such scalars, so the other bytes are copied as they come.
    private mutating func string(_ text: String) {
        var text = text
        out.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var copied = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied..<index]))
                escape(byte)
                copied = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[copied...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape corelibs writes for a quote, a backslash or a control character.
    private mutating func escape(_ byte: UInt8) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x20...: out.append(byte)  // `"` and `\` themselves
        default:  // \u00 and two hex digits in lowercase, as corelibs writes them with String(_:radix: 16)
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex(byte >> 4), Self.hex(byte & 0x0F)])
        }
    }

    /// A lowercase hex digit, as corelibs' String(_:radix: 16) writes it.
    private static func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10 }
}

/// The order JSONSerialization gives keys with .sortedKeys, for keys of ASCII letters, digits and underscores.
///
/// It is not byte order. Corelibs sorts with String.compare(options: [.numeric, .caseInsensitive, .forcedOrdering],
/// locale: NSLocale.system): CFStringCompareWithOptionsAndLocale walks both keys, compares runs of digits as numbers,
/// and at the first other difference hands the rest to ICU's root collation (numeric, case-insensitive first; forced
/// ordering breaks ties). Worked out from that code, and checked against it (JSONWriterTests, every pair of keys up to
/// three characters of `aAb01_`, and thousands of random ones), that is, for these keys:
///   1. Compare piece by piece, a piece being `_`, a run of digits or a letter: `_` before numbers before letters;
///      numbers by value ("a9" before "a10"); letters alphabetically whatever their case ("B" after "a").
///   2. A key that runs out first, all else equal, comes first.
///   3. Keys equal so far differ only in case or in leading zeros: the first such difference decides, a lowercase
///      letter before an uppercase one ("a" before "A"), a shorter run of digits before a longer ("a1" before "a01").
/// Any other key (punctuation, spaces, non-ASCII, where ICU's tables decide) is left to JSONSerialization, and so is a
/// run of more than 18 digits, which CoreFoundation's 64-bit arithmetic reads wrapped around.
enum JSONKeyOrder {
    static let longestNumber = 18

    /// Whether `key` is one whose order this type knows.
    static func knows(_ key: [UInt8]) -> Bool {
        var digits = 0
        for byte in key {
            if isDigit(byte) {
                digits += 1
                if digits > longestNumber { return false }
                continue
            }
            digits = 0
            let folded = byte | 0x20  // a letter of either case as lowercase; no other byte lands on a to z
            guard byte == UInt8(ascii: "_") || (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")) else { return false }
        }
        return true
    }

    /// Whether `a` sorts before `b`; both known keys.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var i = 0, j = 0
        var tie = 0  // rule 3: negative when a's first case or leading-zero difference puts it first
        while i < a.count && j < b.count {
            let x = a[i], y = b[j]
            if isDigit(x) && isDigit(y) {
                let (first, iEnd) = number(a, from: i), (second, jEnd) = number(b, from: j)
                if first != second { return first < second }
                if tie == 0 && iEnd - i != jEnd - j { tie = iEnd - i < jEnd - j ? -1 : 1 }
                (i, j) = (iEnd, jEnd)
                continue
            }
            let (weightX, weightY) = (weight(x), weight(y))
            if weightX != weightY { return weightX < weightY }
            if tie == 0 && x != y { tie = x >= UInt8(ascii: "a") ? -1 : 1 }
            i += 1
            j += 1
        }
        if i < a.count || j < b.count { return j < b.count }
        return tie < 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Rule 1's rank of a piece that is not a number on both sides: `_`, then any digit, then the letters, case folded.
    private static func weight(_ byte: UInt8) -> Int {
        byte == UInt8(ascii: "_") ? 0 : isDigit(byte) ? 1 : Int(byte | 0x20)
    }

    /// The value of the run of digits at `start`, and where it ends.
    private static func number(_ key: [UInt8], from start: Int) -> (UInt64, Int) {
        var value: UInt64 = 0, end = start
        while end < key.count && isDigit(key[end]) {
            value = value * 10 + UInt64(key[end] - UInt8(ascii: "0"))
            end += 1
        }
        return (value, end)
    }
}
