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
        return unit == 0 ? "\(value) B" : String(format: amount < 10 ? "%.1f %@" : "%.0f %@", amount, units[unit])
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
        value < 1 ? milliseconds(value) : String(format: "%.1f s", value)
    }

    package static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return ms < 10 ? String(format: "%.2f ms", ms) : String(format: "%.0f ms", ms)
    }
}
