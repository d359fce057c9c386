import BenchmarkKit
import Foundation

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

// What the setup sweep (Sweep.swift) is made of: its source, its entry builders, and the check
// that each entry subscribes to the type it names.

/// Subscriptions per run of a sweep entry: 250 at the gate's scale (0.05), which keeps the
/// sweep's share of the gate's time under half.
private let sweepSize = 5_000

/// The sweep's upstream for operators: a publisher that sends one value at the first request,
/// then finishes. Written here once, against each library's protocols, so that both libraries'
/// operators run behind the same source, and so that neither library fuses the operator into
/// its source (Combine turns `Just(1).map { ... }` into a `Just`, and `filter` on a `Just` into
/// an `Optional.Publisher`).
struct OneValue<Output, Failure: Error>: Publisher {
  let value: Output

  init(_ value: Output) {
    self.value = value
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: OneValueSubscription(value: value, downstream: subscriber))
  }
}

/// ``OneValue``'s subscription: it holds its subscriber until the value has gone out or a
/// cancel came. The benchmark drives it from one thread, so it needs no lock.
private final class OneValueSubscription<Downstream: Subscriber>: Subscription {
  private var downstream: Downstream?
  private let value: Downstream.Input

  init(value: Downstream.Input, downstream: Downstream) {
    self.value = value
    self.downstream = downstream
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > .none, let downstream else { return }
    self.downstream = nil
    _ = downstream.receive(value)
    downstream.receive(completion: .finished)
  }

  func cancel() {
    downstream = nil
  }
}

/// The failure of the sweep's failable sources: none is ever sent.
struct SweepError: Error {}

/// Three fields for the key-path `map`s.
struct Triple: Codable {
  let first: Int
  let second: Int
  let third: Int

  init(_ value: Int) {
    (first, second, third) = (value, value, value)
  }
}

/// An element for CombineEx's `propertyMap`, which maps identified elements.
struct IdentifiedInt: Identifiable, Equatable {
  let id: Int
  let value: Int
}

/// A JSON encoder for `encode(encoder:)`: OpenCombine's `JSONEncoder` conformance lives in a
/// module the benchmarks do not use, so both builds wrap it the same way.
struct SweepEncoder: TopLevelEncoder {
  let encoder = JSONEncoder()

  func encode<T: Encodable>(_ value: T) throws -> Data {
    try encoder.encode(value)
  }
}

/// A JSON decoder for `decode(type:decoder:)`; see ``SweepEncoder``.
struct SweepDecoder: TopLevelDecoder {
  let decoder = JSONDecoder()

  func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try decoder.decode(type, from: data)
  }
}

/// A stream `print(_:to:)` writes to, which keeps nothing.
struct DiscardingStream: TextOutputStream {
  mutating func write(_ string: String) {}
}

/// The scheduler of the entries whose operator sets a timer beside its values (`timeout`,
/// `collect(.byTime)`): its clock stands still, so a timer never fires (it is set, then
/// cancelled when the completion comes), and work scheduled for now runs at once, on the
/// calling thread. On the `ImmediateScheduler`, the timer would fire at once (a timeout before
/// the value); on a queue, the values would arrive on the queue's thread, after the sink's
/// cancel or not, depending on timing.
struct StillScheduler: Scheduler {
  typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
  typealias SchedulerOptions = Never

  var now: SchedulerTimeType { ImmediateScheduler.shared.now }

  var minimumTolerance: SchedulerTimeType.Stride { ImmediateScheduler.shared.minimumTolerance }

  func schedule(options: Never?, _ action: @escaping () -> Void) {
    action()
  }

  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {}

  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    AnyCancellable {}
  }
}

/// A type that the sweep does not subscribe to, with the reason: the completeness test
/// (Tests/ConformanceTests/BenchmarkSweepTests.swift) accepts a registry type that is either
/// swept or listed here.
struct SweepExemption {
  let type: String
  let reason: String
}

/// A type the sweep leaves out, and why.
func exempt(_ type: String, reason: String) -> SweepExemption {
  SweepExemption(type: type, reason: reason)
}

