import CombineExStore

/// A line-by-line difference between two values, drawn from their `dump` output: common lines
/// start with two spaces, lines only in `expected` with `− `, lines only in `actual` with `+ `.
///
/// ```text
///   ▿ Counter
/// −   - count: 2
/// +   - count: 1
///     - isLoading: false
/// ```
func stateDiff<Value>(expected: Value, actual: Value) -> String {
  let old = dumpLines(expected)
  let new = dumpLines(actual)
  // A longest-common-subsequence table over the lines; states are small, and very large ones
  // are shown in full instead.
  guard old.count * new.count <= 1_000_000 else {
    return (old.map { "− " + $0 } + new.map { "+ " + $0 }).joined(separator: "\n")
  }
  var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
  for i in stride(from: old.count - 1, through: 0, by: -1) {
    for j in stride(from: new.count - 1, through: 0, by: -1) {
      table[i][j] =
        old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
    }
  }
  var lines: [String] = []
  var i = 0
  var j = 0
  while i < old.count || j < new.count {
    if i < old.count, j < new.count, old[i] == new[j] {
      lines.append("  " + old[i])
      i += 1
      j += 1
    } else if j == new.count || (i < old.count && table[i + 1][j] >= table[i][j + 1]) {
      lines.append("− " + old[i])
      i += 1
    } else {
      lines.append("+ " + new[j])
      j += 1
    }
  }
  return lines.joined(separator: "\n")
}

/// The lines `dump` prints for `value`, without the module names it writes before types.
private func dumpLines<Value>(_ value: Value) -> [String] {
  var text = ""
  dump(value, to: &text)
  return withoutModuleNames(text, learntFrom: value)
    .split(separator: "\n", omittingEmptySubsequences: false)
    .map(String.init)
    .filter { !$0.isEmpty }
}
