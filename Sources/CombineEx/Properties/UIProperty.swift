import CombineExCore
import Observation

/// An `@Observable` mirror of a property for SwiftUI (or any Observation client), whose
/// ``value`` changes only on the main queue.
///
/// Keep your model's state in properties, and give views a `UIProperty` of it:
///
/// ```swift
/// @MainActor final class DownloadViewModel {
///   let progress: UIProperty<Double>
///   init(progress: Property<Double>) {
///     self.progress = UIProperty(progress)
///   }
/// }
/// // A SwiftUI view reading `model.progress.value` re-renders when it changes.
/// ```
///
/// ## Semantics
/// - The value starts as the property's current value (or `initial`, for
///   ``init(initial:then:)``).
/// - Every value the source publishes is applied through ``UIScheduler``: at once when it is
///   published on the main queue (so views see it in the same frame), otherwise on the main
///   queue, in order. Observers (`withObservationTracking`, SwiftUI) are therefore notified on
///   the main queue. No deduplication: each published value is a change.
/// - It is itself a property (``PropertyProtocol``): subscribing delivers its current value,
///   then every value it applies, on the main queue. It never completes.
/// - ``value`` may be read from any thread (it is the value as last applied on the main queue);
///   the class may be created on any thread.
/// - It follows the source until it is deinitialized (it does not keep itself alive), and does
///   not keep the source alive beyond its subscription to it.
@Observable
public final class UIProperty<Output>: PropertyProtocol {
  /// A `UIProperty` never fails.
  public typealias Failure = Never

  /// The value as applied on the main queue, and the publisher of what it applies.
  @ObservationIgnored
  private let mirror: MutableProperty<Output>

  /// The subscription to the source. Written once, in `init`; cancelled when `self` goes.
  @ObservationIgnored
  private var subscription: AnyCancellable?

  /// The latest value the source published, as applied on the main queue.
  public var value: Output {
    access(keyPath: \.value)
    return mirror.value
  }

  /// Creates a mirror of `property`.
  public init<P: PropertyProtocol>(_ property: P) where P.Output == Output {
    mirror = MutableProperty(property.value)
    // The property delivers its current value at once when subscribed (unless another thread
    // is delivering to it at that moment): that value is the starting value, not a change, so
    // it is taken here, before anybody can observe the mirror, instead of being applied again
    // on the main queue. Any other value is applied on the main queue.
    let startup = StartupGate()
    let mirror = mirror
    subscription = follow(
      property.filter { value in
        !startup.takeStartingValue { mirror.value = value }
      })
    startup.close()
  }

  /// Creates a mirror that starts with `initial` and then takes every value of `then`, applied
  /// on the main queue.
  ///
  /// ```swift
  /// let downloads = PassthroughSubject<Int, Never>()
  /// let count = UIProperty(initial: 0, then: downloads)
  /// print(count.value)  // Prints: 0
  /// ```
  public init(initial: Output, then: some Publisher<Output, Never>) {
    mirror = MutableProperty(initial)
    subscription = follow(then)
  }

  /// A mirror of a constant: its value never changes.
  ///
  /// ```swift
  /// let placeholder: UIProperty<String> = .just("Loading…")
  /// print(placeholder.value)  // Prints: Loading…
  /// ```
  public static func just(_ value: Output) -> Self {
    .init(Property(value: value))
  }

  /// Attaches a subscriber, which receives the current value, then every value applied on the
  /// main queue.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    mirror.receive(subscriber: subscriber)
  }

  /// Applies every value of `source` through ``UIScheduler`` (the completion is of no use to a
  /// mirror, which never completes: it is not sent to the main queue).
  private func follow(_ source: some Publisher<Output, Never>) -> AnyCancellable {
    source.sink { [weak self] newValue in
      UIScheduler.shared.schedule { self?.apply(newValue) }
    }
  }

  /// Applies a value (on the main queue) and tells observers.
  private func apply(_ newValue: Output) {
    withMutation(keyPath: \.value) {
      mirror.value = newValue
    }
  }
}

/// Takes a ``UIProperty``'s starting value: the first value its source delivers while the
/// initializer runs.
private final class StartupGate: @unchecked Sendable {
  // @unchecked Sendable: `state` is guarded by `lock`.
  private enum State {
    case waiting
    case taken
    case closed
  }

  private let lock = Lock()
  private var state = State.waiting

  /// Runs `store` and returns `true` if this is the first value and the initializer has not
  /// returned yet. `store` runs under the lock, so `close()` (and the initializer's return, after
  /// which the mirror can have subscribers) waits for it: it never calls out to a subscriber.
  func takeStartingValue(_ store: () -> Void) -> Bool {
    lock.withLock {
      guard case .waiting = state else { return false }
      state = .taken
      store()
      return true
    }
  }

  /// Ends the initializer's window.
  func close() { lock.withLock { state = .closed } }
}

extension UIProperty: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `mirror` is a thread-safe MutableProperty, `subscription` is written
  // only during `init`, and the Observation registrar is Sendable.
}
