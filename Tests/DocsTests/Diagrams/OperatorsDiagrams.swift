import CombineEx

// The diagrams of Docs/Operators.md. Each entry's code line is the code it applies, verbatim
// (GuideDiagramsTests checks that this file contains it).
extension OperatorDiagram {
  static var operatorsGuide: [OperatorDiagram] {
    [
      // "Reading the diagrams".
      OperatorDiagram("notation", "filter { $0.isMultiple(of: 2) }") { run in
        run.hotInts("input", "-1-2-3-4-5-|").filter { $0.isMultiple(of: 2) }
      },
      OperatorDiagram("notation-inner", "flatMap { lookup($0) }") { run in
        let lookup = run.lookup(["a": "-1------2|", "b": "-3-4|"])
        return run.hot("input", "-a---b-------|").flatMap { lookup($0) }
      },
      // "Transforming and filtering operators".
      OperatorDiagram("map", "map { $0 * 2 }") { run in
        run.hotInts("input", "-1-2-3-|").map { $0 * 2 }
      },
      OperatorDiagram("filter", "filter { $0.isMultiple(of: 2) }") { run in
        run.hotInts("input", "-1-2-3-4-5-|").filter { $0.isMultiple(of: 2) }
      },
      OperatorDiagram("compactMap", "compactMap { Int($0) }") { run in
        run.hot("input", "-1-x-3-|").compactMap { Int($0) }
      },
      OperatorDiagram("removeDuplicates", "removeDuplicates()") { run in
        run.hotInts("input", "-1-1-2-2-1-|").removeDuplicates()
      },
      OperatorDiagram("scan", "scan(0, +)") { run in
        run.hotInts("input", "-1-2-3-|").scan(0, +)
      },
      OperatorDiagram("reduce", "reduce(0, +)") { run in
        run.hotInts("input", "-1-2-3-|").reduce(0, +)
      },
      OperatorDiagram("collect", "collect()") { run in
        run.hotInts("input", "-1-2-3-|").collect()
      },
      OperatorDiagram("collect-count", "collect(2)") { run in
        run.hotInts("input", "-1-2-3-4-5-|").collect(2)
      },
      OperatorDiagram("count", "count()") { run in
        run.hotInts("input", "-1-2-3-|").count()
      },
      OperatorDiagram("max", "max()") { run in
        run.hotInts("input", "-3-1-2-|").max()
      },
      OperatorDiagram("contains", "contains(2)") { run in
        run.hotInts("input", "-1-2-3-|").contains(2)
      },
      OperatorDiagram("allSatisfy", "allSatisfy { $0 < 3 }") { run in
        run.hotInts("input", "-1-2-3-4-|").allSatisfy { $0 < 3 }
      },
      OperatorDiagram("first", "first()") { run in
        run.hotInts("input", "-1-2-3-|").first()
      },
      OperatorDiagram("first-where", "first { $0 > 1 }") { run in
        run.hotInts("input", "-1-2-3-|").first { $0 > 1 }
      },
      OperatorDiagram("last", "last()") { run in
        run.hotInts("input", "-1-2-3-|").last()
      },
      OperatorDiagram("output-at", "output(at: 1)") { run in
        run.hotInts("input", "-1-2-3-4-|").output(at: 1)
      },
      OperatorDiagram("output-in", "output(in: 1...2)") { run in
        run.hotInts("input", "-1-2-3-4-|").output(in: 1...2)
      },
      OperatorDiagram("prefix", "prefix(2)") { run in
        run.hotInts("input", "-1-2-3-4-|").prefix(2)
      },
      OperatorDiagram("dropFirst", "dropFirst(2)") { run in
        run.hotInts("input", "-1-2-3-4-|").dropFirst(2)
      },
      OperatorDiagram("drop-while", "drop { $0 < 3 }") { run in
        run.hotInts("input", "-1-2-3-1-|").drop { $0 < 3 }
      },
      OperatorDiagram("prefix-while", "prefix { $0 < 3 }") { run in
        run.hotInts("input", "-1-2-3-1-|").prefix { $0 < 3 }
      },
      OperatorDiagram("ignoreOutput", "ignoreOutput()") { run in
        run.hotInts("input", "-1-2-3-|").ignoreOutput()
      },
      OperatorDiagram("replaceEmpty", "replaceEmpty(with: 0)") { run in
        run.hotInts("input", "-----|").replaceEmpty(with: 0)
      },
      // The original CombineEx's operators.
      OperatorDiagram("combinePrevious", #"combinePrevious(0).map { "\($0)\($1)" }"#) { run in
        run.hotInts("input", "-1-2-3-|").combinePrevious(0).map { "\($0)\($1)" }
      },
      OperatorDiagram("flatMapLatest", "flatMapLatest { lookup($0) }") { run in
        let lookup = run.lookup(["a": "-1-2-3|", "b": "-4-5|"])
        return run.hot("input", "-a---b-------|").flatMapLatest { lookup($0) }
      },
      OperatorDiagram("prependDynamic", #"prependDynamic { "0" }"#) { run in
        run.hot("input", "-1-2-|").prependDynamic { "0" }
      },
      OperatorDiagram(
        "complete-after", "complete(after: .seconds(4), scheduler: scheduler)"
      ) { run in
        let scheduler = run.scheduler
        return run.hotInts("input", "-1-2-3-4-|")
          .complete(after: .seconds(4), scheduler: scheduler)
      },
    ]
  }
}
