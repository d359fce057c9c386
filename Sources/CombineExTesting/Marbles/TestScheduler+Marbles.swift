import CombineExCore
import Testing

extension TestScheduler where SchedulerTimeType.Stride: SignedNumeric {
  /// Checks, tick by tick, that `publisher` produces the events drawn in `expected`.
  ///
  /// Subscribes now (with unlimited demand), advances this scheduler through the diagram's
  /// duration, one tick every `tick` (``TestScheduler/marbleTick`` when `nil`), then cancels. The moment of the subscription is the
  /// diagram's tick 0: its `^`, or its start. Only `-` and spaces may come before `^` (to line
  /// the diagram up with an input's): an event there is reported as a malformed diagram, since
  /// a subscriber sees nothing that happened before it subscribed. The diagram covers its ticks
  /// and no more: events at the very end of the advance (the first moment of the tick after the
  /// diagram's last one) are not compared. If the events differ, records a test failure at the
  /// caller's line (`sourceLocation` for Swift Testing, `filePath` and `line` for XCTest) that
  /// shows both diagrams:
  ///
  /// ```text
  /// The publisher's events differ from the marble diagram:
  ///   expected: -a-b-|
  ///   actual:   -a---|
  /// ```
  ///
  /// Outputs are drawn with their names in `values` (an output missing from `values` is drawn
  /// as `{output}`).
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let input = scheduler.hotPublisher("-a-b-c---|")
  /// scheduler.expect(
  ///   input.debounce(for: .seconds(2), scheduler: scheduler),
  ///   toProduce: "-------c-|")
  /// ```
  public func expect<P: Publisher>(
    _ publisher: P, toProduce expected: String, values: [String: P.Output],
    tick: SchedulerTimeType.Stride? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) where P.Output: Equatable {
    expect(
      publisher, toProduce: expected, tick: tick ?? marbleTick,
      at: CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line),
      name: { output in values.first { $0.value == output }?.key ?? "\(output)" })
  }

  /// Checks that a publisher of strings produces the events drawn in `expected`, its values
  /// being the diagram's value names.
  public func expect<P: Publisher>(
    _ publisher: P, toProduce expected: String, tick: SchedulerTimeType.Stride? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) where P.Output == String {
    expect(
      publisher, toProduce: expected, tick: tick ?? marbleTick,
      at: CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line)
    ) { $0 }
  }

  private func expect<P: Publisher>(
    _ publisher: P, toProduce expected: String, tick: SchedulerTimeType.Stride,
    at site: CallSite, name: @escaping (P.Output) -> String
  ) {
    guard
      let diagram = parseReportingFailure(
        expected, allowsEventsBeforeSubscription: false, at: site)
    else {
      return
    }
    let start = now
    let recorder = MarbleRecorder<P.Output, P.Failure> { [unowned self] in
      ticks(from: start, to: now, tick: tick)
    }
    publisher.subscribe(recorder)
    advance(by: multiple(of: tick, diagram.duration))
    recorder.cancel()
    // The diagram covers ticks 0 ..< duration: what happens at its end (a timer's next tick, at
    // the very moment the advance stops) belongs to the tick after it.
    let actual = recorder.frames(naming: name).filter { $0.tick < diagram.duration }
    guard actual != diagram.frames else { return }
    let expectedDrawing = MarbleDiagram.draw(diagram.frames, duration: diagram.duration)
    let actualDrawing = MarbleDiagram.draw(actual, duration: diagram.duration)
    let message = """
      The publisher's events differ from the marble diagram:
        expected: \(expectedDrawing)
        actual:   \(actualDrawing)
      """
    reportTestFailure(message, at: site)
  }

  /// How many whole ticks separate `start` from `time`.
  private func ticks(
    from start: SchedulerTimeType, to time: SchedulerTimeType, tick: SchedulerTimeType.Stride
  ) -> Int {
    let distance = start.distance(to: time)
    var count = 0
    var next = tick
    while next <= distance {
      count += 1
      next += tick
    }
    return count
  }
}

/// Records events with the tick at which they happen.
private final class MarbleRecorder<Input, Failure: Error>: Subscriber, Cancellable {
  private let currentTick: () -> Int
  private var subscription: (any Subscription)?
  private var recorded: [(tick: Int, event: Recorded)] = []

  private enum Recorded {
    case value(Input)
    case finished
    case failure
  }

  init(currentTick: @escaping () -> Int) {
    self.currentTick = currentTick
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    recorded.append((currentTick(), .value(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: recorded.append((currentTick(), .finished))
    case .failure: recorded.append((currentTick(), .failure))
    }
    subscription = nil
  }

  func cancel() {
    subscription?.cancel()
    subscription = nil
  }

  func frames(naming name: (Input) -> String) -> [MarbleDiagram.Frame] {
    recorded.map { tick, event in
      switch event {
      case .value(let input): return MarbleDiagram.Frame(tick: tick, event: .value(name(input)))
      case .finished: return MarbleDiagram.Frame(tick: tick, event: .finished)
      case .failure: return MarbleDiagram.Frame(tick: tick, event: .failure)
      }
    }
  }
}
