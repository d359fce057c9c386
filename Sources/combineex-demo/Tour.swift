/// Prints the tour: numbered stops, each with a one-line explanation and the output of the
/// code that demonstrates it.
final class Tour {
  private var stop = 0

  func intro() {
    print(
      """
      CombineEx guided tour
      =====================
      Combine's model on Linux, plus the hot/cold types, properties, actions and store that
      Combine lacks. Each stop explains a feature and runs it.
      """)
  }

  /// Starts a new stop with a title and an explanation.
  func section(_ title: String, _ explanation: String) {
    stop += 1
    print("\n\(stop). \(title)")
    for line in wrapped(explanation, width: 86) {
      print("   \(line)")
    }
  }

  private func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty, current.count + word.count + 1 > width {
        lines.append(current)
        current = ""
      }
      current += current.isEmpty ? String(word) : " \(word)"
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  /// Prints one line of a stop's output.
  func show(_ line: String) {
    print("   > \(line)")
  }

  func outro() {
    print("\nThat's the tour. Guides: Docs/*.md. Tests: swift test.")
  }
}
