import CombineEx

extension OperatorDiagram {
  /// The diagrams of each guide, by the guide's name (`Docs/<name>.md`).
  static var catalog: [String: [OperatorDiagram]] {
    [
      "Operators": operatorsGuide, "Combining": combiningGuide,
      "ErrorHandling": errorHandlingGuide, "Schedulers": schedulersGuide,
    ]
  }

  /// The error a diagram's `#` sends (the diagrams' code may name it).
  typealias Oops = MarbleRun.Failure
}
