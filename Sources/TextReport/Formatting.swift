import Foundation

/// Numbers and days as people read them.
package enum Formatting {
    /// 1234567 → "1,234,567".
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// "1 entry", "1,234 entries".
    package static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(grouped(value)) \(value == 1 ? singular : plural)"
    }

    package static func bytes(_ value: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(value) B" : decimal(amount, places: amount < 10 ? 1 : 0) + " " + units[unit]
    }

    /// "25 November".
    package static func dayOfYear(month: Int, day: Int) -> String {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(day) \(months.indices.contains(month - 1) ? months[month - 1] : "month \(month)")"
    }

    package static func seconds(_ value: Double) -> String {
        value < 1 ? milliseconds(value) : decimal(value, places: 1) + " s"
    }

    package static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return decimal(ms, places: ms < 10 ? 2 : 0) + " ms"
    }

    /// `value` with `places` digits after the point (0 to 9), rounded to the nearest, ties to
    /// even: what `%.*f` prints (but `-0.00` is `0.00`), without formatting through Foundation,
    /// which a command that prints one line would otherwise load for it.
    package static func decimal(_ value: Double, places: Int) -> String {
        let places = min(max(places, 0), 9)
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value.magnitude * Double(scale)).rounded(.toNearestOrEven)
        guard value.isFinite, scaled < 9e18 else { return "\(value)" }
        let units = Int64(scaled)
        var text = (value < 0 && units != 0 ? "-" : "") + String(units / scale)
        if places > 0 {
            let fraction = String(units % scale)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    /// `text` cut or padded with spaces to `length` characters, the way a column of a table
    /// is filled.
    package static func padded(_ text: String, to length: Int) -> String {
        let count = text.count
        return count >= length ? String(text.prefix(length)) : text + String(repeating: " ", count: length - count)
    }
}
