import CombineEx
import Foundation

// The diagrams of Docs/ErrorHandling.md. Each entry's code line is the code it applies,
// verbatim (GuideDiagramsTests checks that this file contains it).
extension OperatorDiagram {
  static var errorHandlingGuide: [OperatorDiagram] {
    [
      OperatorDiagram("tryMap", "tryMap { try number($0) }") { run in
        run.hot("input", "-1-2-x-3-|").tryMap { try number($0) }
      },
      OperatorDiagram("mapError", "mapError { _ in URLError(.timedOut) }") { run in
        run.hot("input", "-1-2-#").mapError { _ in URLError(.timedOut) }
      },
      OperatorDiagram("replaceError", #"replaceError(with: "0")"#) { run in
        run.hot("input", "-1-2-#").replaceError(with: "0")
      },
      OperatorDiagram(
        "attemptMap", "attemptMap { Int($0).map { .success($0) } ?? .failure(Oops()) }"
      ) { run in
        let input = run.hot("input", "-1-2-x-3-|")
        return input.attemptMap { Int($0).map { .success($0) } ?? .failure(Oops()) }
      },
      OperatorDiagram("demoteFailure", "demoteFailure()") { run in
        run.hot("input", "-1-2-#").demoteFailure()
      },
    ]
  }

  /// The number a text spells, or `Oops()` thrown.
  static func number(_ text: String) throws -> Int {
    guard let number = Int(text) else { throw Oops() }
    return number
  }
}
