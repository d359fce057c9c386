import CombineEx

// The diagrams of Docs/Schedulers.md's time operators, on a test scheduler whose tick is one
// second. Each entry's code line is the code it applies, verbatim (GuideDiagramsTests checks
// that this file contains it).
extension OperatorDiagram {
  static var schedulersGuide: [OperatorDiagram] {
    [
      OperatorDiagram("delay", "delay(for: .seconds(2), scheduler: scheduler)") { run in
        let scheduler = run.scheduler
        return run.hot("input", "-1-2---3-|").delay(for: .seconds(2), scheduler: scheduler)
      },
      OperatorDiagram("debounce", "debounce(for: .seconds(2), scheduler: scheduler)") { run in
        let scheduler = run.scheduler
        return run.hot("input", "-1-2-----3---4|")
          .debounce(for: .seconds(2), scheduler: scheduler)
      },
      OperatorDiagram(
        "throttle", "throttle(for: .seconds(4), scheduler: scheduler, latest: false)"
      ) { run in
        let scheduler = run.scheduler
        return run.hot("input", "-1-23------4-|")
          .throttle(for: .seconds(4), scheduler: scheduler, latest: false)
      },
      OperatorDiagram(
        "throttle-latest", "throttle(for: .seconds(4), scheduler: scheduler, latest: true)"
      ) { run in
        let scheduler = run.scheduler
        return run.hot("input", "-1-23------4-|")
          .throttle(for: .seconds(4), scheduler: scheduler, latest: true)
      },
      OperatorDiagram("timeout", "timeout(.seconds(3), scheduler: scheduler)") { run in
        let scheduler = run.scheduler
        return run.hot("input", "-1-2-------3-|").timeout(.seconds(3), scheduler: scheduler)
      },
      OperatorDiagram(
        "timeout-error", "timeout(.seconds(3), scheduler: scheduler, customError: { Oops() })"
      ) { run in
        let scheduler = run.scheduler
        return run.hot("input", "-1-2-------3-|")
          .timeout(.seconds(3), scheduler: scheduler, customError: { Oops() })
      },
      OperatorDiagram(
        "measureInterval",
        "measureInterval(using: scheduler).map { $0.magnitude / 1_000_000_000 }"
      ) { run in
        let scheduler = run.scheduler
        return run.hot("input", "-a--b-c-|")
          .measureInterval(using: scheduler).map { $0.magnitude / 1_000_000_000 }
      },
      OperatorDiagram("collect-byTime", "collect(.byTime(scheduler, .seconds(3)))") { run in
        let scheduler = run.scheduler
        return run.hotInts("input", "-12-3--45--|").collect(.byTime(scheduler, .seconds(3)))
      },
      OperatorDiagram(
        "collect-byTimeOrCount", "collect(.byTimeOrCount(scheduler, .seconds(4), 2))"
      ) { run in
        let scheduler = run.scheduler
        return run.hotInts("input", "-1-2-3---4-|")
          .collect(.byTimeOrCount(scheduler, .seconds(4), 2))
      },
    ]
  }
}
