import CombineEx
import CombineExTesting
import Dispatch
import Testing

/// One run of an operator on a test scheduler, one tick a second: the publishers it draws from,
/// and the row each draws in the diagram.
///
/// Hot inputs (``hot(_:_:)``) play their diagram from tick 0, like subjects. Cold publishers
/// (``cold(_:_:)``) play theirs from the moment they are subscribed, once per subscription:
/// each subscription adds a row that starts at that tick (the notation of inner publishers,
/// Docs/Operators.md, "Reading the diagrams").
final class MarbleRun {
  /// The failure a `#` sends.
  struct Failure: Error {}

  /// A row of the diagram: a publisher's own diagram, from the tick at which it starts.
  struct Row {
    let label: String
    let start: Int
    let diagram: MarbleDiagram
  }

  let scheduler = DispatchQueue.test
  /// The tick being played.
  private(set) var tick = 0
  private(set) var rows: [Row] = []

  /// A hot publisher of the diagram's value names, playing from tick 0.
  func hot(_ label: String, _ diagram: String) -> MarblePublisher<String, Failure> {
    hot(label, diagram) { $0 }
  }

  /// A hot publisher of the diagram's digits, as `Int`s.
  func hotInts(_ label: String, _ diagram: String) -> MarblePublisher<Int, Failure> {
    hot(label, diagram) { Int($0)! }
  }

  /// A cold publisher of the diagram's value names: each subscription plays the diagram from
  /// the tick at which it is subscribed, and adds a row to the diagram.
  func cold(_ label: String, _ diagram: String) -> AnyPublisher<String, Failure> {
    Deferred { [unowned self] in hot(label, diagram, startingNow: true) { $0 } }
      .eraseToAnyPublisher()
  }

  /// A function from a value to a cold publisher of the diagram `inner` gives for it, whose
  /// rows are labelled `lookup(<value>)`: what the diagrams' `lookup($0)` calls.
  func lookup(_ inner: [String: String]) -> (String) -> AnyPublisher<String, Failure> {
    { [unowned self] value in cold("lookup(\(value))", inner[value]!) }
  }

  /// A cold publisher of the diagram's digits, as `Int`s.
  func coldInts(_ label: String, _ diagram: String) -> AnyPublisher<Int, Failure> {
    Deferred { [unowned self] in hot(label, diagram, startingNow: true) { Int($0)! } }
      .eraseToAnyPublisher()
  }

  private func hot<Value>(
    _ label: String, _ text: String, startingNow: Bool = false, value: (String) -> Value
  ) -> MarblePublisher<Value, Failure> {
    let diagram = try! MarbleDiagram(text)
    rows.append(Row(label: label, start: startingNow ? tick : 0, diagram: diagram))
    var values: [String: Value] = [:]
    for frame in diagram.frames {
      if case .value(let name) = frame.event { values[name] = value(name) }
    }
    return scheduler.hotPublisher(text, values: values, failure: Failure())
  }

  /// The tick after the last one any row draws (rows of cold publishers included, as they
  /// are subscribed).
  var rowsEnd: Int { rows.map { $0.start + $0.diagram.duration }.max() ?? 0 }

  /// Subscribes to `publisher` at tick 0 and plays `ticks` ticks (by default, until two ticks
  /// after the end of the last row, counting the rows of cold publishers subscribed meanwhile):
  /// the events it produced, and the tick after its completion (`nil` if it did not complete).
  func record<P: Publisher>(_ publisher: P, ticks: Int?) -> (
    frames: [MarbleDiagram.Frame], end: Int?
  ) {
    var frames: [MarbleDiagram.Frame] = []
    var end: Int?
    let cancellable = publisher.sink(
      receiveCompletion: { [unowned self] completion in
        if case .failure = completion {
          frames.append(MarbleDiagram.Frame(tick: tick, event: .failure))
        } else {
          frames.append(MarbleDiagram.Frame(tick: tick, event: .finished))
        }
        end = tick + 1
      },
      receiveValue: { [unowned self] value in
        frames.append(MarbleDiagram.Frame(tick: tick, event: .value("\(value)")))
      })
    scheduler.advance()
    // A cap: a diagram is small, and a publisher that keeps subscribing must not hang a test.
    while tick < min(ticks ?? rowsEnd + 2, 200) {
      tick += 1
      scheduler.advance(by: .seconds(1))
    }
    cancellable.cancel()
    return (frames, end)
  }
}
