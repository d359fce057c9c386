import CombineExCore
import Testing

/// A hot publisher that plays a marble diagram on a ``TestScheduler``: each event is sent at
/// its tick, counted from the moment the publisher was made (the diagram's `^`, or its start).
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let input = scheduler.hotPublisher("-a-b-|", values: ["a": 1, "b": 2])
/// let recorder = input.record()
/// scheduler.advance(by: .seconds(5))
/// #expect(recorder.values == [1, 2])
/// ```
///
/// Like a subject, it delivers only to the subscribers attached when an event happens. Events
/// drawn before `^` are in the past and never sent; an expected diagram lines up with `-`:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let input = scheduler.hotPublisher("a-b-^-c-d-|")
/// scheduler.expect(input, toProduce: "----^-c-d-|")
/// ```
public final class MarblePublisher<Output, Failure: Error>: Publisher {
  private let subject = PassthroughSubject<Output, Failure>()
  private var scheduled: [any Cancellable] = []

  /// The diagram being played.
  public let diagram: MarbleDiagram?

  init<Time, Options>(
    diagram: MarbleDiagram?, scheduler: TestScheduler<Time, Options>, tick: Time.Stride,
    value: @escaping (String) -> Output?, failure: Failure?, site: CallSite
  ) where Time.Stride: SignedNumeric {
    self.diagram = diagram
    guard let diagram else { return }
    let start = scheduler.now
    for frame in diagram.frames where frame.tick >= 0 {
      let subject = self.subject
      let action: () -> Void
      switch frame.event {
      case .value(let name):
        guard let output = value(name) else {
          let message =
            "The value '\(name)' of the marble diagram \"\(diagram.text)\" has no entry in `values`."
          reportTestFailure(message, at: site)
          continue
        }
        action = { subject.send(output) }
      case .finished:
        action = { subject.send(completion: .finished) }
      case .failure:
        guard let failure else {
          let message =
            "The marble diagram \"\(diagram.text)\" fails ('#'), but no `failure` was given."
          reportTestFailure(message, at: site)
          continue
        }
        action = { subject.send(completion: .failure(failure)) }
      }
      scheduler.schedule(after: start.advanced(by: multiple(of: tick, frame.tick)), action)
    }
  }

  /// Attaches a subscriber, which receives the events that happen from now on.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subject.receive(subscriber: subscriber)
  }
}

extension TestScheduler where SchedulerTimeType.Stride: SignedNumeric {
  /// A hot publisher that plays `diagram` on this scheduler, one tick every `tick` (the
  /// scheduler's ``TestScheduler/marbleTick`` when `nil`), mapping
  /// value names to outputs through `values` and `#` to `failure`.
  ///
  /// A malformed diagram, a value name missing from `values`, or a `#` without a `failure`
  /// records a test failure at the caller's line (`sourceLocation` for Swift Testing, `filePath`
  /// and `line` for XCTest), and the publisher sends nothing for it.
  public func hotPublisher<Output, Failure: Error>(
    _ diagram: String, values: [String: Output], failure: Failure,
    tick: SchedulerTimeType.Stride? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) -> MarblePublisher<Output, Failure> {
    let site = CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line)
    return MarblePublisher(
      diagram: parseReportingFailure(diagram, at: site), scheduler: self, tick: tick ?? marbleTick,
      value: { values[$0] }, failure: failure, site: site)
  }

  /// A hot publisher that never fails, playing `diagram` on this scheduler.
  public func hotPublisher<Output>(
    _ diagram: String, values: [String: Output], tick: SchedulerTimeType.Stride? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) -> MarblePublisher<Output, Never> {
    let site = CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line)
    return MarblePublisher(
      diagram: parseReportingFailure(diagram, at: site), scheduler: self, tick: tick ?? marbleTick,
      value: { values[$0] }, failure: nil, site: site)
  }

  /// A hot publisher of the diagram's value names themselves (`"a"`, `"42"` for `{42}`).
  public func hotPublisher(
    _ diagram: String, tick: SchedulerTimeType.Stride? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    filePath: StaticString = #filePath, line: UInt = #line
  ) -> MarblePublisher<String, Never> {
    let site = CallSite(sourceLocation: sourceLocation, filePath: filePath, line: line)
    return MarblePublisher(
      diagram: parseReportingFailure(diagram, at: site), scheduler: self, tick: tick ?? marbleTick,
      value: { $0 }, failure: nil, site: site)
  }
}

/// Parses a diagram, reporting a test failure (pointing at the offending character) if it is
/// malformed. An expected diagram (`allowsEventsBeforeSubscription` false) may not draw events
/// before its `^`.
func parseReportingFailure(
  _ text: String, allowsEventsBeforeSubscription: Bool = true, at site: CallSite
) -> MarbleDiagram? {
  do {
    return try MarbleDiagram(
      text, allowsEventsBeforeSubscription: allowsEventsBeforeSubscription)
  } catch {
    reportTestFailure("Malformed marble diagram: \(error)", at: site)
    return nil
  }
}

/// `count` times `tick`, by repeated addition. (Multiplying two strides is not the same thing:
/// for `DispatchQueue` strides, an integer literal means seconds.)
func multiple<Stride: SignedNumeric>(of tick: Stride, _ count: Int) -> Stride {
  var total = Stride.zero
  for _ in 0..<max(count, 0) { total += tick }
  return total
}
