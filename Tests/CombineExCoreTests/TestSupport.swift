import CombineExCore
import Foundation

/// An error with an identity, for failure paths.
struct TestError: Error, Equatable, CustomStringConvertible {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
  var description: String { "TestError(\(id))" }
}

/// An object whose lifetime the leak tests watch through weak references.
final class TestOwner: @unchecked Sendable {
  var values: [Int] = []
}

/// Records values delivered from any thread and counts overlapping deliveries, which would
/// break the serial-delivery rule.
final class SerialDeliveryChecker: Sendable {
  private let state = LockedBox<(values: [Int], inside: Int, overlaps: Int)>(([], 0, 0))

  func receive(_ value: Int) {
    state.withLock {
      $0.inside += 1
      if $0.inside > 1 { $0.overlaps += 1 }
    }
    state.withLock {
      $0.values.append(value)
      $0.inside -= 1
    }
  }

  var values: [Int] { state.withLock { $0.values } }
  var overlaps: Int { state.withLock { $0.overlaps } }
}

extension Subscribers.Completion {
  /// Whether this is `.finished`.
  var isFinished: Bool {
    if case .finished = self { return true }
    return false
  }

  /// The failure, if any.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension Optional where Wrapped: CompletionProtocol {
  /// Whether this is a `.finished` completion.
  var isFinished: Bool { self?.isFinishedValue ?? false }
}

/// Lets `Optional<Subscribers.Completion<F>>.isFinished` read naturally in tests.
protocol CompletionProtocol {
  var isFinishedValue: Bool { get }
}

extension Subscribers.Completion: CompletionProtocol {
  var isFinishedValue: Bool { isFinished }
}

/// A publisher that forwards everything and calls `onCancel` when its subscription is
/// cancelled: a probe for "cancel reaches the upstream" until handleEvents exists.
struct CancelProbe<Upstream: Publisher>: Publisher {
  typealias Output = Upstream.Output
  typealias Failure = Upstream.Failure
  let upstream: Upstream
  let onCancel: () -> Void

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    upstream.subscribe(Probe(downstream: subscriber, onCancel: onCancel))
  }

  final class Probe<Downstream: Subscriber>: Subscriber, Subscription
  where Downstream.Input == Output, Downstream.Failure == Failure {
    let downstream: Downstream
    let onCancel: () -> Void
    var upstream: (any Subscription)?
    init(downstream: Downstream, onCancel: @escaping () -> Void) {
      self.downstream = downstream
      self.onCancel = onCancel
    }
    func receive(subscription: any Subscription) {
      upstream = subscription
      downstream.receive(subscription: self)
    }
    func receive(_ input: Upstream.Output) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      downstream.receive(completion: completion)
    }
    func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }
    func cancel() {
      onCancel()
      upstream?.cancel()
    }
  }
}

extension Publisher {
  /// Wraps the publisher in a ``CancelProbe``.
  func handleCancelForTest(_ onCancel: @escaping () -> Void) -> CancelProbe<Self> {
    CancelProbe(upstream: self, onCancel: onCancel)
  }
}