/// The sweep's key for the registry type `type`: `s.` and the type's name without the
/// `Publishers.` namespace (`s.Map`, `s.Just`, `s.Result.Publisher`).
func sweepKey(_ type: String) -> String {
  "s." + (type.hasPrefix("Publishers.") ? String(type.dropFirst("Publishers.".count)) : type)
}

/// The targets every sweep entry is held to (issue 30): no slower than OpenCombine's, where it
/// has the type, and no more than 10 times `e1` (`Just(i).map.sink`, cancel).
private let sweepTargets: [Workload.Target] = [
  .fasterThanOpenCombine(1), .withinFactorOf("e1", 10),
]

/// What a sweep entry's sink adds for each event: the checksum counts values and completions,
/// so that both libraries are seen to deliver the same events.
private enum SweepEvent {
  static let value = 1
  static let finished = 1 << 20
  static let failure = 1 << 40
}

/// A sweep entry: per unit, `make(i)` builds the publisher (or returns a shared one), a sink
/// subscribes to it, `drive` runs if given (a subject's send), and the sink is cancelled.
/// `type` is the conformance registry's name of the public type that `make` returns, checked
/// before measuring; `title` is the pipeline (a title that starts with a dot applies the operator
/// to `OneValue(i)`).
func swept<P: Publisher>(
  _ type: String, _ title: String, _ make: @escaping (Int) -> P,
  drive: ((P, Int) -> Void)? = nil
) -> Workload {
  Workload(sweepKey(type), title, unit: "subscription", targets: sweepTargets) { bench in
    checkSweptType(P.self, is: type)
    let count = bench.size(sweepSize)
    let total = Total()
    bench.measure(units: count) {
      for index in 0..<count {
        let publisher = make(index)
        let cancellable = publisher.sink(
          receiveCompletion: { completion in
            if case .finished = completion {
              total.add(SweepEvent.finished)
            } else {
              total.add(SweepEvent.failure)
            }
          },
          receiveValue: { _ in total.add(SweepEvent.value) })
        drive?(publisher, index)
        cancellable.cancel()
      }
    }
    bench.consume(total.value)
  }
}

/// A sweep entry for a connectable publisher: per unit, a sink subscribes to `make(i)`, the
/// publisher is connected, and both the sink and the connection are cancelled.
func sweptConnectable<P: ConnectablePublisher>(
  _ type: String, _ title: String, _ make: @escaping (Int) -> P
) -> Workload {
  Workload(sweepKey(type), title, unit: "subscription", targets: sweepTargets) { bench in
    checkSweptType(P.self, is: type)
    let count = bench.size(sweepSize)
    let total = Total()
    bench.measure(units: count) {
      for index in 0..<count {
        let publisher = make(index)
        let cancellable = publisher.sink(
          receiveCompletion: { _ in total.add(SweepEvent.finished) },
          receiveValue: { _ in total.add(SweepEvent.value) })
        let connection = publisher.connect()
        cancellable.cancel()
        connection.cancel()
      }
    }
    bench.consume(total.value)
  }
}

/// Stops the run if an entry subscribes to another type than the one it names (a fusion the
/// entry did not expect, say), so that the sweep measures what its list says.
private func checkSweptType(_ publisher: Any.Type, is type: String) {
  let name = registryName(of: publisher)
  if name != type { fatalError("sweep entry \(type) subscribes to \(name) (\(publisher))") }
}

/// The conformance registry's name of `type`: its reflected name without the module, the
/// generic arguments, an extension's `(extension in Module):` prefix and OpenCombine's
/// `OCombine` namespace (`Publishers.Map`, `Result.Publisher`, `Published.Publisher`).
func registryName(of type: Any.Type) -> String {
  var name = Substring(String(reflecting: type))
  if name.hasPrefix("(extension in "), let colon = name.firstIndex(of: ":") {
    name = name[name.index(after: colon)...]
  }
  var plain = ""
  var depth = 0
  var previous: Character = " "
  for character in name {
    switch character {
    case "<": depth += 1
    case ">" where previous != "-": depth -= 1
    default: if depth == 0 { plain.append(character) }
    }
    previous = character
  }
  return plain.split(separator: ".").dropFirst().filter { $0 != "OCombine" }
    .joined(separator: ".")
}
