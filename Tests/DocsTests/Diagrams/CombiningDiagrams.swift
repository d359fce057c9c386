import CombineEx

// The diagrams of Docs/Combining.md. Each entry's code line is the code it applies, verbatim
// (GuideDiagramsTests checks that this file contains it).
extension OperatorDiagram {
  static var combiningGuide: [OperatorDiagram] {
    [
      OperatorDiagram("merge", "merge(with: other)") { run in
        let input = run.hot("input", "-a---b---|")
        let other = run.hot("other", "---1---2-|")
        return input.merge(with: other)
      },
      OperatorDiagram("flatMap", "flatMap { lookup($0) }") { run in
        let lookup = run.lookup(["a": "-1------2|", "b": "-3-4|"])
        return run.hot("input", "-a---b-------|").flatMap { lookup($0) }
      },
      OperatorDiagram("flatMap-max1", "flatMap(maxPublishers: .max(1)) { lookup($0) }") { run in
        let lookup = run.lookup(["a": "-1---2|", "b": "-3-4|", "c": "-5|"])
        let input = run.hot("input", "-a---b-----c---|")
        return input.flatMap(maxPublishers: .max(1)) { lookup($0) }
      },
      OperatorDiagram("switchToLatest", "map { lookup($0) }.switchToLatest()") { run in
        let lookup = run.lookup(["a": "-1---2|", "b": "-3-4|"])
        return run.hot("input", "-a---b-------|").map { lookup($0) }.switchToLatest()
      },
      OperatorDiagram("append", "append(other)") { run in
        let other = run.cold("other", "-8-9|")
        return run.hot("input", "-1-2-|").append(other)
      },
      OperatorDiagram("prepend", "prepend(other)") { run in
        let input = run.hot("input", "-1-2-3-4-|")
        let other = run.cold("other", "-8--|")
        return input.prepend(other)
      },
      OperatorDiagram("catch", "catch { _ in fallback }") { run in
        let fallback = run.cold("fallback", "-8-9|")
        return run.hot("input", "-1-2-#").catch { _ in fallback }
      },
      OperatorDiagram("retry", "retry(2)") { run in
        run.cold("input", "-1-#").retry(2)
      },
      OperatorDiagram("combineLatest", "combineLatest(other) { $0 + $1 }") { run in
        let input = run.hot("input", "-a---b-----|")
        let other = run.hot("other", "---1---2-|")
        return input.combineLatest(other) { $0 + $1 }
      },
      OperatorDiagram("zip", "zip(other) { $0 + $1 }") { run in
        let input = run.hot("input", "-a-b-c-----|")
        let other = run.hot("other", "---1---2-|")
        return input.zip(other) { $0 + $1 }
      },
      OperatorDiagram("drop-untilOutputFrom", "drop(untilOutputFrom: other)") { run in
        let input = run.hot("input", "-1-2-3-4-|")
        let other = run.hot("other", "----x---|")
        return input.drop(untilOutputFrom: other)
      },
      OperatorDiagram("drop-untilOutputFrom-finished", "drop(untilOutputFrom: other)") { run in
        let input = run.hot("input", "-1-2-3-4-|")
        let other = run.hot("other", "---|")
        return input.drop(untilOutputFrom: other)
      },
      OperatorDiagram("prefix-untilOutputFrom", "prefix(untilOutputFrom: other)") { run in
        let input = run.hot("input", "-1-2-3-4-|")
        let other = run.hot("other", "----x---|")
        return input.prefix(untilOutputFrom: other)
      },
      OperatorDiagram(
        "prefix-untilOutputFrom-finished", "prefix(untilOutputFrom: other)"
      ) { run in
        let input = run.hot("input", "-1-2-3-4-|")
        let other = run.hot("other", "---|")
        return input.prefix(untilOutputFrom: other)
      },
    ]
  }
}
