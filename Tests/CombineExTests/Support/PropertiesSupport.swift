import CombineEx
import Foundation
import Synchronization

/// A property that counts its subscriptions and the cancels that reach it: a probe for
/// "subscribes once", "cancel reaches the source" and "the composition lets go of it".
/// Single-threaded tests only.
struct ProbedProperty<Output>: PropertyProtocol {
  typealias Failure = Never

  let source: MutableProperty<Output>
  let probe: SubscriptionProbe<MutableProperty<Output>>

  init(_ initial: Output) {
    source = MutableProperty(initial)
    probe = SubscriptionProbe(source)
  }

  var value: Output { source.value }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    probe.publisher.receive(subscriber: subscriber)
  }
}

/// Records values delivered from any thread, and counts overlapping deliveries (which would
/// break the serial-delivery rule).
final class DeliveryLog<Value: Sendable>: Sendable {
  private let state = Mutex<(values: [Value], inside: Int, overlaps: Int)>(([], 0, 0))

  func receive(_ value: Value) {
    state.withLock {
      $0.inside += 1
      if $0.inside > 1 { $0.overlaps += 1 }
    }
    state.withLock {
      $0.values.append(value)
      $0.inside -= 1
    }
  }

  var values: [Value] { state.withLock { $0.values } }
  var overlaps: Int { state.withLock { $0.overlaps } }
}

/// A value to watch with a weak reference.
final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A (misbehaving) property whose publisher finishes without delivering its value: combinations
/// must still finish rather than wait forever.
struct ValuelessProperty<Output>: PropertyProtocol {
  typealias Failure = Never

  let value: Output

  init(_ value: Output) { self.value = value }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    Empty<Output, Never>().receive(subscriber: subscriber)
  }
}

/// A thread-safe property that counts the cancels reaching it (for tests on the main queue).
final class ProbedSendableProperty<Output: Sendable>: PropertyProtocol, Sendable {
  typealias Failure = Never

  let source: MutableProperty<Output>
  private let cancelCount = Mutex(0)

  init(_ initial: Output) {
    source = MutableProperty(initial)
  }

  var value: Output { source.value }

  /// How many subscriptions were cancelled.
  var cancels: Int { cancelCount.withLock { $0 } }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    source.handleEvents(receiveCancel: { self.cancelCount.withLock { $0 += 1 } })
      .receive(subscriber: subscriber)
  }
}
